// The host checks through the CLI: a run against a host that checks no key passes every leg, yet
// serving a token that is not the key is an authentication bypass, a MUST that fails the run, and
// the written report, the Markdown, the JUnit and the console all name it beside the failed SHOULD
// checks; `verify` judges the recorded probes and discovery again, and names an edit.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { hostChecksDigest } from '../../lib/report/report.ts';
import { LEGS } from '../../lib/legs.ts';
import { validate } from '../../lib/schemas.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import type { CliRun } from './support.ts';
import {
  cli,
  filesIn,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  verifyWritten,
  withoutVerdict,
} from './support.ts';
import { expectedProbeOutcomes } from '../support/probe-outcomes.ts';

const kept = keepAddresses();
let dir = '';
let run: CliRun;
let report: EvalGateReport;
let files: ReadonlyMap<string, string>;

beforeAll(async () => {
  dir = await scratchDir();
  const host = await kept.host({ apiKey: LEAKY_KEY, defect: 'no-key-check' });
  // The host seeds no generated pack, which is not what this run is about.
  const argv = ['--base-url', host.url, '--report-dir', dir, '--require-behavior'];
  run = await cli(['run', ...argv, '--opt-out', 'generated-pack'], {
    OPENWOP_API_KEY: LEAKY_KEY,
  });
  report = await readReport(dir);
  files = await filesIn(dir);
}, 120_000);

afterAll(async () => {
  await removeDir(dir);
});

const failing = (r: EvalGateReport): string[] =>
  (r.hostChecks?.findings ?? []).filter((f) => !f.ok).map((f) => f.rule);

describe('host checks in a strict run against a host that checks no key', () => {
  it('every leg passes, yet the run exits 1: an authentication bypass fails it whatever the legs say', () => {
    expect(run.code).toBe(1);
    expect(run.stdout.at(-1)).toMatch(
      /^FAIL: 5 authentication bypasses, first auth\.no-bypass[\w.-]*; \d+ passed, /,
    );
    expect(withoutVerdict(run.stdout.at(-1))).toBe(
      `${LEGS.length} passed, 0 failed, 0 blocked, 0 skipped`,
    );
    expect(report.totals['executed-pass']).toBe(LEGS.length);
    const bypasses = run.stdout.filter((l) => l.startsWith('host check failure (MUST): '));
    expect(bypasses).toHaveLength(5);
    for (const line of bypasses) expect(line).toContain('auth.no-bypass: authentication bypass: ');
    // The certification names the bypass: the SHOULD warnings beside it fail nothing under must.
    const reasons = report.certification?.reasons ?? [];
    expect(reasons.find((r) => r.code === 'run-fails')?.short).toBe('authentication bypass');
    expect(run.stdout.at(-1)).toContain('not certified: ');
    expect(run.stdout.at(-1)).toContain('authentication bypass');
  });

  it('the report records the probes and exactly the failed credential checks', () => {
    expect(validate('eval-gate-report', report)).toEqual([]);
    expect(failing(report)).toEqual([
      'wire.unauthenticated-refused',
      'wire.wrong-key-refused',
      'auth.no-bypass',
      'auth.no-bypass',
      'auth.no-bypass',
      'auth.no-bypass',
      'auth.no-bypass',
    ]);
    expect(report.hostChecks?.unexercised).toEqual([]);
    expect(report.hostChecks?.probes.map((p) => [p.probe, p.outcome])).toEqual(
      expectedProbeOutcomes({ keyConfigured: true, runIdKnown: true, evalSuiteAdvertised: true }),
    );
    expect(report.hostChecks?.inapplicable.map((i) => i.rule)).toEqual([
      'wire.unadvertised-operation-not-found',
    ]);
    const failed = report.hostChecks?.findings.find((f) => !f.ok);
    expect(failed?.message).toMatch(
      /SHOULD be answered 401; the status is at fault: it was answered 404 \(error "not_found"\)/,
    );
    expect(report.digests.hostChecks).toBe(hostChecksDigest(report.hostChecks ?? never()));
    expect(JSON.stringify(report)).not.toContain(LEAKY_KEY);
  });

  it('the console counts the host checks before the closing line', () => {
    const line = run.stdout.find((l) => l.startsWith('host checks: '));
    expect(line).toMatch(
      /^host checks: \d+ held, 5 authentication bypasses \(auth\.no-bypass, MUST\), 2 SHOULD warnings \(wire\.unauthenticated-refused, wire\.wrong-key-refused\), 0 unexercised, 1 inapplicable/,
    );
    expect(run.stdout.join('\n')).not.toContain(LEAKY_KEY);
  });

  it('the Markdown has a host-checks section leading with the bypass, and the JUnit a failing case for each bypass and its system-out', () => {
    const markdown = files.get('eval-gate-summary.md') ?? '';
    expect(markdown).toContain('## Host checks');
    expect(markdown).toMatch(
      /5 MUST failed \(authentication bypass\)[^\n]*\n\nAuthentication bypass \(MUST\):\n\n- `auth\.no-bypass` \(contract §1\): authentication bypass: POST \/runs/,
    );
    expect(markdown).toMatch(/- `wire\.unauthenticated-refused` \(contract §1\): POST \/runs/);
    expect(markdown).toMatch(
      /Inapplicable \(a host fact, neither a pass nor a gap\):\n\n- `wire\.unadvertised-operation-not-found`: the host advertises agents\.evalSuite/,
    );
    const junit = files.get('eval-gate-junit.xml') ?? '';
    expect(junit.match(/<testcase /g)).toHaveLength(LEGS.length + 5);
    expect(junit.match(/<failure type="must-failure" message="auth\.no-bypass/g)).toHaveLength(5);
    expect(junit).toMatch(
      /<system-out>Result: FAIL \(exit 1\): 5 authentication bypasses, first auth\.no-bypass[^\n]*\n\nhost checks:\nSHOULD wire\.unauthenticated-refused/,
    );
    expect(junit).toMatch(
      /\ninapplicable wire\.unadvertised-operation-not-found: the host advertises/,
    );
  });

  it('the legs saw no error answer, yet the probes judged wire.error-body, so no output lists it unexercised', () => {
    const legsWithout = report.requirements.filter((r) =>
      (r.unexercised ?? []).some((u) => u.rule === 'wire.error-body'),
    );
    expect(legsWithout.length).toBeGreaterThan(1);
    expect(report.hostChecks?.findings.map((f) => f.rule)).toContain('wire.error-body');
    expect(run.stdout).toContain('every applicable rule was exercised');
    const markdown = files.get('eval-gate-summary.md') ?? '';
    expect(markdown).toContain('Not exercised: every applicable rule was exercised.');
    expect(markdown).not.toContain('Not exercised on ');
    expect(files.get('eval-gate-junit.xml')).not.toContain('unexercised wire.error-body');
  });

  it('verify judges the host checks again and accepts them', async () => {
    const verified = await verifyWritten(dir, report);
    expect(verified.lines.filter((l) => /hostChecks/.test(l))).toEqual([]);
    expect(verified.code).toBe(0);
  });

  it('verify names a host-check finding edited to hold, which the probes it recorded do not bear out', async () => {
    const checks = report.hostChecks ?? never();
    const index = checks.findings.findIndex((f) => !f.ok);
    const edited = {
      ...report,
      hostChecks: {
        ...checks,
        findings: checks.findings.map((f, i) => (i === index ? { ...f, ok: true } : f)),
      },
    };
    const verified = await verifyWritten(dir, edited);
    expect(verified.code).not.toBe(0);
    expect(verified.lines.join('\n')).toContain(
      `hostChecks.findings[${index}].ok: recorded true, rebuilt false`,
    );
    // The digest was left as the run wrote it, which is what the replay rebuilds.
    expect(verified.lines.join('\n')).not.toContain('digests.hostChecks');
  });

  it('verify names a probe answer edited so the recorded finding no longer follows', async () => {
    const checks = report.hostChecks ?? never();
    const edited = {
      ...report,
      hostChecks: {
        ...checks,
        probes: checks.probes.map((p) =>
          p.outcome === 'answered' && p.probe === 'no-credentials' ? { ...p, status: 401 } : p,
        ),
      },
    };
    const verified = await verifyWritten(dir, edited);
    expect(verified.code).not.toBe(0);
    expect(verified.lines.join('\n')).toMatch(
      /hostChecks\.findings\[\d+\]\.ok: recorded false, rebuilt true/,
    );
  });
});

describe('verify of the inapplicable host checks', () => {
  it('names an inapplicable rule edited away, which the recorded probe still rules out', async () => {
    const checks = report.hostChecks ?? never();
    const edited = { ...report, hostChecks: { ...checks, inapplicable: [] } };
    const verified = await verifyWritten(dir, edited);
    expect(verified.code).not.toBe(0);
    expect(verified.lines.join('\n')).toMatch(
      /hostChecks\.inapplicable\[0\]: recorded nothing, rebuilt \{"rule":"wire\.unadvertised-operation-not-found",/,
    );
  });
});

function never(): never {
  throw new Error('the report has no hostChecks');
}
