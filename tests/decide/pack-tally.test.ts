// The generated pack decided case by case: what the tally keeps does not grow with the pack, and
// each failing MUST rule names its smallest case (fewest tasks, then trials, then calls; the first
// in pack order among equals) with the command that drives it alone.

import { describe, expect, it } from 'vitest';
import { caseSize, PackTally, type GeneratedCase } from '../../lib/decide/pack-tally.ts';
import type { Finding, Fixture } from '../../lib/types.ts';
import { decided, failing, passing, sized } from './pack-tally-cases.ts';

function generatedCase(n: number, findings: Finding[]): GeneratedCase {
  const fixtureId = `generated-s3-n${String(n).padStart(4, '0')}`;
  return { fixtureId, seed: 3, file: `${fixtureId}.json`, decision: decided(findings) };
}

/** A pack of `count` cases, every fifth failing rule.a, every case judging ten rules. */
function tallied(count: number): PackTally {
  const tally = new PackTally({ count, seed: 3, keepEveryFinding: false });
  for (let n = 1; n <= count; n += 1) {
    const findings = Array.from({ length: 10 }, (_, r) => passing(`rule.${r}`));
    if (n % 5 === 0) findings.push(failing('rule.a'));
    tally.add(generatedCase(n, findings), sized(1 + (n % 3), 1 + (n % 2), n % 4));
  }
  return tally;
}

describe('PackTally', () => {
  it('keeps the same findings and record at 50 cases and at 5,000: nothing grows with the pack', () => {
    const small = tallied(50);
    const large = tallied(5000);
    expect(large.decision().findings).toHaveLength(small.decision().findings.length);
    expect(small.decision().findings).toHaveLength(11);
    // The reason quotes three cases and counts the rest; its length differs only in the numbers.
    const digitsOut = (text: string): string => text.replace(/\d+/g, '#');
    expect(digitsOut(JSON.stringify(large.record(SIDECAR)))).toBe(
      digitsOut(JSON.stringify(small.record(SIDECAR))),
    );
    expect(digitsOut(large.decision().reason ?? '')).toBe(digitsOut(small.decision().reason ?? ''));
    expect(large.tally()).toEqual({
      'executed-pass': 4000,
      'executed-fail': 1000,
      inapplicable: 0,
      skipped: 0,
      blocked: 0,
    });
    expect(large.decision().assertions).toBe(5000 * 10 + 1000);
  });

  it('names each failing MUST rule’s smallest case: fewest tasks, then trials, then calls', () => {
    const tally = new PackTally({ count: 6, seed: 3, keepEveryFinding: false });
    tally.add(generatedCase(1, [failing('rule.a'), failing('rule.b')]), sized(2, 1, 0));
    tally.add(generatedCase(2, [failing('rule.a')]), sized(1, 3, 0));
    tally.add(generatedCase(3, [failing('rule.a'), failing('rule.b')]), sized(1, 2, 5));
    tally.add(generatedCase(4, [failing('rule.a')]), sized(1, 2, 4));
    tally.add(generatedCase(5, [failing('rule.a')]), sized(1, 2, 4));
    tally.add(generatedCase(6, [failing('rule.s', 'SHOULD')]), sized(1, 1, 0));
    expect(tally.smallest()).toEqual([
      {
        rule: 'rule.a',
        fixtureId: 'generated-s3-n0004',
        tasks: 1,
        trials: 2,
        calls: 8,
        command: 'openwop-eval-gate run --generate 6 --seed 3 --case generated-s3-n0004',
      },
      {
        rule: 'rule.b',
        fixtureId: 'generated-s3-n0003',
        tasks: 1,
        trials: 2,
        calls: 10,
        command: 'openwop-eval-gate run --generate 6 --seed 3 --case generated-s3-n0003',
      },
    ]);
    const decision = tally.decision();
    expect(decision.reason).toContain(
      'Smallest failing case per rule: rule.a: generated-s3-n0004 (1 task, 2 trials, 8 calls): openwop-eval-gate run --generate 6 --seed 3 --case generated-s3-n0004; rule.b: generated-s3-n0003',
    );
    // The row's one finding for a failing rule is its smallest case's, named by the case.
    expect(decision.findings.find((f) => f.rule === 'rule.a')?.message).toBe(
      'generated-s3-n0004: rule.a was broken',
    );
  });

  it('a case smallest for several rules is named once, with each of them', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: false });
    tally.add(generatedCase(1, [failing('rule.a')]), sized(2, 1, 1));
    tally.add(generatedCase(2, [failing('rule.a'), failing('rule.b')]), sized(1, 1, 1));
    expect(tally.decision().reason).toContain(
      'Smallest failing case per rule: rule.a, rule.b: generated-s3-n0002 (1 task, 1 trial, 1 call): openwop-eval-gate run --generate 2 --seed 3 --case generated-s3-n0002',
    );
  });

  it('an inline pack keeps every finding and no smallest, as its row did', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: true });
    tally.add(generatedCase(1, [failing('rule.a'), passing('rule.b')]));
    tally.add(generatedCase(2, [failing('rule.a')]));
    expect(tally.decision().findings).toHaveLength(3);
    expect(tally.smallest()).toEqual([]);
    expect(tally.decision().reason).not.toContain('Smallest');
  });
});

describe('caseSize', () => {
  it('counts one scripted entry for every trial, and per-trial entries one each', () => {
    expect(caseSize(sized(2, 3, 2))).toEqual({ tasks: 2, trials: 3, calls: 12 });
    const perTrial = {
      suite: { tasks: [{ taskId: 'a' }], trials: { count: 2 } },
      script: {
        a: [
          { calls: [{}], output: null },
          { calls: [{}, {}, {}], output: null },
        ],
      },
    } as unknown as Fixture;
    expect(caseSize(perTrial)).toEqual({ tasks: 1, trials: 2, calls: 4 });
  });
});

const SIDECAR = { file: 'eval-gate-generated.jsonl.gz', sha256: '0'.repeat(64), bytes: 1 };
