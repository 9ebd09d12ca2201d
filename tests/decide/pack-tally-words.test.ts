// The generated pack's decision word for word: the reason each disposition gives (the first cases
// quoted, the rest counted, the smallest failing case named), the one finding kept for each rule,
// the record beside the sidecar with and without `run --case`, and the size a case is ranked by.

import { describe, expect, it } from 'vitest';
import type { Decision } from '../../lib/decide/decide.ts';
import { caseLine, caseSize, PackTally, type GeneratedCase } from '../../lib/decide/pack-tally.ts';
import type { Disposition, Finding, Fixture } from '../../lib/types.ts';
import { failing, passing, sized } from './pack-tally-cases.ts';

const id = (n: number): string => `generated-s3-n${String(n).padStart(4, '0')}`;

function generatedCase(n: number, decision: Decision): GeneratedCase {
  return { fixtureId: id(n), seed: 3, file: `${id(n)}.json`, decision };
}

/** A case that judged `findings`: it fails on a failing MUST finding, else passes. */
function judged(n: number, findings: Finding[]): GeneratedCase {
  const failed = findings.some((f) => !f.ok && f.severity === 'MUST');
  return generatedCase(n, {
    disposition: failed ? 'executed-fail' : 'executed-pass',
    assertions: findings.length,
    findings,
  });
}

/** A case that judged nothing, with its reason. */
function unjudged(n: number, disposition: Disposition, reason: string): GeneratedCase {
  return generatedCase(n, { disposition, assertions: 0, reason, findings: [] });
}

const quoted = (n: number, what: string): string => `${id(n)} (seed 3, ${id(n)}.json): ${what}`;
const SIDECAR = { file: 'eval-gate-generated.jsonl.gz', sha256: 'ab'.repeat(32), bytes: 120 };

describe('PackTally reasons', () => {
  it('quotes the first three failing cases, counts the rest, and names the smallest once', () => {
    const tally = new PackTally({ count: 5, seed: 3, keepEveryFinding: false });
    for (let n = 1; n <= 5; n += 1) tally.add(judged(n, [failing('rule.a')]), sized(1, 1, 2 + n));
    expect(tally.decision().reason).toBe(
      '5 of 5 generated fixtures failed: ' +
        `${quoted(1, 'rule.a: rule.a was broken')}; ${quoted(2, 'rule.a: rule.a was broken')}; ` +
        `${quoted(3, 'rule.a: rule.a was broken')}; and 2 more. Smallest failing case per rule: ` +
        'rule.a: generated-s3-n0001 (1 task, 1 trial, 3 calls): ' +
        'openwop-eval-gate run --generate 5 --seed 3 --case generated-s3-n0001',
    );
  });

  it('quotes three failing cases of three without counting more', () => {
    const tally = new PackTally({ count: 4, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [passing('rule.a')]), sized(1, 1, 0));
    for (let n = 2; n <= 4; n += 1) tally.add(judged(n, [failing('rule.a')]), sized(2, 2, 1));
    expect(tally.decision().reason).toBe(
      '3 of 4 generated fixtures failed: ' +
        `${quoted(2, 'rule.a: rule.a was broken')}; ${quoted(3, 'rule.a: rule.a was broken')}; ` +
        `${quoted(4, 'rule.a: rule.a was broken')}. Smallest failing case per rule: ` +
        'rule.a: generated-s3-n0002 (2 tasks, 2 trials, 4 calls): ' +
        'openwop-eval-gate run --generate 4 --seed 3 --case generated-s3-n0002',
    );
  });

  it('an inline pack’s failing reason quotes its cases and names no smallest', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: true });
    tally.add(judged(1, [failing('rule.a')]));
    tally.add(judged(2, [passing('rule.a')]));
    expect(tally.decision().reason).toBe(
      `1 of 2 generated fixtures failed: ${quoted(1, 'rule.a: rule.a was broken')}`,
    );
  });

  it('blocked cases block a pack none of whose cases failed, quoting each one’s reason', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    tally.add(unjudged(1, 'blocked', 'connection reset'), sized(1, 1, 0));
    tally.add(judged(2, [passing('rule.a')]), sized(1, 1, 0));
    tally.add(unjudged(3, 'blocked', 'run deadline passed'), sized(1, 1, 0));
    expect(tally.decision()).toStrictEqual({
      disposition: 'blocked',
      assertions: 1,
      reason: `2 of 3 generated fixtures were blocked: ${quoted(1, 'connection reset')}; ${quoted(3, 'run deadline passed')}`,
      findings: [{ ...passing('rule.a'), message: 'generated-s3-n0002: rule.a held' }],
    });
  });

  it('a pack none of whose cases drove is skipped, or inapplicable when one was', () => {
    const skipped = new PackTally({ count: 2, seed: 3, keepEveryFinding: false });
    skipped.add(unjudged(1, 'skipped', 'not selected'), sized(1, 1, 0));
    skipped.add(unjudged(2, 'skipped', 'not selected'), sized(1, 1, 0));
    expect(skipped.decision()).toStrictEqual({
      disposition: 'skipped',
      assertions: 0,
      reason: `2 of 2 generated fixtures were skipped: ${quoted(1, 'not selected')}; ${quoted(2, 'not selected')}`,
      findings: [],
    });
    const gated = new PackTally({ count: 2, seed: 3, keepEveryFinding: false });
    gated.add(unjudged(1, 'skipped', 'not selected'), sized(1, 1, 0));
    gated.add(unjudged(2, 'inapplicable', 'host does not list it'), sized(1, 1, 0));
    expect(gated.decision()).toStrictEqual({
      disposition: 'inapplicable',
      assertions: 0,
      reason: `1 of 2 generated fixtures were inapplicable: ${quoted(2, 'host does not list it')}`,
      findings: [],
    });
  });

  it('a pack whose every case passed passes, with no reason', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [passing('rule.a'), passing('rule.b')]), sized(1, 1, 0));
    tally.add(judged(2, [passing('rule.a')]), sized(1, 1, 0));
    expect(tally.decision()).toStrictEqual({
      disposition: 'executed-pass',
      assertions: 3,
      findings: [
        { ...passing('rule.a'), message: 'generated-s3-n0001: rule.a held' },
        { ...passing('rule.b'), message: 'generated-s3-n0001: rule.b held' },
      ],
    });
  });

  it('an empty pack is blocked, saying so', () => {
    const tally = new PackTally({ count: 0, seed: 3, keepEveryFinding: false });
    expect(tally.cases).toBe(0);
    expect(tally.decision()).toStrictEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'the generated pack is empty',
      findings: [],
    });
  });
});

describe('caseLine', () => {
  it('quotes the first failing MUST finding, not a passing one or a failing SHOULD', () => {
    const c = judged(1, [passing('rule.p'), failing('rule.s', 'SHOULD'), failing('rule.m')]);
    expect(caseLine(c)).toBe(quoted(1, 'rule.m: rule.m was broken'));
  });

  it('quotes the reason of a case with no failing MUST finding, or nothing', () => {
    expect(caseLine(unjudged(1, 'blocked', 'connection reset'))).toBe(
      quoted(1, 'connection reset'),
    );
    expect(caseLine(judged(2, [passing('rule.p')]))).toBe(quoted(2, ''));
  });
});

describe('PackTally findings and record', () => {
  it('keeps one finding a rule: the first seen, until a case fails it', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [passing('rule.p'), passing('rule.s', 'SHOULD')]), sized(1, 1, 0));
    tally.add(judged(2, [passing('rule.p'), failing('rule.s', 'SHOULD')]), sized(1, 1, 0));
    tally.add(judged(3, [passing('rule.p'), passing('rule.s', 'SHOULD')]), sized(1, 1, 0));
    expect(tally.decision().findings).toStrictEqual([
      { ...passing('rule.p'), message: 'generated-s3-n0001: rule.p held' },
      { ...failing('rule.s', 'SHOULD'), message: 'generated-s3-n0002: rule.s was broken' },
    ]);
  });

  it('keeps every finding and no smallest when told to, even for sized cases', () => {
    const tally = new PackTally({ count: 2, seed: 3, keepEveryFinding: true });
    tally.add(judged(1, [failing('rule.a')]), sized(1, 1, 0));
    tally.add(judged(2, [failing('rule.a')]), sized(1, 1, 0));
    expect(tally.decision().findings).toStrictEqual([failing('rule.a'), failing('rule.a')]);
    expect(tally.smallest()).toStrictEqual([]);
  });

  it('counts and quotes a case added without its fixture, and names no smallest for it', () => {
    const tally = new PackTally({ count: 1, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [failing('rule.a')]));
    expect(tally.smallest()).toStrictEqual([]);
    expect(tally.decision().reason).toBe(
      `1 of 1 generated fixtures failed: ${quoted(1, 'rule.a: rule.a was broken')}`,
    );
  });

  it('keeps the first smallest case against later ones with more tasks or more trials', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [failing('rule.a')]), sized(1, 2, 3));
    tally.add(judged(2, [failing('rule.a')]), sized(2, 1, 0));
    tally.add(judged(3, [failing('rule.a')]), sized(1, 3, 0));
    expect(tally.smallest().map((s) => s.fixtureId)).toStrictEqual([id(1)]);
    expect(tally.decision().findings[0]?.message).toBe('generated-s3-n0001: rule.a was broken');
  });

  it('lists the smallest cases by rule, whatever order the rules failed in', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [failing('rule.c')]), sized(1, 1, 0));
    tally.add(judged(2, [failing('rule.a')]), sized(1, 1, 0));
    tally.add(judged(3, [failing('rule.b')]), sized(1, 1, 0));
    expect(tally.smallest().map((s) => s.rule)).toStrictEqual(['rule.a', 'rule.b', 'rule.c']);
  });

  it('records the seed, size, sidecar, tally in disposition order and smallest cases', () => {
    const tally = new PackTally({ count: 3, seed: 3, keepEveryFinding: false });
    tally.add(judged(1, [failing('rule.a')]), sized(1, 1, 2));
    tally.add(unjudged(2, 'blocked', 'connection reset'), sized(1, 1, 0));
    tally.add(judged(3, [passing('rule.a')]), sized(1, 1, 0));
    expect(tally.cases).toBe(3);
    const record = tally.record(SIDECAR);
    expect(record).toStrictEqual({
      seed: 3,
      count: 3,
      sidecar: SIDECAR,
      tally: { 'executed-pass': 1, 'executed-fail': 1, inapplicable: 0, skipped: 0, blocked: 1 },
      smallest: [
        {
          rule: 'rule.a',
          fixtureId: id(1),
          tasks: 1,
          trials: 1,
          calls: 2,
          command: 'openwop-eval-gate run --generate 3 --seed 3 --case generated-s3-n0001',
        },
      ],
    });
    expect(Object.keys(record)).toStrictEqual(['seed', 'count', 'sidecar', 'tally', 'smallest']);
    expect(Object.keys(record.tally)).toStrictEqual([
      'executed-pass',
      'executed-fail',
      'inapplicable',
      'skipped',
      'blocked',
    ]);
  });

  it('records the one case a run drove alone beside the seed and size', () => {
    const tally = new PackTally({ count: 9, seed: 3, case: id(4), keepEveryFinding: false });
    tally.add(judged(4, [passing('rule.a')]), sized(1, 1, 0));
    expect(tally.record(SIDECAR)).toStrictEqual({
      seed: 3,
      count: 9,
      case: id(4),
      sidecar: SIDECAR,
      tally: { 'executed-pass': 1, 'executed-fail': 0, inapplicable: 0, skipped: 0, blocked: 0 },
      smallest: [],
    });
  });
});

describe('caseSize of a script that does not cover every trial', () => {
  it('counts no call for a task with no script, or a trial past its entries', () => {
    const fixture = {
      suite: { tasks: [{ taskId: 'a' }, { taskId: 'b' }], trials: { count: 3 } },
      script: {
        a: [
          { calls: [{}], output: null },
          { calls: [{}, {}], output: null },
        ],
      },
    } as unknown as Fixture;
    expect(caseSize(fixture)).toStrictEqual({ tasks: 2, trials: 3, calls: 3 });
  });
});
