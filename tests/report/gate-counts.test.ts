// The gate's counts at their edges, on literal rows (lib/report/verdict/ci-verdict.ts): which rows
// are excused, lowered or raised, which warnings count and which the baseline excused, and the
// host checks' warnings kept apart from the rows' faults of the same rule.

import { describe, expect, it } from 'vitest';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type { ExpectedFailure } from '../../lib/report/run-options.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import { ciVerdict, gateCounts, isExcusedRow } from '../../lib/report/verdict/ci-verdict.ts';
import type { SeverityOverride } from '../../lib/report/verdict/severity.ts';
import type { Finding, HostChecks } from '../../lib/types.ts';
import { reportOf } from '../cli/report-example.ts';

const P = 'openwop.requirement.0246.mean-gated';
const Q = 'openwop.requirement.0246.suite-gated';
const R = 'openwop.requirement.0246.any-rule-unchanged';

const finding = (rule: string, ok: boolean, severity: Finding['severity']): Finding => ({
  rule,
  ok,
  severity,
  ref: 'RFC 0246 §B',
  message: rule,
});

const row = (
  id: string,
  disposition: ReportRow['disposition'],
  findings: readonly Finding[],
): ReportRow => ({ id, disposition, assertions: findings.length, durationMs: 1, findings });

const raise = (rule: string, requirements: readonly string[]): SeverityOverride => ({
  rule,
  requirements,
  severity: 'MUST',
  reason: 'r',
});

function reportFor(
  rows: readonly ReportRow[],
  options: RunOptions,
  hostChecks?: HostChecks,
): EvalGateReport {
  const context = hostChecks === undefined ? {} : { hostFindings: hostChecks.findings };
  return reportOf(rows, {
    ...runRecord(options, rows, context),
    ...(hostChecks === undefined ? {} : { hostChecks }),
  });
}

const baseline = (
  entries: readonly ExpectedFailure[],
  severity: readonly SeverityOverride[] = [],
): NonNullable<RunOptions['baseline']> => ({
  file: 'b.yml',
  sha256: '0'.repeat(64),
  entries,
  ...(severity.length === 0 ? {} : { severity }),
});

const counts = (report: EvalGateReport) => gateCounts(report, ciVerdict(report));

describe('excused and lowered rows', () => {
  it('a run without a baseline excuses nothing', () => {
    const report = reportFor(
      [row(P, 'executed-fail', [finding('task.passed', false, 'MUST')])],
      {},
    );
    expect(ciVerdict(report).excused).toEqual([]);
    expect(counts(report).excusedRules).toBe(0);
  });

  it('a passed row is never an excused failed row, even when its warning is excused', () => {
    const warned = row(P, 'executed-pass', [finding('wire.v', false, 'SHOULD')]);
    const report = reportFor([warned], {
      failOn: 'should',
      baseline: baseline([{ requirement: P, reason: 'x' }]),
    });
    const verdict = ciVerdict(report);
    expect(verdict.excused).toEqual([{ requirement: P, rule: 'wire.v' }]);
    expect(isExcusedRow(report, verdict, warned)).toBe(false);
    expect(counts(report)).toMatchObject({
      excusedFailed: 0,
      shouldWarnings: 1,
      excusedWarnings: 1,
    });
  });

  it('under should, a failed row is excused only when its SHOULD failures are excused too', () => {
    const failed = row(P, 'executed-fail', [
      finding('task.passed', false, 'MUST'),
      finding('wire.v', false, 'SHOULD'),
    ]);
    const rule = { requirement: P, rule: 'task.passed', reason: 'x' };
    const under = (failOn: 'must' | 'should') =>
      reportFor([failed], { failOn, baseline: baseline([rule]) });
    expect(isExcusedRow(under('must'), ciVerdict(under('must')), failed)).toBe(true);
    expect(isExcusedRow(under('should'), ciVerdict(under('should')), failed)).toBe(false);
  });

  it('a failed row the overrides did not lower is not counted as lowered', () => {
    const lower = { ...raise('task.passed', [P]), severity: 'SHOULD' as const };
    const report = reportFor(
      [
        row(P, 'executed-fail', [finding('task.passed', false, 'MUST')]),
        row(Q, 'executed-fail', [finding('suite.passed', false, 'MUST')]),
      ],
      { baseline: baseline([], [lower]) },
    );
    expect(counts(report).loweredFailed).toBe(1);
  });
});

describe('raised passed rows', () => {
  it('count only a row whose own unexcused fault was raised', () => {
    const rows = [
      row(P, 'executed-pass', [finding('wire.v', false, 'SHOULD')]),
      row(Q, 'executed-pass', [finding('wire.v', false, 'SHOULD')]),
    ];
    const report = reportFor(rows, {
      baseline: baseline(
        [{ requirement: P, rule: 'wire.v', reason: 'x' }],
        [raise('wire.v', [P, Q])],
      ),
    });
    expect(ciVerdict(report).unexcused).toEqual([{ requirement: Q, rule: 'wire.v' }]);
    expect(counts(report).raisedPassed).toBe(1);
  });

  it('a SHOULD warning failing the run under should is no raised row', () => {
    const rows = [
      row(P, 'executed-pass', [
        finding('wire.x', false, 'SHOULD'),
        finding('wire.v', false, 'SHOULD'),
      ]),
    ];
    const report = reportFor(rows, {
      failOn: 'should',
      baseline: baseline([{ requirement: P, rule: 'wire.v', reason: 'x' }], [raise('wire.v', [P])]),
    });
    expect(ciVerdict(report).unexcused).toEqual([{ requirement: P, rule: 'wire.x' }]);
    expect(counts(report).raisedPassed).toBe(0);
  });
});

describe('SHOULD warnings', () => {
  it("a failed row's warnings count, each rule once, and blocked rows' never", () => {
    const report = reportFor(
      [
        row(P, 'executed-fail', [
          finding('task.passed', false, 'MUST'),
          finding('wire.a', false, 'SHOULD'),
        ]),
        row(Q, 'blocked', [finding('wire.b', false, 'SHOULD')]),
      ],
      { failOn: 'should' },
    );
    expect(counts(report).shouldWarnings).toBe(1);
  });

  it('the host checks count each failed SHOULD rule once, never a held one or a MUST', () => {
    const hostChecks: HostChecks = {
      probes: [],
      findings: [
        finding('wire.c', false, 'SHOULD'),
        finding('wire.c', false, 'SHOULD'),
        finding('wire.e', false, 'SHOULD'),
        finding('wire.d', true, 'SHOULD'),
        finding('auth.no-bypass', false, 'MUST'),
      ],
      unexercised: [],
      inapplicable: [],
    };
    const report = reportFor([row(R, 'executed-pass', [])], { failOn: 'should' }, hostChecks);
    expect(counts(report).shouldWarnings).toBe(2);
  });

  it("an excused host check is counted as an excused warning, and a row's fault of the same rule is still a warning", () => {
    const hostChecks: HostChecks = {
      probes: [],
      findings: [finding('wire.v', false, 'SHOULD')],
      unexercised: [],
      inapplicable: [],
    };
    const report = reportFor(
      [row(P, 'executed-pass', [finding('wire.v', false, 'SHOULD')])],
      {
        failOn: 'should',
        baseline: baseline([{ requirement: 'host-checks', rule: 'wire.v', reason: 'x' }]),
      },
      hostChecks,
    );
    const verdict = ciVerdict(report);
    expect(verdict.hostWarnings).toEqual([]);
    expect(verdict.unexcused).toEqual([{ requirement: P, rule: 'wire.v' }]);
    expect(gateCounts(report, verdict)).toMatchObject({ shouldWarnings: 2, excusedWarnings: 1 });
  });
});
