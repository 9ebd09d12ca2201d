// The failing generated cases a page opens, kept by the tally that decided them: every failing
// case that recorded its observation for an inline pack, the smallest failing case of each rule
// for a streamed one, each with its fixture and the findings its decision holds, at the place the
// page finds it. The page shows these and decides nothing (tests/report/page-inputs.test.ts).

import { describe, expect, it } from 'vitest';
import { decidedCasesByRow } from '../../lib/decide/decided-cases.ts';
import { PackTally, type GeneratedCase } from '../../lib/decide/pack-tally.ts';
import type { Finding, LegOutcome, RunObservation } from '../../lib/types.ts';
import { decided, failing, passing, sized } from './pack-tally-cases.ts';

/** Only its presence matters here: a case without one is a host fault, shown as recorded. */
const OBSERVED = { recordVersion: 1 } as unknown as RunObservation;

function generatedCase(n: number, findings: Finding[], observed = true): GeneratedCase {
  const fixtureId = `generated-s3-n${String(n).padStart(4, '0')}`;
  return {
    fixtureId,
    seed: 3,
    file: `${fixtureId}.json`,
    decision: decided(findings, observed ? OBSERVED : undefined),
  };
}

describe('PackTally decidedCases, inline', () => {
  it('opens every failing case that recorded its observation, at its place, with its own findings', () => {
    const tally = new PackTally({ count: 4, seed: 3, keepEveryFinding: true });
    const [a, b, c, d] = [sized(1, 1, 1), sized(1, 1, 2), sized(2, 1, 1), sized(1, 2, 1)];
    const first = [failing('rule.a'), passing('rule.b')];
    const last = [failing('rule.b')];
    tally.add(generatedCase(1, first), a, 0);
    tally.add(generatedCase(2, [passing('rule.a')]), b, 1);
    // A host fault: failing, with no observation to show beside its findings.
    tally.add(generatedCase(3, [failing('run.served')], false), c, 2);
    tally.add(generatedCase(4, last), d, 3);
    const cases = tally.decidedCases();
    expect([...cases.keys()]).toEqual([0, 3]);
    expect(cases.get(0)?.fixture).toBe(a);
    expect(cases.get(0)?.findings).toEqual(first);
    expect(cases.get(3)?.fixture).toBe(d);
    expect(cases.get(3)?.findings).toEqual(last);
  });

  it('opens nothing for a case added without a place or a fixture', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: true });
    tally.add(generatedCase(1, [failing('rule.a')]), sized(1, 1, 1));
    tally.add(generatedCase(2, [failing('rule.a')]), undefined, 1);
    expect(tally.decidedCases().size).toBe(0);
    // The cases still count: only the page's view of them is missing.
    expect(tally.decision().disposition).toBe('executed-fail');
  });
});

describe('PackTally decidedCases, streamed', () => {
  it("opens each rule's smallest failing case, at its place, once for the rules it is smallest for", () => {
    const tally = new PackTally({ count: 5, seed: 3, keepEveryFinding: false });
    const big = sized(3, 1, 1);
    const small = sized(1, 1, 1);
    const both = [failing('rule.a'), failing('rule.b')];
    tally.add(generatedCase(1, [failing('rule.a')]), big, 0);
    tally.add(generatedCase(2, [passing('rule.a')]), sized(1, 1, 0), 1);
    tally.add(generatedCase(3, both), small, 2);
    // As small, but later: the first in pack order stays the smallest.
    tally.add(generatedCase(4, both), sized(1, 1, 1), 3);
    const cases = tally.decidedCases();
    expect([...cases.keys()]).toEqual([2]);
    expect(cases.get(2)?.fixture).toBe(small);
    expect(cases.get(2)?.findings).toEqual(both);
    expect(tally.smallest().map((s) => s.fixtureId)).toEqual([
      'generated-s3-n0003',
      'generated-s3-n0003',
    ]);
  });

  it('drops the view of a rule whose smaller case is a host fault, and keeps the other rules’', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    const kept = sized(2, 1, 1);
    tally.add(generatedCase(1, [failing('rule.a'), failing('rule.b')]), kept, 0);
    tally.add(generatedCase(2, [failing('rule.a')], false), sized(1, 1, 1), 1);
    const cases = tally.decidedCases();
    // rule.a's smallest is now case 2, which recorded no observation; rule.b's is still case 1.
    expect(tally.smallest().map((s) => [s.rule, s.fixtureId])).toEqual([
      ['rule.a', 'generated-s3-n0002'],
      ['rule.b', 'generated-s3-n0001'],
    ]);
    expect([...cases.keys()]).toEqual([0]);
    expect(cases.get(0)?.fixture).toBe(kept);
  });

  it('opens no case of a passing pack, and none of a failing one added without places', () => {
    const passed = new PackTally({ count: 1, seed: 3, keepEveryFinding: false });
    passed.add(generatedCase(1, [passing('rule.a')]), sized(1, 1, 1), 0);
    expect(passed.decidedCases().size).toBe(0);
    const unplaced = new PackTally({ count: 1, seed: 3, keepEveryFinding: false });
    unplaced.add(generatedCase(1, [failing('rule.a')]), sized(1, 1, 1));
    expect(unplaced.smallest()).toHaveLength(1);
    expect(unplaced.decidedCases().size).toBe(0);
  });
});

describe('decidedCasesByRow', () => {
  it('gathers the decided cases of each outcome that holds them, by requirement', () => {
    const cases = new Map([[4, { fixture: sized(1, 1, 1), findings: [failing('rule.a')] }]]);
    const outcome = (requirement: string, held?: typeof cases): LegOutcome => ({
      requirement,
      disposition: 'executed-fail',
      assertions: 1,
      findings: [],
      durationMs: 0,
      ...(held === undefined ? {} : { decidedCases: held }),
    });
    const byRow = decidedCasesByRow([outcome('r.one'), outcome('r.pack', cases), outcome('r.two')]);
    expect([...byRow.keys()]).toEqual(['r.pack']);
    expect(byRow.get('r.pack')).toBe(cases);
  });
});
