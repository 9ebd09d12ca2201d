// The generator's own tests: every fixture it makes is one the suite would load, a seed replays a
// pack, and the pack of 200 at seed 1 reaches every feature docs/generated-suites.md lists. A differential test
// over suites that never reach a boundary, a miss or a case-differing argument would pass without
// having tested them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureProblem } from '../../lib/fixtures.ts';
import { PATH_KINDS, scriptedCalls } from '../../lib/generate/calls.ts';
import { generatePack, parseGeneratedId, selectedFixtures } from '../../lib/generate/pack.ts';
import { fixtureArb } from '../../lib/generate/suite.ts';
import { formatSchemaErrors, validate } from '../../lib/schemas.ts';
import { goldenMatches } from '../../lib/witness/match.ts';
import type { Fixture, ToolCall } from '../../lib/types.ts';
import { above, grade } from '../property/oracle.ts';
import { generatedFeatures } from './features.ts';

const PACK = generatePack({ count: 200, seed: 1 });

describe('the generator of scripted eval suites', () => {
  it('makes only fixtures that validate and load: schema, script shape and stated figures', () => {
    fc.assert(
      fc.property(fixtureArb(), (fixture) => {
        expect(formatSchemaErrors(validate('fixture', fixture))).toBe('');
        expect(fixtureProblem(fixture)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
    for (const fixture of PACK) expect(formatSchemaErrors(validate('fixture', fixture))).toBe('');
  });

  it('replays a pack from its seed, and a smaller pack is the start of a larger one', () => {
    expect(generatePack({ count: 200, seed: 1 })).toEqual(PACK);
    expect(generatePack({ count: 7, seed: 1 })).toEqual(PACK.slice(0, 7));
    expect(generatePack({ count: 7, seed: 2 })).not.toEqual(PACK.slice(0, 7));
  });

  it('names each fixture by seed and place, with a suite id of its own', () => {
    expect(PACK[41]?.id).toBe('generated-s1-n0042');
    expect(parseGeneratedId('generated-s1-n0042')).toEqual({ seed: 1, index: 42 });
    expect(parseGeneratedId('conformance-eval-trajectory-gate')).toBeNull();
    expect(new Set(PACK.map((f) => f.suite.suiteId)).size).toBe(PACK.length);
  });

  it('refuses a seed or a size it cannot replay', () => {
    expect(() => generatePack({ count: 1, seed: -1 })).toThrow(/seed/);
    expect(() => generatePack({ count: 1.5, seed: 1 })).toThrow(/size/);
    expect(generatePack({ count: 0, seed: 1 })).toEqual([]);
  });

  it('keeps trials.count within the advertised maximum it is given', () => {
    const counts = generatePack({ count: 100, seed: 3, maxTrials: 3 }).map(
      (f) => f.suite.trials?.count ?? 1,
    );
    expect(Math.max(...counts)).toBe(3);
  });

  it('bends a four-call path a different way for every path kind', () => {
    const base: ToolCall[] = [
      { tool: 'crm:lookup', args: { id: 'A' } },
      { tool: 'crm:update' },
      { tool: 'crm:lookup', args: { id: 'A' } },
      { tool: 'kb:search', args: { id: 'B', tags: ['B', 'vip'] } },
    ];
    const paths = PATH_KINDS.map((kind) => JSON.stringify(scriptedCalls(kind, base, 3)));
    expect(new Set(paths).size).toBe(PATH_KINDS.length);
    expect(scriptedCalls('wrong-case', base, 3)[3]).toEqual({
      tool: 'kb:search',
      args: { id: 'b', tags: ['B', 'vip'] },
    });
    // The same members in the other order, and the same items in the other order.
    expect(JSON.stringify(scriptedCalls('members-reordered', base, 3)[3])).toBe(
      '{"tool":"kb:search","args":{"tags":["B","vip"],"id":"B"}}',
    );
    expect(scriptedCalls('array-reordered', base, 3)[3]).toEqual({
      tool: 'kb:search',
      args: { id: 'B', tags: ['vip', 'B'] },
    });
  });

  it('a matching json-match output has its members in another order, and still matches', () => {
    const reordered = PACK.flatMap((f) =>
      f.suite.tasks.flatMap((task) => {
        const match = task.expected.match;
        if (match?.strategy !== 'json-match') return [];
        return (f.script[task.taskId] ?? []).filter(
          (e) =>
            goldenMatches(match, e.output) &&
            JSON.stringify(e.output) !== JSON.stringify(match.value),
        );
      }),
    );
    expect(reordered.length).toBeGreaterThan(0);
  });
});

describe('the pack of 200 at seed 1 reaches every feature', () => {
  const seen = generatedFeatures(PACK, (f: Fixture) => ({
    inclusive: grade(f),
    strict: grade(f, above),
  }));

  it.each([
    'task-with-trajectory',
    'task-without-trajectory',
    'match:exact',
    'match:in-order',
    'match:any-order',
    'expected-call-without-args',
    'expected-call-with-empty-args',
    'expected-call-with-args',
    'forbidden-listed',
    'forbidden-hit',
    'repeated-expected-call',
    'repeat-made-once',
    'call-made-twice',
    'rule:none',
    'rule:all',
    'rule:any',
    'rule:mean',
    'trials-at-maximum',
    'golden:exact:matched',
    'golden:exact:missed',
    'golden:contains:matched',
    'golden:contains:missed',
    'golden:json-match:matched',
    'golden:json-match:missed',
    'golden-missed-by-case',
    'exact:missed-by-whitespace',
    'exact:object-equals-its-text',
    'exact:object-members-reordered',
    'contains:object-text-holds-value',
    'json-match:string-spells-value',
    'json-match:array-reordered',
    'args-differ-by-value',
    'args-differ-by-case',
    'args-superset',
    'expected-call-with-several-args',
    'expected-call-with-nested-args',
    'args-members-reordered',
    'args-array-reordered',
    'tool-expected-and-forbidden',
    'exact:non-string-value',
    'exact:string-spells-non-string-value',
    'exact:value-members-reordered',
    'empty-expected-trajectory',
    'call-where-no-fixtures',
    'pass-score:0',
    'pass-score:1',
    'pass-score:0-no-trials-trajectory-failed',
    'pass-score:0-no-trials-failed-closed',
    'pass-score:0-no-trials-score-0-passed',
    'p95-over-task-means-differs',
    'p95-over-task-sums-differs',
    'miss:empty-tool-responses',
    'call-where-no-tool-responses',
    'call-answered-by-entry-without-response',
    'miss:unrecorded-tool',
    'call-to-tool-listed-twice',
    'script-entry-for-every-trial',
    'script-entry-per-trial',
    'trajectory-failed',
    'trajectory-matched',
    'good-answer-wrong-path',
    'mean-task-on-pass-score',
    'suite-on-pass-score',
    'cost-on-limit',
    'cost-above-limit',
    'cost-total-over-no-trial-over',
    'cost-limit-holds',
    'latency-on-limit',
    'latency-below-tail-mean-under-limit',
    'latency-limit-holds',
    'varied-costs',
    'varied-latencies',
    'costs-without-limit',
    'latencies-without-limit',
    'no-gated-aggregate',
    'suite-passed:true',
    'suite-passed:false',
  ])('%s', (feature) => {
    expect(seen.has(feature)).toBe(true);
  });
});

describe('one case of a pack, alone', () => {
  const pack = generatePack({ count: 40, seed: 3 });

  it('is the very fixture the whole pack holds at its place', () => {
    for (const place of [1, 17, 40]) {
      const id = `generated-s3-n${String(place).padStart(4, '0')}`;
      expect([...selectedFixtures({ count: 40, seed: 3, case: id })]).toEqual([pack[place - 1]]);
    }
  });

  it('is nothing for an id outside the pack, of another seed, or spelled another way', () => {
    for (const id of [
      'generated-s3-n0041',
      'generated-s3-n0000',
      'generated-s4-n0001',
      'generated-s3-n00017',
      'generated-s3-n017',
      'mean-gated',
    ]) {
      expect([...selectedFixtures({ count: 40, seed: 3, case: id })]).toEqual([]);
    }
  });

  it('without a case, is the whole pack', () => {
    expect([...selectedFixtures({ count: 40, seed: 3 })]).toEqual(pack);
  });
});
