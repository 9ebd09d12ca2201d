// Every kind of cause of a run's verdict, word for word on literal rows: its short lead, its line
// in the list of causes and its problem lines, singular and plural, and the one order the three
// share (lib/report/verdict/lead.ts). Milliseconds each: no host, no key, no rendering.

import { describe, expect, it } from 'vitest';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import type { BaselineContext } from '../../lib/report/verdict/baseline.ts';
import { ciVerdict } from '../../lib/report/verdict/ci-verdict.ts';
import { causesOf, clip, LEAD_LIMIT, shortId } from '../../lib/report/verdict/lead.ts';
import { reportOf } from '../cli/report-example.ts';
import {
  A,
  B,
  BASELINE_FILE,
  C,
  baseline,
  checks,
  entry,
  finding,
  pass,
  row,
} from './literal-rows.ts';

const FILE = BASELINE_FILE;

/** The report a run records of `rows` under `options`, and its causes. */
function causes(
  rows: readonly ReportRow[],
  options: RunOptions = {},
  extra: Partial<EvalGateReport> = {},
  context: BaselineContext = {},
) {
  const hostFindings = extra.hostChecks?.findings;
  const report = reportOf(rows, {
    ...runRecord(options, rows, {
      ...context,
      ...(hostFindings === undefined ? {} : { hostFindings }),
    }),
    ...extra,
  });
  return causesOf(report, ciVerdict(report));
}

describe('failed requirements', () => {
  it('lead with the count and the first failing rule, list every row, and name no fault without a baseline', () => {
    const got = causes([
      row(A, 'executed-fail', [finding('task.passed', false)]),
      row(B, 'executed-fail'),
      pass(C),
    ]);
    expect(got).toEqual({
      lead: '2 requirements failed, first task.passed in mean-gated',
      causes: [`2 requirements failed (${A}, ${B}); the summary shows each failing rule`],
      problems: [],
    });
  });

  it('a first failure without a rule is named by its row alone; one row is singular', () => {
    const got = causes([row(B, 'executed-fail'), pass(A)]);
    expect(got.lead).toBe('1 requirement failed, first suite-gated');
    expect(got.causes).toEqual([
      `1 requirement failed (${B}); the summary shows each failing rule`,
    ]);
  });

  it('names each fault not excused under --fail-on should, none or a baseline', () => {
    const rows = [
      row(A, 'executed-fail', [finding('task.passed', false)]),
      row(B, 'executed-fail'),
    ];
    const lines = [`not excused: ${A} task.passed`, `not excused: ${B}`];
    expect(causes(rows, { failOn: 'should' }).problems).toEqual(lines);
    expect(causes(rows, { failOn: 'none' }).problems).toEqual(lines);
    expect(causes(rows, { baseline: baseline([]) }).problems).toEqual(lines);
    expect(causes(rows, { failOn: 'must' }).problems).toEqual([]);
  });
});

describe('flaky requirements', () => {
  const flaky = (id: string, ...later: ReportRow['disposition'][]) =>
    ({
      ...pass(id),
      repetitions: later.map((d) => row(id, d, [finding('task.passed', d === 'executed-pass')])),
    }) satisfies ReportRow;

  it('lead with the first and its outcomes, count the repetitions, and print a line each', () => {
    const rows = [pass(C), flaky(A, 'executed-fail', 'executed-pass'), flaky(B, 'blocked')];
    const got = causes(rows, { repeat: 3 });
    expect(got.lead).toBe('2 requirements flaky, first mean-gated (executed-pass, executed-fail)');
    expect(got.causes).toEqual([
      `2 requirements flaky across 3 repetitions (${A}: executed-pass, executed-fail; ${B}: executed-pass, blocked); fix the host, or list the outcomes in the baseline`,
    ]);
    expect(got.problems).toEqual([
      `flaky: ${A} came to executed-pass, executed-fail across the repetitions`,
      `flaky: ${B} came to executed-pass, blocked across the repetitions`,
    ]);
  });

  it('one flaky row is singular; without a repeat record the count is not stated', () => {
    const got = causes([flaky(A, 'executed-fail')]);
    expect(got.lead).toBe('1 requirement flaky, first mean-gated (executed-pass, executed-fail)');
    expect(got.causes[0]).toMatch(/^1 requirement flaky across the repetitions \(/);
  });

  it('a flaky row the baseline allows leads nothing and is printed as allowed', () => {
    const rows = [flaky(A, 'executed-fail')];
    const allowed = entry(A, { outcomes: ['executed-pass', 'executed-fail'] });
    const got = causes(rows, { repeat: 2, baseline: baseline([allowed]) });
    expect(got.lead).toBeUndefined();
    expect(got.problems).toEqual([
      `flaky (allowed by the baseline): ${A} came to executed-pass, executed-fail across the repetitions`,
    ]);
  });
});

describe('authentication bypasses', () => {
  it('lead with the first rule, fail the run whatever the gate, and print each as a MUST failure', () => {
    const bypass = finding('auth.no-bypass', false);
    const got = causes(
      [pass(A)],
      {},
      { hostChecks: checks(bypass, finding('wire.x', true, 'SHOULD')) },
    );
    expect(got).toEqual({
      lead: '1 authentication bypass, first auth.no-bypass',
      causes: [
        '1 authentication bypass (auth.no-bypass, MUST) fails the run: a token that is not the key was served',
      ],
      problems: ['host check failure (MUST): auth.no-bypass: auth.no-bypass broke'],
    });
  });

  it('two are plural', () => {
    const two = checks(finding('auth.no-bypass', false), finding('auth.other-bypass', false));
    const got = causes([pass(A)], {}, { hostChecks: two });
    expect(got.lead).toBe('2 authentication bypasses, first auth.no-bypass');
    expect(got.causes).toEqual([
      '2 authentication bypasses (auth.no-bypass, auth.other-bypass, MUST) fail the run: a token that is not the key was served',
    ]);
  });
});

describe('failures raised to MUST and SHOULD warnings', () => {
  const warned = (id: string) => pass(id, finding('wire.version-header', false, 'SHOULD'));
  const raise = (requirements: readonly string[]) => ({
    rule: 'wire.version-header',
    requirements,
    severity: 'MUST' as const,
    reason: 'we rely on it',
  });

  it('a passed row whose warning the baseline raised leads as raised, and is named as not excused', () => {
    const got = causes([warned(B), pass(A)], {
      baseline: baseline([], { severity: [raise([B])] }),
    });
    expect(got).toEqual({
      lead: '1 failure raised to MUST, first wire.version-header in suite-gated',
      causes: [
        `1 SHOULD warning fail the run raised to MUST by the baseline's severity section (${B} wire.version-header)`,
      ],
      problems: [`not excused: ${B} wire.version-header`],
    });
  });

  it('two raised are plural', () => {
    const got = causes([warned(A), warned(B)], {
      baseline: baseline([], { severity: [raise([A, B])] }),
    });
    expect(got.lead).toBe('2 failures raised to MUST, first wire.version-header in mean-gated');
    expect(got.causes[0]).toMatch(/^2 SHOULD warnings fail the run raised to MUST /);
  });

  it("under --fail-on should, the rows' warnings and the host checks' lead and list apart", () => {
    const host = finding('wire.error-body', false, 'SHOULD');
    const got = causes([warned(B), pass(A)], { failOn: 'should' }, { hostChecks: checks(host) });
    expect(got).toEqual({
      lead: '2 SHOULD warnings fail the run, first wire.version-header in suite-gated',
      causes: [
        `1 SHOULD warning fail the run under --fail-on should (${B} wire.version-header)`,
        '1 host-check warning fail the run under --fail-on should (wire.error-body)',
      ],
      problems: [
        `not excused: ${B} wire.version-header`,
        'host check warning: wire.error-body: wire.error-body broke',
      ],
    });
  });

  it('host-check warnings alone lead with the first check, plural when two', () => {
    const two = checks(
      finding('wire.error-body', false, 'SHOULD'),
      finding('wire.version-header', false, 'SHOULD'),
    );
    const got = causes([pass(A), warned(B)], { failOn: 'should' }, { hostChecks: two });
    expect(got.lead).toBe(
      '3 SHOULD warnings fail the run, first wire.version-header in suite-gated',
    );
    expect(got.causes).toEqual([
      `1 SHOULD warning fail the run under --fail-on should (${B} wire.version-header)`,
      '2 host-check warnings fail the run under --fail-on should (wire.error-body, wire.version-header)',
    ]);
    const only = causes([pass(A)], { failOn: 'should' }, { hostChecks: two });
    expect(only.lead).toBe('2 SHOULD warnings fail the run, first wire.error-body (host check)');
    expect(only.causes).toHaveLength(1);
  });

  it('a MUST failure lowered to SHOULD counts as a warning under should, not as a failed row', () => {
    const lowered = {
      rule: 'task.passed',
      requirements: [A],
      severity: 'SHOULD' as const,
      reason: 'known host bug',
    };
    const rows = [row(A, 'executed-fail', [finding('task.passed', false)])];
    const got = causes(rows, { failOn: 'should', baseline: baseline([], { severity: [lowered] }) });
    expect(got.lead).toBe('1 SHOULD warning fail the run, first task.passed in mean-gated');
  });
});

describe('baseline entries', () => {
  it('a stale entry leads with its row and where to remove it; a rule entry names its rule', () => {
    const got = causes([pass(A)], { baseline: baseline([entry(A)]) });
    expect(got).toEqual({
      lead: `1 stale baseline entry, first mean-gated: remove it from ${FILE}`,
      causes: [`1 stale baseline entry: ${A} now hold; remove it from ${FILE}`],
      problems: [`stale baseline entry: ${A} now holds; remove it from ${FILE}`],
    });
    const rule = causes([pass(A)], { baseline: baseline([entry(A, { rule: 'task.passed' })]) });
    expect(rule.lead).toBe(
      `1 stale baseline entry, first mean-gated task.passed: remove it from ${FILE}`,
    );
  });

  it('two stale entries are plural and removed as "them"', () => {
    const got = causes([pass(A), pass(B)], { baseline: baseline([entry(A), entry(B)]) });
    expect(got.lead).toBe(`2 stale baseline entries, first mean-gated: remove it from ${FILE}`);
    expect(got.causes).toEqual([
      `2 stale baseline entries: ${A}, ${B} now hold; remove them from ${FILE}`,
    ]);
  });

  it('an expired entry leads nothing, and says since when and who tracks it', () => {
    const rows = [row(A, 'executed-fail', [finding('task.passed', false)])];
    const expired = entry(A, { ticket: 'HOST-1', owner: 'evals', expires: '2020-01-01' });
    const got = causes(rows, { baseline: baseline([expired]) }, {}, { day: '2026-10-16' });
    expect(got.lead).toBe('1 requirement failed, first task.passed in mean-gated');
    expect(got.causes).toEqual([
      `1 requirement failed (${A}); the summary shows each failing rule`,
      `1 baseline entry expired and excuse nothing (${A}, 2020-01-01); fix or renew it in ${FILE}`,
    ]);
    expect(got.problems).toEqual([
      `not excused: ${A} task.passed`,
      `expired baseline entry: ${A} (ticket HOST-1, owner evals, expires 2020-01-01) excuses nothing since 2020-01-01; fix the failure or renew the entry in ${FILE}`,
    ]);
  });

  it('two expired entries are plural and renewed as "them"', () => {
    const rows = [pass(A), pass(B)];
    const old = { expires: '2020-01-01' };
    const got = causes(
      rows,
      { baseline: baseline([entry(A, old), entry(B, old)]) },
      {},
      { day: '2026-10-16' },
    );
    expect(got.causes).toEqual([
      `2 baseline entries expired and excuse nothing (${A}, 2020-01-01; ${B}, 2020-01-01); fix or renew them in ${FILE}`,
    ]);
  });

  it('a report whose baseline names no file says "the baseline"', () => {
    const report = reportOf([pass(A)], {
      ...runRecord({ baseline: baseline([entry(A)]) }, [pass(A)]),
    });
    const unnamed = {
      ...report,
      baseline: { ...report.baseline, file: undefined },
    } as unknown as EvalGateReport;
    expect(causesOf(unnamed, ciVerdict(unnamed)).lead).toBe(
      '1 stale baseline entry, first mean-gated: remove it from the baseline',
    );
  });
});

describe('a waived exit code and a blocked run', () => {
  it('--fail-on none adds why the FAIL does not fail the build, and only when something failed', () => {
    const rows = [row(A, 'executed-fail', [finding('task.passed', false)])];
    expect(causes(rows, { failOn: 'none' }).causes).toEqual([
      `1 requirement failed (${A}); the summary shows each failing rule`,
      '--fail-on none: the exit code is 0 whatever failed, so this FAIL does not fail the build',
    ]);
    expect(causes([pass(A)], { failOn: 'none' })).toEqual({
      lead: undefined,
      causes: [],
      problems: [],
    });
  });

  it('what blocked the run leads and is listed when nothing else explains it', () => {
    const got = causes([
      pass(A),
      row(B, 'blocked', [], { reason: 'discovery unreadable' }),
      row(C, 'blocked'),
    ]);
    expect(got).toEqual({
      lead: '2 of 3 blocked (discovery unreadable)',
      causes: [
        '2 of 3 blocked (discovery unreadable); the suite could not observe, so check the host is reachable and run again',
      ],
      problems: [],
    });
    expect(causes([row(C, 'blocked')]).lead).toBe('1 of 1 blocked (no reason recorded)');
  });

  it('a blocked row beside a failure is not listed, and does not lead', () => {
    const got = causes([
      row(A, 'executed-fail', [finding('task.passed', false)]),
      row(B, 'blocked'),
    ]);
    expect(got.lead).toBe('1 requirement failed, first task.passed in mean-gated');
    expect(got.causes).toEqual([
      `1 requirement failed (${A}); the summary shows each failing rule`,
    ]);
  });
});

describe('one order for every kind', () => {
  it('failed, flaky, bypass, raised, warned, stale, expired, waived: the lead is the first', () => {
    const rows: ReportRow[] = [
      row(A, 'executed-fail', [finding('task.passed', false)]),
      {
        ...pass(B, finding('wire.version-header', false, 'SHOULD')),
        repetitions: [row(B, 'blocked')],
      },
      pass(C),
    ];
    const got = causes(
      rows,
      {
        failOn: 'none',
        repeat: 2,
        baseline: baseline([entry(C), entry(A, { rule: 'suite.passed', expires: '2020-01-01' })]),
      },
      { hostChecks: checks(finding('auth.no-bypass', false)) },
      { day: '2026-10-16' },
    );
    expect(got.lead).toBe('1 requirement failed, first task.passed in mean-gated');
    expect(got.causes.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      '1 requirement failed',
      '1 requirement flaky',
      '1 authentication bypass',
      '1 stale baseline',
      '1 baseline entry',
      '--fail-on none: the',
    ]);
  });
});

describe('the short forms', () => {
  it('shortId drops the shared prefix only', () => {
    expect(shortId(A)).toBe('mean-gated');
    expect(shortId('host-checks')).toBe('host-checks');
  });

  it('clip keeps a text of the limit and cuts one longer, marking the cut', () => {
    const exact = 'x'.repeat(LEAD_LIMIT);
    expect(clip(exact)).toBe(exact);
    expect(clip(`${exact}y`)).toBe(`${'x'.repeat(LEAD_LIMIT - 1)}…`);
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(LEAD_LIMIT).toBe(160);
  });
});
