// The leading cause and the list of causes come from one ordered table (lib/report/verdict/lead.ts):
// whatever leads the line is the first cause listed, so the summary's first line and its list
// never disagree on what to fix first, and the problem lines printed above the closing line follow
// the same order.

import { describe, expect, it } from 'vitest';
import type { ReportRow } from '../../lib/report/report.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { broken, hostKey, passingRows, reportWith } from '../channels/support.ts';

/** Passing rows, one of which failed a SHOULD rule, and a host that served a near-miss key. */
function bypassedAndWarned(): ReturnType<typeof reportWith> {
  const rows: ReportRow[] = passingRows().map((row, i) =>
    i === 0 ? { ...row, findings: [...row.findings, broken('wire.error-body', 'SHOULD')] } : row,
  );
  return reportWith(rows, hostKey(), {
    failOn: 'should',
    hostChecks: {
      probes: [],
      findings: [{ ...broken('auth.no-bypass'), ref: 'contract §1' }],
      unexercised: [],
      inapplicable: [],
    },
  });
}

describe('the causes of a verdict, in one order', () => {
  it('an authentication bypass leads the line and the list, before the SHOULD warnings', () => {
    const verdict = runVerdict(bypassedAndWarned());
    expect(verdict.result).toBe('FAIL');
    expect(verdict.lead).toMatch(/^1 authentication bypass, first auth\.no-bypass$/);
    expect(verdict.causes).toHaveLength(2);
    expect(verdict.causes[0]).toMatch(/a token that is not the key was served$/);
    expect(verdict.causes[1]).toMatch(/^1 SHOULD warning fail the run under --fail-on should/);
  });

  it('the problem lines above the closing line follow the same order: the bypass first', () => {
    const verdict = runVerdict(bypassedAndWarned());
    expect(verdict.problems).toHaveLength(2);
    expect(verdict.problems[0]).toMatch(/^host check failure \(MUST\): auth\.no-bypass: /);
    expect(verdict.problems[1]).toMatch(/^not excused: \S+ wire\.error-body$/);
  });

  it('a run with nothing to fix has no lead and no cause', () => {
    const verdict = runVerdict(reportWith(passingRows(), hostKey()));
    expect([verdict.lead, verdict.causes, verdict.problems]).toEqual([undefined, [], []]);
  });
});
