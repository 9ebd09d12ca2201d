// `--fail-on none`: the exit code waives what the host did, and nothing else does. The result
// still says FAIL on every channel, the certification still lists the failure, and a blocked run
// still exits 3, since a lost response is no verdict to waive.

import { describe, expect, it } from 'vitest';
import { badgeFor } from '../../lib/report/render/badge.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import {
  closingLineOf,
  headline,
  runVerdict,
  stepOutputs,
} from '../../lib/report/verdict/run-verdict.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { EXIT } from '../../lib/report/verdict/verdict.ts';
import { broken, HOST_LEGS, hostKey, KEY_ID, passingRows, reportWith } from './support.ts';

const KEY = hostKey();
const FIRST = HOST_LEGS[0]?.id ?? '';

function signedWith(rows: readonly ReportRow[], failOn: 'must' | 'none') {
  const unsigned = reportWith(rows, KEY, runRecord({ failOn }, rows));
  const report = certifiedReport(unsigned, KEY.privateKey, KEY_ID);
  return { report, verdict: runVerdict(report) };
}

const failing = passingRows().map((r) =>
  r.id === FIRST
    ? {
        ...r,
        disposition: 'executed-fail' as const,
        reason: '1 MUST finding failed: task.passed',
        findings: [broken('task.passed')],
      }
    : r,
);

describe('run --fail-on none', () => {
  it('exits 0 on a failed requirement where must exits 1', () => {
    expect(signedWith(failing, 'must').verdict.exitCode).toBe(EXIT.failed);
    expect(signedWith(failing, 'none').verdict.exitCode).toBe(EXIT.ok);
  });

  it('still says FAIL, names the failing requirement and why the exit code is 0', () => {
    const { verdict } = signedWith(failing, 'none');
    expect(verdict.result).toBe('FAIL');
    expect(headline(verdict)).toMatch(/^Result: FAIL \(exit 0\): 1 requirement failed, first /);
    expect(headline(verdict)).toContain(FIRST.split('.').at(-1));
    expect(headline(verdict)).toContain('--fail-on none');
    expect(verdict.causes.join('\n')).toContain(FIRST);
    expect(closingLineOf(verdict)).toMatch(
      /^FAIL: 1 requirement failed, first [^;]+; \d+ passed, 1 failed, /,
    );
    expect(closingLineOf(verdict)).toContain('fail-on none: the exit code ignores the failures');
    expect(stepOutputs(verdict)[0]).toBe('result=FAIL');
    expect(badgeFor(verdict).color).toBe('red');
  });

  it('is not certified while a requirement failed, signed as it is', () => {
    const { verdict } = signedWith(failing, 'none');
    expect(verdict.certification.signer.state).toBe('verified');
    expect(verdict.certification.certified).toBe(false);
    expect(verdict.certification.reasons.map((r) => r.code)).toEqual(['failed']);
  });

  it('is certified when nothing failed, as the same run under must is', () => {
    expect(signedWith(passingRows(), 'none').verdict.certification.certified).toBe(true);
    expect(signedWith(passingRows(), 'none').verdict.result).toBe('PASS');
  });

  it('still exits 3 on a blocked run', () => {
    const blocked = passingRows().map((r) =>
      r.id === FIRST
        ? {
            ...r,
            disposition: 'blocked' as const,
            assertions: 0,
            findings: [],
            reason: 'the host did not answer',
          }
        : r,
    );
    const { verdict } = signedWith(blocked, 'none');
    expect(verdict.exitCode).toBe(EXIT.blocked);
    expect(verdict.result).toBe('BLOCKED');
  });
});
