// A baseline's one resolution on literal rows, at its edges: which faults a row and the host
// checks have, each entry's status (excusing, stale, unobserved, expired) for a requirement, a
// rule, `*`, the host checks and an `outcomes` entry, and the baseline file's severity section
// refused entry by entry (lib/report/verdict/baseline.ts, baseline-file.ts).

import { describe, expect, it } from 'vitest';
import type { ExpectedFailure } from '../../lib/report/run-options.ts';
import type { BaselineContext, RowFacts } from '../../lib/report/verdict/baseline.ts';
import {
  allowsOutcomes,
  faultName,
  faultsOfRow,
  hostFaults,
  isExpired,
  plain,
  resolveBaseline,
  runFaults,
  trackingNote,
} from '../../lib/report/verdict/baseline.ts';
import { readBaselineDocument } from '../../lib/report/verdict/baseline-file.ts';
import { A, B, C } from './literal-rows.ts';

const must = (rule: string, ok: boolean) => ({ rule, ok, severity: 'MUST' as const });
const should = (rule: string, ok: boolean) => ({ rule, ok, severity: 'SHOULD' as const });

const entry = (requirement: string, more: Partial<ExpectedFailure> = {}): ExpectedFailure => ({
  requirement,
  reason: 'known',
  ...more,
});

const statuses = (
  entries: readonly ExpectedFailure[],
  rows: readonly RowFacts[],
  failOn: 'must' | 'should' = 'must',
  context: BaselineContext = {},
) => resolveBaseline(entries, rows, failOn, context).entries.map((e) => e.status);

describe('the faults of a row', () => {
  it('each failing rule once, in judged order, and a failure without a failed MUST first as the row', () => {
    const row: RowFacts = {
      id: A,
      disposition: 'executed-fail',
      findings: [should('wire.b', false), must('task.passed', true), should('wire.b', false)],
    };
    expect(faultsOfRow(row, 'should')).toEqual([
      { requirement: A },
      { requirement: A, rule: 'wire.b' },
    ]);
    expect(faultsOfRow(row, 'must')).toEqual([{ requirement: A }]);
    const failed: RowFacts = {
      ...row,
      findings: [must('task.passed', false), must('task.passed', false)],
    };
    expect(faultsOfRow(failed, 'must')).toEqual([{ requirement: A, rule: 'task.passed' }]);
  });

  it('a row that did not execute has none, and a passed row only its counted failures', () => {
    const findings = [must('task.passed', false)];
    expect(faultsOfRow({ id: A, disposition: 'blocked', findings }, 'must')).toEqual([]);
    expect(faultsOfRow({ id: A, disposition: 'inapplicable', findings }, 'must')).toEqual([]);
    expect(
      faultsOfRow(
        { id: A, disposition: 'executed-pass', findings: [should('wire.a', false)] },
        'must',
      ),
    ).toEqual([]);
  });

  it('a MUST failure lowered to SHOULD on its row counts only under should, and leaves the row a fault', () => {
    const lowered = [
      { rule: 'task.passed', requirements: [A], severity: 'SHOULD' as const, reason: 'r' },
    ];
    const row: RowFacts = {
      id: A,
      disposition: 'executed-fail',
      findings: [must('task.passed', false)],
    };
    expect(faultsOfRow(row, 'must', lowered)).toEqual([]);
    expect(faultsOfRow(row, 'should', lowered)).toEqual([{ requirement: A, rule: 'task.passed' }]);
  });

  it('the host checks: a MUST failure always, a SHOULD one under should, each rule once', () => {
    const findings = [
      must('auth.no-bypass', false),
      should('wire.x', false),
      should('wire.x', false),
      should('wire.y', true),
    ];
    expect(hostFaults(findings, 'must')).toEqual([
      { requirement: 'host-checks', rule: 'auth.no-bypass' },
    ]);
    expect(hostFaults(findings, 'should')).toEqual([
      { requirement: 'host-checks', rule: 'auth.no-bypass' },
      { requirement: 'host-checks', rule: 'wire.x' },
    ]);
    expect(hostFaults(undefined, 'should')).toEqual([]);
    const raised = [
      { rule: 'wire.x', requirements: ['host-checks'], severity: 'MUST' as const, reason: 'r' },
    ];
    expect(hostFaults(findings, 'must', raised)).toEqual([
      { requirement: 'host-checks', rule: 'auth.no-bypass' },
      { requirement: 'host-checks', rule: 'wire.x' },
    ]);
  });

  it("a run's faults are the rows' then the host checks'", () => {
    const rows: RowFacts[] = [
      { id: A, disposition: 'executed-fail', findings: [must('task.passed', false)] },
    ];
    expect(runFaults(rows, 'must', { hostFindings: [must('auth.no-bypass', false)] })).toEqual([
      { requirement: A, rule: 'task.passed' },
      { requirement: 'host-checks', rule: 'auth.no-bypass' },
    ]);
    expect(runFaults(rows, 'must')).toEqual([{ requirement: A, rule: 'task.passed' }]);
  });
});

describe("an entry's status", () => {
  const failing: RowFacts = {
    id: A,
    disposition: 'executed-fail',
    findings: [must('task.passed', false), must('suite.passed', true)],
  };
  const passing: RowFacts = {
    id: B,
    disposition: 'executed-pass',
    findings: [must('task.passed', true)],
  };
  const unrun: RowFacts = { id: C, disposition: 'blocked', findings: [] };

  it('expires only after its day, and never without a day or an expiry', () => {
    const e = entry(A, { expires: '2026-01-01' });
    expect(isExpired(e, '2026-01-02')).toBe(true);
    expect(isExpired(e, '2026-01-01')).toBe(false);
    expect(isExpired(e, undefined)).toBe(false);
    expect(isExpired(entry(A), '2099-01-01')).toBe(false);
    expect(statuses([e], [failing], 'must', { day: '2026-01-02' })).toEqual(['expired']);
    // An expired entry excuses nothing.
    expect(resolveBaseline([e], [failing], 'must', { day: '2026-01-02' }).excused).toEqual([]);
  });

  it('a whole-requirement entry: excusing while its row fails, stale once it passes, unobserved while it does not run', () => {
    expect(statuses([entry(A), entry(B), entry(C)], [failing, passing, unrun])).toEqual([
      'excusing',
      'stale',
      'unobserved',
    ]);
  });

  it('a rule entry: excusing while the rule fails, stale once its row judged it holding', () => {
    expect(
      statuses(
        [
          entry(A, { rule: 'task.passed' }),
          entry(A, { rule: 'suite.passed' }),
          entry(A, { rule: 'never.judged' }),
        ],
        [failing],
      ),
    ).toEqual(['excusing', 'stale', 'stale']);
  });

  it('a rule entry on "*": stale only once some row judged the rule, unobserved before', () => {
    expect(statuses([entry('*', { rule: 'suite.passed' })], [failing, passing])).toEqual(['stale']);
    expect(statuses([entry('*', { rule: 'never.judged' })], [failing, passing])).toEqual([
      'unobserved',
    ]);
    expect(statuses([entry('*', { rule: 'task.passed' })], [failing, passing])).toEqual([
      'excusing',
    ]);
  });

  it('a host-checks entry: judged on the host findings, unobserved when the run made none', () => {
    const hostFindings = [must('auth.no-bypass', true), should('wire.x', false)];
    expect(statuses([entry('host-checks')], [passing], 'should', { hostFindings })).toEqual([
      'excusing',
    ]);
    expect(
      statuses([entry('host-checks')], [passing], 'should', {
        hostFindings: [should('wire.x', true)],
      }),
    ).toEqual(['stale']);
    expect(statuses([entry('host-checks')], [passing], 'should')).toEqual(['unobserved']);
    expect(
      statuses([entry('host-checks', { rule: 'wire.y' })], [passing], 'should', { hostFindings }),
    ).toEqual(['unobserved']);
    expect(
      statuses([entry('host-checks', { rule: 'wire.x' })], [passing], 'should', { hostFindings }),
    ).toEqual(['excusing']);
    expect(
      statuses([entry('host-checks', { rule: 'auth.no-bypass' })], [passing], 'should', {
        hostFindings,
      }),
    ).toEqual(['stale']);
  });

  it('"*" never names the host checks, and a host-checks entry no row', () => {
    const hostFindings = [should('wire.x', false)];
    const resolved = resolveBaseline([entry('*', { rule: 'wire.x' })], [passing], 'should', {
      hostFindings,
    });
    expect(resolved.excused).toEqual([]);
    expect(resolved.unexcused).toEqual([{ requirement: 'host-checks', rule: 'wire.x' }]);
    const row: RowFacts = {
      id: A,
      disposition: 'executed-pass',
      findings: [should('wire.x', false)],
    };
    const byHost = resolveBaseline([entry('host-checks', { rule: 'wire.x' })], [row], 'should', {
      hostFindings: [],
    });
    expect(byHost.unexcused).toEqual([{ requirement: A, rule: 'wire.x' }]);
    expect(resolveBaseline([entry('*', { rule: 'wire.x' })], [row], 'should').excused).toEqual([
      { requirement: A, rule: 'wire.x' },
    ]);
  });

  it('a whole-requirement entry on a row that failed only at SHOULD is stale under must', () => {
    const warned: RowFacts = {
      id: A,
      disposition: 'executed-pass',
      findings: [should('wire.x', false)],
    };
    expect(statuses([entry(A)], [warned], 'must')).toEqual(['stale']);
    expect(statuses([entry(A)], [warned], 'should')).toEqual(['excusing']);
  });
});

describe('an outcomes entry', () => {
  const flaky: RowFacts = {
    id: A,
    disposition: 'executed-pass',
    findings: [],
    repetitions: [{ disposition: 'executed-fail' }],
  };
  const allows = entry(A, { outcomes: ['executed-pass', 'executed-fail'] });

  it('allows a row whose every outcome it lists, on the row it names, or on "*"', () => {
    expect(allowsOutcomes(allows, flaky)).toBe(true);
    expect(allowsOutcomes(entry(A, { outcomes: ['executed-pass'] }), flaky)).toBe(false);
    expect(allowsOutcomes(entry(B, { outcomes: ['executed-pass', 'executed-fail'] }), flaky)).toBe(
      false,
    );
    expect(
      allowsOutcomes(entry('*', { outcomes: ['executed-pass', 'executed-fail'] }), flaky),
    ).toBe(true);
    expect(allowsOutcomes(entry(A), flaky)).toBe(false);
  });

  it('is excusing while its row is flaky or fails, unobserved while it passes, and never stale', () => {
    expect(statuses([allows], [flaky])).toEqual(['excusing']);
    const failed: RowFacts = {
      id: A,
      disposition: 'executed-fail',
      findings: [must('task.passed', false)],
    };
    expect(statuses([allows], [failed])).toEqual(['excusing']);
    expect(statuses([allows], [{ id: A, disposition: 'executed-pass', findings: [] }])).toEqual([
      'unobserved',
    ]);
    expect(
      statuses(
        [entry(A, { outcomes: ['executed-pass', 'executed-fail'], expires: '2000-01-01' })],
        [flaky],
        'must',
        { day: '2026-01-01' },
      ),
    ).toEqual(['expired']);
  });

  it('excuses a failure only of a row whose outcomes it allows, and sorts flaky rows by whether it allows them', () => {
    const failed: RowFacts = {
      ...flaky,
      disposition: 'executed-fail',
      findings: [must('task.passed', false)],
      repetitions: [{ disposition: 'executed-pass' }],
    };
    const other: RowFacts = { ...failed, id: B };
    const resolved = resolveBaseline([allows], [failed, other], 'must');
    expect(resolved.excused).toEqual([{ requirement: A, rule: 'task.passed' }]);
    expect(resolved.unexcused).toEqual([{ requirement: B, rule: 'task.passed' }]);
    expect(resolved.allowedFlaky).toEqual([
      { requirement: A, outcomes: ['executed-fail', 'executed-pass'] },
    ]);
    expect(resolved.flaky).toEqual([
      { requirement: B, outcomes: ['executed-fail', 'executed-pass'] },
    ]);
    const late = entry(A, { outcomes: ['executed-pass', 'executed-fail'], expires: '2000-01-01' });
    expect(resolveBaseline([late], [flaky], 'must', { day: '2026-01-01' }).flaky).toHaveLength(1);
  });
});

describe("an entry's own words", () => {
  it('keeps its own members only, each optional one only when given', () => {
    const full = entry(A, {
      rule: 'r',
      outcomes: ['blocked'],
      ticket: 'T',
      owner: 'O',
      expires: '2030-01-01',
    });
    expect(plain({ ...full, status: 'stale' } as ExpectedFailure)).toStrictEqual(full);
    expect(plain({ ...entry(A), status: 'stale' } as ExpectedFailure)).toStrictEqual({
      requirement: A,
      reason: 'known',
    });
    expect(resolveBaseline([full], [], 'must').entries[0]).toStrictEqual({
      ...full,
      status: 'unobserved',
    });
  });

  it('is named by its requirement, its rule, or its outcomes', () => {
    expect(faultName({ requirement: A })).toBe(A);
    expect(faultName({ requirement: A, rule: 'task.passed' })).toBe(`${A} task.passed`);
    expect(faultName({ requirement: A, outcomes: ['executed-pass', 'blocked'] })).toBe(
      `${A} (executed-pass or blocked)`,
    );
  });

  it('says who tracks it, or nothing', () => {
    expect(trackingNote(entry(A))).toBe('');
    expect(trackingNote(entry(A, { owner: 'evals' }))).toBe(' (owner evals)');
    expect(trackingNote(entry(A, { ticket: 'T-1', expires: '2030-01-01' }))).toBe(
      ' (ticket T-1, expires 2030-01-01)',
    );
  });
});

describe('the severity section of a baseline file', () => {
  const override = (more: Record<string, unknown> = {}) => ({
    rule: 'wire.version-header',
    requirements: ['mean-gated'],
    severity: 'MUST',
    reason: 'we rely on it',
    ...more,
  });

  it('reads a full override with its tracking, and the host checks by name', () => {
    const read = readBaselineDocument({
      severity: [
        override({ ticket: 'T-1', owner: 'evals' }),
        override({ rule: 'wire.error-body', requirements: ['host-checks'] }),
      ],
    });
    expect(read.severity).toStrictEqual([
      {
        rule: 'wire.version-header',
        requirements: [A],
        severity: 'MUST',
        reason: 'we rely on it',
        ticket: 'T-1',
        owner: 'evals',
      },
      {
        rule: 'wire.error-body',
        requirements: ['host-checks'],
        severity: 'MUST',
        reason: 'we rely on it',
      },
    ]);
  });

  it('reads a document without a severity section as none, and the same requirement twice once', () => {
    expect(readBaselineDocument({ expectedFailures: [] })).toEqual({ entries: [], severity: [] });
    expect(
      readBaselineDocument({ severity: [override({ requirements: ['mean-gated', A] })] })
        .severity[0]?.requirements,
    ).toEqual([A]);
  });

  it.each<[string, unknown, string]>([
    [
      'a section that is not a list',
      { severity: {} },
      'the baseline severity section must be a list of overrides',
    ],
    ['an override that is not an object', { severity: ['x'] }, 'severity[0] is not an object'],
    [
      'an unknown member',
      { severity: [override({ why: 'x', note: 'y' })] },
      'severity[0] has why, note; an override has rule, requirements, severity, reason, ticket and owner',
    ],
    ['no rule', { severity: [override({ rule: '' })] }, 'severity[0] needs a rule'],
    [
      'a rule that is not a string',
      { severity: [override({ rule: 3 })] },
      'severity[0] needs a rule',
    ],
    [
      'a blank reason',
      { severity: [override({ reason: '  ' })] },
      'severity[0] (wire.version-header) needs a reason: say why its severity differs',
    ],
    [
      'a reason that is not a string',
      { severity: [override({ reason: 3 })] },
      'severity[0] (wire.version-header) needs a reason',
    ],
    [
      'an empty list of requirements',
      { severity: [override({ requirements: [] })] },
      'severity[0] (wire.version-header) needs requirements',
    ],
    [
      'a requirement that is not a string',
      { severity: [override({ requirements: [3] })] },
      'severity[0] (wire.version-header) needs requirements',
    ],
    [
      'a requirement string other than "*"',
      { severity: [override({ requirements: 'mean-gated' })] },
      'severity[0] (wire.version-header) needs requirements',
    ],
    [
      'the same rule and requirement twice',
      { severity: [override(), override({ requirements: ['suite-gated', 'mean-gated'] })] },
      `the baseline's severity section sets ${A} wire.version-header twice; set it once`,
    ],
    [
      'a rule "*" names that no requirement records',
      { severity: [override({ rule: 'no.such-rule', requirements: '*' })] },
      'severity[0] names rule no.such-rule, which no requirement ever records',
    ],
  ])('refuses %s', (_name, document, message) => {
    expect(() => readBaselineDocument(document)).toThrow(message);
  });

  it('names the override at fault by its place', () => {
    expect(() => readBaselineDocument({ severity: [override(), 'x'] })).toThrow(
      'severity[1] is not an object',
    );
  });
});
