// The run's one verdict and the lines every channel prints from it, word for word on literal
// reports: the result, the counts, the certification clause, the headline, the closing line, the
// action's outputs, and what limits a run (lib/report/verdict/run-verdict.ts, ci-verdict.ts).

import { describe, expect, it } from 'vitest';
import type { Certification, EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { NOT_SELECTED } from '../../lib/report/run-options.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import { addedSince, currentSet, requirementSetOf } from '../../lib/requirement-sets.ts';
import type { BaselineContext } from '../../lib/report/verdict/baseline.ts';
import {
  ciLimits,
  ciVerdict,
  gateCounts,
  isExcusedRow,
} from '../../lib/report/verdict/ci-verdict.ts';
import {
  certificationClause,
  closingLineOf,
  headline,
  optOutClauses,
  runVerdict,
  stepOutputs,
  UNRECORDED,
  verdictClause,
} from '../../lib/report/verdict/run-verdict.ts';
import { LEGS } from '../../lib/legs.ts';
import { reportOf } from '../cli/report-example.ts';
import { A, B, C, baseline, entry, finding, pass, row } from './literal-rows.ts';

const fail = (id: string, rule = 'task.passed') => row(id, 'executed-fail', [finding(rule, false)]);
const warned = (id: string) => pass(id, finding('wire.version-header', false, 'SHOULD'));

function reportFor(
  rows: readonly ReportRow[],
  options: RunOptions = {},
  extra: Partial<EvalGateReport> = {},
  context: BaselineContext = {},
): EvalGateReport {
  return reportOf(rows, { ...runRecord(options, rows, context), ...extra });
}

function limitsOf(report: EvalGateReport): string[] {
  return ciLimits(report, ciVerdict(report));
}

const CERTIFIED: Certification = {
  certified: true,
  reasons: [],
  optOuts: [],
  signer: { state: 'verified', keyId: 'K1' } as Certification['signer'],
};

describe('the result and the counts', () => {
  it('a failure is FAIL even when --fail-on none makes the exit code 0', () => {
    const verdict = runVerdict(reportFor([fail(A), pass(B)], { failOn: 'none' }));
    expect([verdict.result, verdict.exitCode]).toEqual(['FAIL', 0]);
  });

  it('a blocked run is BLOCKED with exit 3; a clean one PASS with exit 0', () => {
    expect(runVerdict(reportFor([pass(A), row(B, 'blocked')])).result).toBe('BLOCKED');
    expect(runVerdict(reportFor([pass(A), row(B, 'blocked')])).exitCode).toBe(3);
    expect(runVerdict(reportFor([pass(A)])).result).toBe('PASS');
  });

  it('counts every disposition, every row and every flaky row, allowed or not', () => {
    const flaky = (id: string) => ({ ...pass(id), repetitions: [fail(id)] });
    const rows = [
      flaky(A),
      flaky(B),
      fail(C),
      row('openwop.requirement.0246.x', 'blocked'),
      row('openwop.requirement.0246.y', 'inapplicable'),
    ];
    const allowed = entry(B, { outcomes: ['executed-pass', 'executed-fail'] });
    const verdict = runVerdict(reportFor(rows, { repeat: 2, baseline: baseline([allowed]) }));
    expect(verdict.counts).toMatchObject({
      passed: 2,
      failed: 1,
      blocked: 1,
      skipped: 1,
      total: 5,
      flaky: 2,
    });
  });

  it('a report that recorded no certification is read as UNRECORDED; one given is kept', () => {
    const report = reportFor([pass(A)]);
    expect(runVerdict(report).certification).toBe(UNRECORDED);
    expect(runVerdict({ ...report, certification: CERTIFIED }).certification).toBe(CERTIFIED);
    expect(UNRECORDED.certified).toBe(false);
    expect(certificationClause(runVerdict(report))).toBe(
      'not certified: no certification recorded',
    );
  });

  it('names the implementation the host advertises, with a declared version where it has none', () => {
    const report = reportFor([pass(A)]);
    const target = {
      ...report.target,
      implementation: { name: 'acme-host' },
      declared: { name: 'acme-host', version: '9.9' },
    };
    expect(runVerdict({ ...report, target }).implementation).toEqual({
      name: 'acme-host',
      version: '9.9',
    });
    const bare = { baseUrl: report.target.baseUrl, embedded: false };
    expect(runVerdict({ ...report, target: bare })).not.toHaveProperty('implementation');
    expect(runVerdict({ ...report, target: bare })).not.toHaveProperty('lead');
  });
});

describe('the certification clause', () => {
  const clean = (certification: Certification, target?: EvalGateReport['target']) => {
    const report = reportFor([pass(A)]);
    return runVerdict({ ...report, ...(target === undefined ? {} : { target }), certification });
  };

  it('names the implementation, the key and each opt-out with its requirements', () => {
    const optOuts = [
      { gate: 'agents.evalSuite.trials', requirements: [A, B, C] },
      { gate: 'generated-pack', requirements: [A] },
    ] as unknown as Certification['optOuts'];
    const verdict = clean({ ...CERTIFIED, optOuts });
    expect(optOutClauses(verdict)).toEqual([
      'opted out: agents.evalSuite.trials (3 requirements)',
      'opted out: generated-pack (1 requirement)',
    ]);
    expect(certificationClause(verdict)).toBe(
      'certified: acme-host 1.2.0 (signed by key K1; opted out: agents.evalSuite.trials (3 requirements); opted out: generated-pack (1 requirement))',
    );
  });

  it('says "signed" of a signer it cannot name, and leaves out an implementation it does not know', () => {
    const unnamed = { baseUrl: 'http://h', embedded: false };
    const signed = { ...CERTIFIED, signer: { state: 'unverified', why: 'x' } } as Certification;
    expect(certificationClause(clean(signed, unnamed))).toBe('certified (signed)');
  });

  it('lists every reason a certification was withheld, short', () => {
    const withheld: Certification = {
      ...UNRECORDED,
      reasons: [
        { code: 'failed', short: '1 of 3 failed', text: 'x' },
        { code: 'unsigned', short: 'not signed', text: 'y' },
      ],
    };
    expect(certificationClause(clean(withheld))).toBe('not certified: 1 of 3 failed, not signed');
  });
});

describe('the headline, the verdict clause and the closing line', () => {
  it('a pass has no cause: the result, the exit code and the certification', () => {
    const verdict = runVerdict(reportFor([pass(A), pass(B)]));
    expect(headline(verdict)).toBe(
      'Result: PASS (exit 0); not certified: no certification recorded',
    );
    expect(verdictClause(verdict)).toBe('PASS');
    expect(closingLineOf(verdict)).toBe(
      'PASS; 2 passed, 0 failed, 0 blocked, 0 skipped; not certified: no certification recorded',
    );
  });

  it('a failure leads with its cause; under --fail-on none it says the exit code was waived', () => {
    const verdict = runVerdict(reportFor([fail(A)], { failOn: 'none' }));
    expect(headline(verdict)).toBe(
      'Result: FAIL (exit 0): 1 requirement failed, first task.passed in mean-gated; exit 0 under --fail-on none; not certified: no certification recorded',
    );
    expect(verdictClause(verdict)).toBe(
      'FAIL: 1 requirement failed, first task.passed in mean-gated',
    );
    expect(closingLineOf(verdict)).toBe(
      'FAIL: 1 requirement failed, first task.passed in mean-gated; 0 passed, 1 failed, 0 blocked, 0 skipped; fail-on none: the exit code ignores the failures; not certified: no certification recorded',
    );
    const must = runVerdict(reportFor([fail(A)]));
    expect(headline(must)).toBe(
      'Result: FAIL (exit 1): 1 requirement failed, first task.passed in mean-gated; not certified: no certification recorded',
    );
  });

  it('the embedded host is said in the headline and on the closing line', () => {
    const report = reportFor([pass(A)]);
    const verdict = runVerdict({ ...report, target: { ...report.target, embedded: true } });
    expect(headline(verdict)).toMatch(
      /^Result: PASS \(exit 0\) against the embedded reference host; /,
    );
    expect(closingLineOf(verdict)).toBe(
      'PASS; 1 passed, 0 failed, 0 blocked, 0 skipped; embedded reference host; not certified: no certification recorded',
    );
  });

  it('a headline too long for the certification drops it, and one too long alone is clipped', () => {
    const reason = (n: number) => ({ code: 'failed' as const, short: 'r'.repeat(n), text: 'x' });
    const report = reportFor([fail(A)]);
    const withReason = (n: number) =>
      runVerdict({ ...report, certification: { ...UNRECORDED, reasons: [reason(n)] } });
    const line = 'Result: FAIL (exit 1): 1 requirement failed, first task.passed in mean-gated';
    // Exactly the limit keeps the certification; one more character drops it.
    const fits = 160 - `${line}; not certified: `.length;
    expect(headline(withReason(fits))).toBe(`${line}; not certified: ${'r'.repeat(fits)}`);
    expect(headline(withReason(fits + 1))).toBe(line);
    const long = runVerdict(reportFor([fail('openwop.requirement.0246.' + 'z'.repeat(200))]));
    expect(headline(long)).toHaveLength(160);
    expect(headline(long).endsWith('…')).toBe(true);
    const pass160 = runVerdict({
      ...reportFor([pass(A)]),
      certification: { ...UNRECORDED, reasons: [reason(200)] },
    });
    expect(headline(pass160)).toHaveLength(160);
  });

  it('the step outputs carry the result, the certification, the headline and every count', () => {
    const verdict = runVerdict(reportFor([fail(A), pass(B), row(C, 'skipped')]));
    expect(stepOutputs(verdict)).toEqual([
      'result=FAIL',
      'certified=false',
      'implementation=acme-host 1.2.0',
      `verdict=${headline(verdict)}`,
      'passed=1',
      'failed=1',
      'blocked=0',
      'skipped=1',
      'flaky=0',
    ]);
    const bare = reportFor([pass(A)]);
    const unnamed = runVerdict({ ...bare, target: { baseUrl: 'http://h', embedded: false } });
    expect(stepOutputs(unnamed)[2]).toBe('implementation=');
  });

  it('a line break in a lead or an implementation never splits an output line', () => {
    const report = reportFor([row(A, 'blocked', [], { reason: 'one\r\ntwo' })]);
    const target = { ...report.target, implementation: { name: 'acme', version: '1\n2' } };
    const outputs = stepOutputs(runVerdict({ ...report, target }));
    expect(outputs.every((o) => !/[\r\n]/.test(o))).toBe(true);
    expect(outputs[3]).toContain('one two');
  });
});

describe('what limits a run', () => {
  it('a selection, counted from the rows', () => {
    const rows = [
      pass(A),
      ...LEGS.slice(1).map((l) => row(l.id, 'skipped', [], { reason: NOT_SELECTED })),
    ];
    const partial = reportFor(rows, { selection: { only: [A], skip: [] } });
    expect(limitsOf(partial)).toEqual([`partial: 1 of ${LEGS.length} selected`]);
    const whole = reportFor([pass(A)], { selection: { only: [], skip: [] } });
    expect(limitsOf(whole)).toEqual([]);
  });

  it('a pinned requirement set, with how many the current set adds', () => {
    const first = requirementSetOf('0.1.0');
    if (first === undefined) throw new Error('0.1.0 shipped a set');
    const added = addedSince(first).length;
    expect(added).toBeGreaterThan(0);
    const pinned = reportFor([pass(A)], {
      selection: { only: [], skip: [], requirementSet: first },
    });
    expect(limitsOf(pinned).at(-1)).toBe(`requirement set 0.1.0 (the current set adds ${added})`);
    const current = currentSet();
    const now = reportFor([pass(A)], {
      selection: { only: [], skip: [], requirementSet: current },
    });
    expect(limitsOf(now)).toEqual([`requirement set ${current.version}`]);
  });

  it('a baseline: excused rows and rules, stale entries, and expired ones when there are any', () => {
    const rows = [
      row(A, 'executed-fail', [finding('task.passed', false), finding('suite.passed', false)]),
      pass(B),
    ];
    const report = reportFor(rows, { baseline: baseline([entry(A), entry(B)]) });
    expect(limitsOf(report)).toEqual([
      'baseline: 1 failing requirement excused (2 rules), 1 stale',
    ]);
    const two = reportFor([fail(A), fail(B)], { baseline: baseline([entry(A), entry(B)]) });
    expect(limitsOf(two)).toEqual(['baseline: 2 failing requirements excused (2 rules), 0 stale']);
    const expired = reportFor(
      [fail(A)],
      { baseline: baseline([entry(A, { expires: '2020-01-01' })]) },
      {},
      { day: '2026-01-01' },
    );
    expect(limitsOf(expired)).toEqual([
      'baseline: 0 failing requirements excused (0 rules), 0 stale, 1 expired',
    ]);
  });

  it('the severity section, with what it moved', () => {
    const raise = {
      rule: 'wire.version-header',
      requirements: [B],
      severity: 'MUST' as const,
      reason: 'r',
    };
    const lower = {
      rule: 'task.passed',
      requirements: [A],
      severity: 'SHOULD' as const,
      reason: 'r',
    };
    const report = reportFor([fail(A), warned(B)], {
      baseline: baseline([], { severity: [raise, lower] }),
    });
    expect(limitsOf(report)).toEqual([
      'baseline: 0 failing requirements excused (0 rules), 0 stale',
      'severity: wire.version-header raised to MUST on suite-gated, task.passed lowered to SHOULD on mean-gated (1 passed requirement failing the run, 1 failed requirement failing nothing)',
    ]);
    const idle = reportFor([pass(C)], { baseline: baseline([], { severity: [raise] }) });
    expect(limitsOf(idle)[1]).toBe('severity: wire.version-header raised to MUST on suite-gated');
    const D = 'openwop.requirement.0246.mean-partial-inclusive';
    const both = reportFor([fail(A), fail(C), warned(B), warned(D)], {
      baseline: baseline([], {
        severity: [
          { ...raise, requirements: [B, D] },
          { ...lower, requirements: [A, C] },
        ],
      }),
    });
    expect(limitsOf(both)[1]).toMatch(
      /\(2 passed requirements failing the run, 2 failed requirements failing nothing\)$/,
    );
  });

  it('repetitions, with the flaky rows the baseline allows', () => {
    const flaky = (id: string) => ({ ...pass(id), repetitions: [fail(id)] });
    const allowed = entry(B, { outcomes: ['executed-pass', 'executed-fail'] });
    const report = reportFor([flaky(A), flaky(B)], { repeat: 3, baseline: baseline([allowed]) });
    expect(limitsOf(report).at(-1)).toBe('repeat 3: 2 flaky (1 allowed)');
    expect(limitsOf(reportFor([pass(A)], { repeat: 2 }))).toEqual(['repeat 2: 0 flaky']);
  });

  it('the SHOULD gate with its warnings and the excused among them', () => {
    const report = reportFor([warned(A), warned(B)], {
      failOn: 'should',
      baseline: baseline([entry(A, { rule: 'wire.version-header' })]),
    });
    expect(limitsOf(report).at(-1)).toBe('fail-on should: 2 SHOULD warnings (1 excused)');
    expect(limitsOf(reportFor([warned(A)], { failOn: 'should' }))).toEqual([
      'fail-on should: 1 SHOULD warning',
    ]);
  });

  it('--fail-on none, saying whether it ignored a failure', () => {
    expect(limitsOf(reportFor([fail(A)], { failOn: 'none' }))).toEqual([
      'fail-on none: the exit code ignores the failures',
    ]);
    expect(limitsOf(reportFor([pass(A)], { failOn: 'none' }))).toEqual(['fail-on none']);
  });
});

describe('the gate counts', () => {
  it('an excused row is a failed row whose every fault the baseline excused', () => {
    const rows = [
      row(A, 'executed-fail', [finding('task.passed', false), finding('suite.passed', false)]),
      fail(B),
      pass(C),
    ];
    const report = reportFor(rows, {
      baseline: baseline([entry(A, { rule: 'task.passed' }), entry(B), entry(C, { rule: 'x' })]),
    });
    const verdict = ciVerdict(report);
    expect(rows.map((r) => isExcusedRow(report, verdict, r))).toEqual([false, true, false]);
    expect(gateCounts(report, verdict)).toEqual({
      raisedPassed: 0,
      loweredFailed: 0,
      excusedFailed: 1,
      excusedRules: 2,
      shouldWarnings: 0,
      excusedWarnings: 0,
      stale: 1,
      expired: 0,
    });
  });

  it('a failed row with no fault is not excused: nothing was there to excuse', () => {
    const lower = {
      rule: 'task.passed',
      requirements: [A],
      severity: 'SHOULD' as const,
      reason: 'r',
    };
    const report = reportFor([fail(A)], { baseline: baseline([entry(A)], { severity: [lower] }) });
    const verdict = ciVerdict(report);
    expect(isExcusedRow(report, verdict, fail(A))).toBe(false);
    expect(gateCounts(report, verdict).loweredFailed).toBe(1);
  });

  it('counts each SHOULD warning once per row and per host check, blocked rows never', () => {
    const twice = pass(A, finding('wire.a', false, 'SHOULD'), finding('wire.a', false, 'SHOULD'));
    const report = reportFor(
      [twice, row(B, 'blocked', [finding('wire.b', false, 'SHOULD')])],
      { failOn: 'should' },
      {
        hostChecks: {
          probes: [],
          findings: [
            finding('wire.c', false, 'SHOULD'),
            finding('wire.c', false, 'SHOULD'),
            finding('wire.d', true, 'SHOULD'),
          ],
          unexercised: [],
          inapplicable: [],
        },
      },
    );
    expect(gateCounts(report, ciVerdict(report)).shouldWarnings).toBe(2);
  });
});
