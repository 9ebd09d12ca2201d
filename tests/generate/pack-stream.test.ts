// packFixtures draws the pack a chunk at a time, so a run and a verify of 10,000 cases never hold
// the pack: it must be the very pack generatePack draws, across chunk boundaries and at any size.
// It keeps the last chunks it drew, frozen, so a process that draws a pack again draws it once:
// what it hands out again must be what a fresh draw is, for every request that names it.

import { describe, expect, it } from 'vitest';
import { fixtureDigest } from '../../lib/canonical-json.ts';
import { drawnFixtureDigest, generatePack, packFixtures } from '../../lib/generate/pack.ts';
import type { Fixture } from '../../lib/types.ts';

describe('packFixtures', () => {
  it.each([1, 7, 2147483647])('at seed %i yields generatePack’s 70 fixtures, in order', (seed) => {
    expect([...packFixtures({ count: 70, seed })]).toEqual(generatePack({ count: 70, seed }));
  });

  it('the first fixtures of the largest pack are the small pack’s, drawn without the rest', () => {
    const first: unknown[] = [];
    for (const fixture of packFixtures({ count: 10_000, seed: 5 })) {
      first.push(fixture);
      if (first.length === 3) break;
    }
    expect(first).toEqual(generatePack({ count: 3, seed: 5 }));
  });

  it('refuses what generatePack refuses, before drawing anything', () => {
    expect(() => packFixtures({ count: 3, seed: -1 }).next()).toThrow('a pack seed is an integer');
  });
});

describe('the chunks packFixtures keeps', () => {
  it('hand out the same frozen fixtures again, equal to a fresh draw', () => {
    const first = [...packFixtures({ count: 40, seed: 31 })];
    const again = [...packFixtures({ count: 40, seed: 31 })];
    expect(again).toEqual(generatePack({ count: 40, seed: 31 }));
    expect(again.every((fixture, i) => fixture === first[i])).toBe(true);
    // Frozen at every depth, so no reader can change what the next is handed.
    const fixture = again[0] as Fixture;
    expect(() => Object.assign(fixture, { id: 'changed' })).toThrow(TypeError);
    expect(() => (fixture.suite.tasks as unknown[]).push({})).toThrow(TypeError);
    expect(generatePack({ count: 1, seed: 31 })[0]?.id).toBe(fixture.id);
  });

  it('are told apart by every member of the request: seed, size, generator and its options', () => {
    const requests = [
      { count: 5, seed: 32 },
      { count: 5, seed: 33 },
      { count: 4, seed: 32 },
      { count: 5, seed: 32, generator: 4 },
      { count: 5, seed: 32, maxTrials: 1 },
      { count: 5, seed: 32 },
    ];
    for (const request of requests) {
      expect([...packFixtures(request)], JSON.stringify(request)).toEqual(generatePack(request));
    }
  });

  it('keep only the last few chunks: a chunk drawn long ago is drawn afresh', () => {
    const first = [...packFixtures({ count: 2, seed: 40 })];
    for (let seed = 41; seed < 60; seed += 1) {
      expect([...packFixtures({ count: 2, seed })]).toHaveLength(2);
    }
    const again = [...packFixtures({ count: 2, seed: 40 })];
    expect(again).toEqual(first);
    expect(again[0]).not.toBe(first[0]);
  });

  it("give each drawn fixture's digest once, and any other fixture's as fixtureDigest does", () => {
    const [drawn] = [...packFixtures({ count: 1, seed: 34 })];
    const [fresh] = generatePack({ count: 1, seed: 34 });
    if (drawn === undefined || fresh === undefined) throw new Error('no fixture drawn');
    expect(drawnFixtureDigest(drawn)).toBe(fixtureDigest(fresh));
    expect(drawnFixtureDigest(drawn)).toBe(fixtureDigest(fresh));
    const other: Fixture = { ...fresh, agentId: 'another' };
    expect(drawnFixtureDigest(other)).toBe(fixtureDigest(other));
    expect(drawnFixtureDigest(other)).not.toBe(fixtureDigest(fresh));
  });
});
