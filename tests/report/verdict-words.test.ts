// The verdict module's small readers, word for word on literal rows: SHOULD warnings and
// authentication bypasses, a repeated row's outcomes, scoped severities, the unexercised count
// and the tally of dispositions. Every channel prints these strings, so each is pinned whole.

import { describe, expect, it } from 'vitest';
import { RULES } from '../../lib/eval-gate-witness.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import { isFlaky, outcomeList, outcomesOf, repeatRecord } from '../../lib/report/verdict/repeat.ts';
import type { RepeatFacts } from '../../lib/report/verdict/repeat.ts';
import type { SeverityOverride } from '../../lib/report/verdict/severity.ts';
import {
  catalogueSeverity,
  effectiveSeverity,
  overrideName,
  overrideOf,
  plainOverride,
} from '../../lib/report/verdict/severity.ts';
import {
  legGaps,
  runWideGaps,
  unexercisedLine,
  unexercisedTally,
} from '../../lib/report/verdict/unexercised.ts';
import type { UnexercisedFacts } from '../../lib/report/verdict/unexercised.ts';
import { tally } from '../../lib/report/verdict/verdict.ts';
import {
  bypassSummary,
  hostCheckSummary,
  isBypass,
  warningSummary,
  warningsOf,
} from '../../lib/report/verdict/warnings.ts';
import type { Finding, HostChecks } from '../../lib/types.ts';

const A = 'openwop.requirement.0246.mean-gated';
const B = 'openwop.requirement.0246.suite-gated';

const finding = (rule: string, ok: boolean, severity: Finding['severity'], message = rule) =>
  ({ rule, ok, severity, ref: 'RFC 0246 §B', message }) satisfies Finding;

const rowOf = (findings: readonly Finding[]): ReportRow => ({
  id: A,
  disposition: 'executed-pass',
  assertions: findings.length,
  durationMs: 1,
  findings,
});

const checks = (findings: readonly Finding[], unexercised = 0, inapplicable = 0): HostChecks => ({
  probes: [],
  findings,
  unexercised: Array.from({ length: unexercised }, (_, i) => ({ rule: `u${i}`, reason: 'x' })),
  inapplicable: Array.from({ length: inapplicable }, (_, i) => ({ rule: `i${i}`, reason: 'x' })),
});

describe('SHOULD warnings of a row', () => {
  it('are the failed SHOULD findings only, each rule and message once, in judged order', () => {
    const row = rowOf([
      finding('wire.b', false, 'SHOULD', 'one'),
      finding('wire.a', false, 'SHOULD', 'two'),
      finding('wire.b', false, 'SHOULD', 'one'),
      finding('wire.b', false, 'SHOULD', 'three'),
      finding('wire.c', true, 'SHOULD'),
      finding('task.passed', false, 'MUST'),
    ]);
    expect(warningsOf(row).map((f) => `${f.rule}/${f.message}`)).toEqual([
      'wire.b/one',
      'wire.a/two',
      'wire.b/three',
    ]);
  });

  it('a row with none has no summary; one counts singular, more plural with each rule once', () => {
    expect(warningSummary(rowOf([finding('task.passed', false, 'MUST')]))).toBeUndefined();
    expect(warningSummary(rowOf([finding('wire.a', false, 'SHOULD')]))).toBe(
      '1 SHOULD warning: wire.a',
    );
    const two = rowOf([
      finding('wire.a', false, 'SHOULD', 'one'),
      finding('wire.a', false, 'SHOULD', 'two'),
      finding('wire.b', false, 'SHOULD'),
    ]);
    expect(warningSummary(two)).toBe('3 SHOULD warnings: wire.a, wire.b');
  });
});

describe('authentication bypasses and the host checks line', () => {
  it('a bypass is a failed MUST, nothing else', () => {
    expect(isBypass(finding('auth.no-bypass', false, 'MUST'))).toBe(true);
    expect(isBypass(finding('auth.no-bypass', true, 'MUST'))).toBe(false);
    expect(isBypass(finding('wire.x', false, 'SHOULD'))).toBe(false);
  });

  it('counts bypasses singular and plural, each rule once', () => {
    expect(bypassSummary([finding('wire.x', false, 'SHOULD')])).toBeUndefined();
    expect(bypassSummary([finding('auth.no-bypass', false, 'MUST')])).toBe(
      '1 authentication bypass (auth.no-bypass, MUST)',
    );
    expect(
      bypassSummary([
        finding('auth.no-bypass', false, 'MUST', 'one'),
        finding('auth.no-bypass', false, 'MUST', 'two'),
      ]),
    ).toBe('2 authentication bypasses (auth.no-bypass, MUST)');
  });

  it('says what held, any bypass first, the warnings with their rules, then the gaps', () => {
    expect(hostCheckSummary(checks([finding('wire.a', true, 'SHOULD')], 1, 0))).toBe(
      'host checks: 1 held, 0 SHOULD warnings, 1 unexercised, 0 inapplicable',
    );
    expect(
      hostCheckSummary(
        checks(
          [
            finding('wire.a', true, 'SHOULD'),
            finding('auth.no-bypass', false, 'MUST'),
            finding('wire.b', false, 'SHOULD'),
          ],
          0,
          2,
        ),
      ),
    ).toBe(
      'host checks: 1 held, 1 authentication bypass (auth.no-bypass, MUST), 1 SHOULD warning (wire.b), 0 unexercised, 2 inapplicable',
    );
    expect(
      hostCheckSummary(
        checks([
          finding('wire.b', false, 'SHOULD', 'one'),
          finding('wire.b', false, 'SHOULD', 'two'),
          finding('wire.c', false, 'SHOULD'),
        ]),
      ),
    ).toBe(
      'host checks: 0 held, 3 SHOULD warnings (wire.b, wire.c), 0 unexercised, 0 inapplicable',
    );
  });
});

describe('a repeated row', () => {
  const stable: RepeatFacts = {
    id: A,
    disposition: 'executed-pass',
    repetitions: [{ disposition: 'executed-pass' }],
  };
  const flaky: RepeatFacts = {
    id: B,
    disposition: 'executed-fail',
    repetitions: [
      { disposition: 'executed-pass' },
      { disposition: 'executed-fail' },
      { disposition: 'blocked' },
    ],
  };

  it('came to each disposition once, in the order first seen; more than one is flaky', () => {
    expect(outcomesOf(flaky)).toEqual(['executed-fail', 'executed-pass', 'blocked']);
    expect(outcomesOf({ id: A, disposition: 'blocked' })).toEqual(['blocked']);
    expect(isFlaky(flaky)).toBe(true);
    expect(isFlaky(stable)).toBe(false);
    expect(outcomeList({ outcomes: outcomesOf(flaky) })).toBe(
      'executed-fail, executed-pass, blocked',
    );
  });

  it('is recorded with its stability, and asked about its allowance only when flaky', () => {
    const asked: string[] = [];
    const record = repeatRecord(3, [stable, flaky], (row) => {
      asked.push(row.id);
      return true;
    });
    expect(asked).toEqual([B]);
    expect(record).toStrictEqual({
      count: 3,
      rows: [
        { requirement: A, stability: 'stable', outcomes: ['executed-pass'] },
        {
          requirement: B,
          stability: 'flaky',
          outcomes: ['executed-fail', 'executed-pass', 'blocked'],
          allowed: true,
        },
      ],
    });
    expect(repeatRecord(2, [flaky], () => false).rows[0]?.allowed).toBe(false);
  });
});

describe('scoped severity', () => {
  const override = (
    rule: string,
    requirements: readonly string[],
    severity: SeverityOverride['severity'],
    reason = 'r',
  ): SeverityOverride => ({ rule, requirements, severity, reason });

  it('the last override that names the rule and requirement wins; "*" is every requirement but the host checks', () => {
    const first = override('wire.a', ['*'], 'MUST', 'first');
    const last = override('wire.a', [A], 'SHOULD', 'last');
    const other = override('wire.b', [A], 'MUST');
    expect(overrideOf({ rule: 'wire.a' }, A, [first, last, other])).toBe(last);
    expect(overrideOf({ rule: 'wire.a' }, B, [first, last, other])).toBe(first);
    expect(overrideOf({ rule: 'wire.a' }, 'host-checks', [first])).toBeUndefined();
    expect(
      overrideOf({ rule: 'wire.a' }, 'host-checks', [override('wire.a', ['host-checks'], 'MUST')]),
    ).toBeDefined();
    expect(overrideOf({ rule: 'wire.c' }, A, [first, last, other])).toBeUndefined();
  });

  it("a finding counts at its override's severity, else its own", () => {
    const should = finding('wire.a', false, 'SHOULD');
    expect(effectiveSeverity(should, A)).toBe('SHOULD');
    expect(effectiveSeverity(should, A, [override('wire.a', [A], 'MUST')])).toBe('MUST');
    expect(effectiveSeverity(should, B, [override('wire.a', [A], 'MUST')])).toBe('SHOULD');
  });

  it('is named with short ids, the host checks as they are, and which way it moved', () => {
    expect(overrideName(override('wire.a', [A, 'host-checks', '*'], 'MUST'))).toBe(
      'wire.a raised to MUST on mean-gated, host-checks, *',
    );
    expect(overrideName(override('task.passed', [B], 'SHOULD'))).toBe(
      'task.passed lowered to SHOULD on suite-gated',
    );
  });

  it('keeps its own members only, and a ticket and owner only when given', () => {
    const extra = { ...override('wire.a', [A], 'MUST'), status: 'x' } as SeverityOverride;
    expect(plainOverride(extra)).toStrictEqual({
      rule: 'wire.a',
      requirements: [A],
      severity: 'MUST',
      reason: 'r',
    });
    expect(plainOverride({ ...extra, ticket: 'T-1', owner: 'evals' })).toStrictEqual({
      rule: 'wire.a',
      requirements: [A],
      severity: 'MUST',
      reason: 'r',
      ticket: 'T-1',
      owner: 'evals',
    });
  });

  it("the catalogue's severity of every rule it lists, and none of a rule it does not", () => {
    for (const rule of RULES) expect(catalogueSeverity(rule.id)).toBe(rule.severity);
    expect(RULES.some((r) => r.severity === 'SHOULD')).toBe(true);
    expect(catalogueSeverity('no.such-rule')).toBeUndefined();
  });
});

describe('the unexercised count', () => {
  const gap = (rule: string, reason = 'not seen') => ({ rule, reason });
  const leg = (id: string, unexercised?: readonly { rule: string; reason: string }[]) => ({
    ...rowOf([]),
    id,
    ...(unexercised === undefined ? {} : { unexercised }),
  });
  const facts = (
    requirements: readonly ReportRow[],
    hostChecks?: HostChecks,
  ): UnexercisedFacts => ({
    requirements,
    ...(hostChecks === undefined ? {} : { hostChecks }),
  });

  it("a leg's own gaps leave out the run-wide rules", () => {
    expect(legGaps(leg(A, [gap('events.cursor'), gap('wire.error-body')]))).toEqual([
      gap('events.cursor'),
    ]);
    expect(legGaps(leg(A))).toEqual([]);
  });

  it('a run-wide rule is owed once, with each distinct reason and the legs that listed it', () => {
    const report = facts([
      leg(A, [gap('wire.error-body', 'no error seen')]),
      leg(B, [gap('wire.error-body', 'no error seen'), gap('wire.error-body', 'too large')]),
    ]);
    expect(runWideGaps(report)).toEqual([
      {
        rule: 'wire.error-body',
        reason: 'no error seen; too large (on 3 legs; the run has no host checks)',
      },
    ]);
    const one = facts([leg(A, [gap('wire.error-body', 'x')])], checks([]));
    expect(runWideGaps(one)).toEqual([
      {
        rule: 'wire.error-body',
        reason: 'x (on 1 leg; the host checks judged it on no answer either)',
      },
    ]);
  });

  it('a run-wide rule some leg or host check judged is owed nowhere', () => {
    const byLeg = facts([
      leg(A, [gap('wire.error-body')]),
      { ...leg(B), findings: [finding('wire.error-body', true, 'SHOULD')] },
    ]);
    expect(runWideGaps(byLeg)).toEqual([]);
    const byChecks = facts(
      [leg(A, [gap('wire.error-body')])],
      checks([finding('wire.error-body', false, 'SHOULD')]),
    );
    expect(runWideGaps(byChecks)).toEqual([]);
  });

  it('counts the own gaps, the legs that list one, and the run-wide rules, in one line', () => {
    const none = facts([leg(A), leg(B, [])]);
    expect(unexercisedTally(none)).toEqual({ rules: 0, legs: 0, runWide: 0 });
    expect(unexercisedLine(none)).toBe('every applicable rule was exercised');

    const wideOnly = facts([leg(A, [gap('wire.error-body')])]);
    expect(unexercisedLine(wideOnly)).toBe('1 run-wide rule unexercised');
    const wideTwo = facts([leg(A, [gap('wire.error-body'), gap('wire.discovery')])]);
    expect(unexercisedTally(wideTwo)).toEqual({ rules: 2, legs: 0, runWide: 2 });
    expect(unexercisedLine(wideTwo)).toBe('2 run-wide rules unexercised');

    const ownOne = facts([leg(A, [gap('events.cursor')]), leg(B)]);
    expect(unexercisedTally(ownOne)).toEqual({ rules: 1, legs: 1, runWide: 0 });
    expect(unexercisedLine(ownOne)).toBe('1 rule unexercised on 1 leg');

    const both = facts([
      leg(A, [gap('events.cursor'), gap('limits.figures')]),
      leg(B, [gap('events.cursor'), gap('wire.error-body')]),
    ]);
    expect(unexercisedTally(both)).toEqual({ rules: 4, legs: 2, runWide: 1 });
    expect(unexercisedLine(both)).toBe('3 rules unexercised on 2 legs, and 1 run-wide rule');
  });
});

describe('the tally of dispositions', () => {
  it('counts a pass, a failure and a blocked row apart, and inapplicable with skipped', () => {
    expect(
      tally([
        'executed-pass',
        'executed-fail',
        'executed-fail',
        'blocked',
        'inapplicable',
        'skipped',
        'skipped',
      ]),
    ).toEqual({ passed: 1, failed: 2, blocked: 1, skipped: 3 });
  });
});
