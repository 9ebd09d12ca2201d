// packFixtures draws the pack a chunk at a time, so a run and a verify of 10,000 cases never hold
// the pack: it must be the very pack generatePack draws, across chunk boundaries and at any size.

import { describe, expect, it } from 'vitest';
import { generatePack, packFixtures } from '../../lib/generate/pack.ts';

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
