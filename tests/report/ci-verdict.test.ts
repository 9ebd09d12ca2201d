// The pure half of the CI options on literal rows: which failures a baseline excuses, when an
// entry is stale or unobserved, and the exit status that follows. Milliseconds each.

import { describe, expect, it } from 'vitest';
import { resolveBaseline } from '../../lib/report/verdict/baseline.ts';
import type { RowFacts } from '../../lib/report/verdict/baseline.ts';
import { ciVerdict } from '../../lib/report/verdict/ci-verdict.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import type { CiFacts } from '../../lib/report/verdict/ci-verdict.ts';
import {
  knownRules,
  readExpectedFailures,
  resolveSelection,
} from '../../lib/report/run-options.ts';
import type { ExpectedFailure } from '../../lib/report/run-options.ts';
import { NEITHER_CERTIFIED } from '../support/certifications.ts';
import { diffReports } from '../../lib/report/diff.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { validReport } from '../cli/report-example.ts';

const A = 'openwop.requirement.0246.mean-gated';
const B = 'openwop.requirement.0246.suite-gated';
const C = 'openwop.requirement.0246.any-rule-unchanged';

const must = (rule: string, ok: boolean) => ({ rule, ok, severity: 'MUST' as const });
const should = (rule: string, ok: boolean) => ({ rule, ok, severity: 'SHOULD' as const });

const ROWS: readonly RowFacts[] = [
  {
    id: A,
    disposition: 'executed-fail',
    findings: [must('task.passed', false), must('suite.passed', true)],
  },
  // A strict-mode gate fails a leg before it runs: no finding names a rule.
  { id: B, disposition: 'executed-fail', findings: [] },
  { id: C, disposition: 'inapplicable', findings: [] },
];

const entry = (requirement: string, rule?: string): ExpectedFailure => ({
  requirement,
  ...(rule === undefined ? {} : { rule }),
  reason: 'known',
});

function gate(
  rows: readonly RowFacts[],
  entries: readonly ExpectedFailure[],
  failOn: 'must' | 'should' = 'must',
) {
  return ciVerdict(recorded(rows, { failOn, baseline: baselineOf(entries) }));
}

function baselineOf(entries: readonly ExpectedFailure[]) {
  return { file: 'b.yml', sha256: '0'.repeat(64), entries };
}

/** The rows with the record a run writes of its options: the one resolution of its baseline. */
function recorded(rows: readonly RowFacts[], options: RunOptions): CiFacts {
  return { requirements: rows, ...runRecord(options, rows) } as unknown as CiFacts;
}

describe('a baseline on literal rows', () => {
  it('a rule entry excuses that rule only; a failure without a rule needs a whole-requirement entry', () => {
    const ruleOnly = gate(ROWS, [entry(A, 'task.passed')]);
    expect(ruleOnly.excused).toEqual([{ requirement: A, rule: 'task.passed' }]);
    expect(ruleOnly.unexcused).toEqual([{ requirement: B }]);
    expect(ruleOnly.exitCode).toBe(1);
    expect(gate(ROWS, [entry(A, 'task.passed'), entry(B)]).exitCode).toBe(0);
  });

  it('an entry whose row did not run is unobserved: neither stale nor excusing', () => {
    const resolved = resolveBaseline([entry(A), entry(B), entry(C)], ROWS, 'must');
    expect(resolved.entries.map((e) => e.status)).toEqual(['excusing', 'excusing', 'unobserved']);
    expect(gate(ROWS, [entry(A), entry(B), entry(C)]).exitCode).toBe(0);
  });

  it('an entry for a rule that holds is stale and fails the run, even with every failure excused', () => {
    const verdict = gate(ROWS, [entry(A), entry(B), entry(A, 'suite.passed')]);
    expect(verdict.unexcused).toEqual([]);
    expect(verdict.stale.map((e) => e.rule)).toEqual(['suite.passed']);
    expect(verdict.exitCode).toBe(1);
  });

  it('SHOULD warnings fail only under fail-on should, and a rule entry for one is never stale while it warns', () => {
    const rows: RowFacts[] = [
      {
        id: A,
        disposition: 'executed-pass',
        findings: [must('task.passed', true), should('wire.poll-page', false)],
      },
    ];
    expect(gate(rows, []).exitCode).toBe(0);
    expect(gate(rows, [], 'should').exitCode).toBe(1);
    expect(gate(rows, [entry(A, 'wire.poll-page')], 'should').exitCode).toBe(0);
    expect(gate(rows, [entry(A, 'wire.poll-page')], 'must').stale).toEqual([]);
    // A whole-requirement entry on a passing row excuses nothing under must: it is stale.
    expect(gate(rows, [entry(A)], 'must').exitCode).toBe(1);
  });

  it('a blocked row still exits 3 once every failure is excused', () => {
    const rows: RowFacts[] = [...ROWS.slice(0, 2), { id: C, disposition: 'blocked', findings: [] }];
    expect(gate(rows, [entry(A), entry(B)]).exitCode).toBe(3);
  });
});

describe('the verdict reads the resolution the report records', () => {
  it('a failure the record does not list as excused fails the run, whatever the entries would excuse', () => {
    const report = recorded(ROWS, { baseline: baselineOf([entry(A), entry(B)]) });
    expect(ciVerdict(report).exitCode).toBe(0);
    const withdrawn = { ...report, baseline: { ...report.baseline, excused: [] } } as CiFacts;
    const verdict = ciVerdict(withdrawn);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.excused).toEqual([]);
    expect(verdict.unexcused).toEqual([
      { requirement: A, rule: 'task.passed' },
      { requirement: B },
    ]);
  });

  it("an entry's recorded status is the one the gate reads: recorded stale, it fails the run", () => {
    const report = recorded(ROWS, { baseline: baselineOf([entry(A), entry(B)]) });
    const entries = report.baseline?.entries ?? [];
    const marked = {
      ...report,
      baseline: { ...report.baseline, entries: entries.map((e) => ({ ...e, status: 'stale' })) },
    } as CiFacts;
    expect(ciVerdict(marked).stale.map((e) => e.requirement)).toEqual([A, B]);
    expect(ciVerdict(marked).exitCode).toBe(1);
  });

  const flakyRow: RowFacts = {
    id: A,
    disposition: 'executed-pass',
    findings: [must('task.passed', true)],
    repetitions: [{ disposition: 'executed-fail' }],
  };
  const allowing: ExpectedFailure = {
    requirement: A,
    outcomes: ['executed-pass', 'executed-fail'],
    reason: 'intermittent',
  };

  it("a flaky row is allowed as the repeat record says, and flaky by its rows' repetitions", () => {
    const report = recorded([flakyRow], { repeat: 2, baseline: baselineOf([allowing]) });
    const allowed = ciVerdict(report);
    expect([allowed.flaky, allowed.allowedFlaky.map((f) => f.requirement)]).toEqual([[], [A]]);
    expect(allowed.exitCode).toBe(0);
    const rows = report.repeat?.rows.map((r) => ({ ...r, allowed: false })) ?? [];
    const refused = ciVerdict({ ...report, repeat: { count: 2, rows } } as CiFacts);
    expect(refused.flaky).toEqual([
      { requirement: A, outcomes: ['executed-pass', 'executed-fail'] },
    ]);
    expect(refused.exitCode).toBe(1);
    // Without a repeat record the row is still flaky, and nothing allows it.
    const bare = recorded([flakyRow], { baseline: baselineOf([allowing]) });
    expect(ciVerdict(bare).flaky.map((f) => f.requirement)).toEqual([A]);
  });
});

describe('reading a baseline and a selection', () => {
  it('the prefix is optional and the ids come back in full', () => {
    expect(
      readExpectedFailures({
        expectedFailures: [{ requirement: 'mean-gated', rule: 'task.passed', reason: 'r' }],
      }),
    ).toEqual([{ requirement: A, rule: 'task.passed', reason: 'r' }]);
    expect(resolveSelection(['mean-gated', A], [])).toEqual({ only: [A], skip: [] });
  });

  it('the server-free leg knows its own rules and none of a host leg', () => {
    const shape = knownRules('openwop.requirement.0246.gated-fields-shape');
    expect(shape.has('shape.base-summary.valid')).toBe(true);
    expect(shape.has('task.passed')).toBe(false);
    expect(knownRules(A).has('run.served')).toBe(true);
  });

  it('an extra member in an entry is refused rather than ignored', () => {
    expect(() =>
      readExpectedFailures({
        expectedFailures: [{ requirement: 'mean-gated', reason: 'r', rules: ['x'] }],
      }),
    ).toThrow(
      'expectedFailures[0] has rules; an entry has requirement, rule, outcomes, reason, ticket, owner and expires',
    );
  });
});

describe('diff on literal reports', () => {
  const base = validReport() as unknown as EvalGateReport;
  const [shape, mean] = base.requirements;
  if (shape === undefined || mean === undefined) throw new Error('the example has two rows');

  it('names a different suite version and fixture digest, and a held MUST rule that fails as a regression', () => {
    const after: EvalGateReport = {
      ...base,
      suite: { ...base.suite, version: '0.2.0' },
      digests: {
        ...base.digests,
        fixtures: { 'conformance-eval-trajectory-gate': 'a'.repeat(64) },
      },
      requirements: [
        {
          ...shape,
          disposition: 'executed-fail',
          reason: 'x',
          findings: [{ ...shape.findings[0]!, ok: false }],
        },
        mean,
      ],
    };
    const before: EvalGateReport = {
      ...base,
      digests: {
        ...base.digests,
        fixtures: {
          'conformance-eval-trajectory-gate': 'b'.repeat(64),
          'conformance-eval-trajectory-gate-mean': 'c'.repeat(64),
        },
      },
    };
    const diff = diffReports(before, after, new Map(), NEITHER_CERTIFIED);
    // The mean fixture only the old run drove belongs to no compared change.
    expect(diff.provenance).toEqual([
      {
        what: 'suite',
        before: 'openwop-eval-gate-conformance 0.1.0',
        after: 'openwop-eval-gate-conformance 0.2.0',
      },
      {
        what: 'fixture conformance-eval-trajectory-gate',
        before: 'b'.repeat(64),
        after: 'a'.repeat(64),
      },
    ]);
    expect(diff.regressions).toEqual([
      `${shape.id}: executed-pass → executed-fail`,
      `${shape.id} shape.base-summary.valid (MUST): held before, fails now`,
    ]);
  });

  it('a rule that fails now but was not checked before is newly failing, not a regression', () => {
    const before: EvalGateReport = { ...base, requirements: [{ ...shape, findings: [] }, mean] };
    const after: EvalGateReport = {
      ...base,
      requirements: [
        shape,
        {
          ...mean,
          disposition: 'blocked',
          findings: [{ ...shape.findings[0]!, rule: 'run.served', ok: false }],
        },
      ],
    };
    const diff = diffReports(before, after, new Map(), NEITHER_CERTIFIED);
    expect(diff.rules).toMatchObject([
      { rule: 'run.served', change: 'newly fails', before: 'not checked', regressed: false },
    ]);
    expect(diff.regressions).toEqual([]);
  });
});

describe('the severity gate and the host checks', () => {
  const passing: readonly RowFacts[] = [
    { id: A, disposition: 'executed-pass', findings: [must('task.passed', true)] },
  ];
  const report = (failOn: 'must' | 'should', ok: boolean): CiFacts =>
    ({
      requirements: passing,
      failOn,
      hostChecks: {
        probes: [],
        findings: [
          {
            rule: 'wire.unauthenticated-refused',
            ok,
            severity: 'SHOULD',
            ref: 'contract §1',
            message: 'a create without credentials MUST be refused 401; host answered 201',
          },
        ],
        unexercised: [],
      },
    }) as unknown as CiFacts;

  it('a failed host check fails the run under --fail-on should, naming it', () => {
    const verdict = ciVerdict(report('should', false));
    expect(verdict.exitCode).toBe(1);
    expect(verdict.hostWarnings.map((f) => f.rule)).toEqual(['wire.unauthenticated-refused']);
  });

  it('a failed host check leaves the exit status alone under must, and a held one under should', () => {
    expect(ciVerdict(report('must', false)).exitCode).toBe(0);
    expect(ciVerdict(report('should', true)).exitCode).toBe(0);
  });
  const bypassed = (failOn: 'must' | 'should' | 'none', ok: boolean): CiFacts =>
    ({
      requirements: passing,
      failOn,
      hostChecks: {
        probes: [],
        findings: [
          {
            rule: 'auth.no-bypass',
            ok,
            severity: 'MUST',
            ref: 'contract §1',
            message: 'authentication bypass: POST /runs (the key extended) was answered 201',
          },
        ],
        unexercised: [],
      },
    }) as unknown as CiFacts;

  it('an authentication bypass fails the run under every gate, and none waives that it failed', () => {
    for (const failOn of ['must', 'should'] as const) {
      const verdict = ciVerdict(bypassed(failOn, false));
      expect(verdict.exitCode, failOn).toBe(1);
      expect(verdict.hostWarnings.map((f) => f.rule)).toEqual(['auth.no-bypass']);
    }
    const waived = ciVerdict(bypassed('none', false));
    expect([waived.exitCode, waived.failing]).toEqual([0, true]);
    expect(ciVerdict(bypassed('must', true)).exitCode).toBe(0);
  });
});
