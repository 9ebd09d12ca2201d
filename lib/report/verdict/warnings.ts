// The SHOULD findings of a row that did not hold: warnings a host engineer should read even when
// every requirement passed (the wire rules are all SHOULD, so a dialect shows up only here).

import type { Finding, HostChecks } from '../../types.ts';
import type { ReportRow } from '../report.ts';

/** Failed SHOULD findings of `row`, each rule and message once, in the order they were judged. */
export function warningsOf(row: ReportRow): readonly Finding[] {
  const seen = new Set<string>();
  return row.findings.filter((f) => {
    if (f.ok || f.severity !== 'SHOULD') return false;
    const key = `${f.rule}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `1 SHOULD warning: wire.error-body`, or undefined when the row has none. */
export function warningSummary(row: ReportRow): string | undefined {
  const warnings = warningsOf(row);
  if (warnings.length === 0) return undefined;
  const rules = [...new Set(warnings.map((w) => w.rule))].join(', ');
  return `${warnings.length} SHOULD warning${warnings.length === 1 ? '' : 's'}: ${rules}`;
}

/**
 * A failed MUST host check: the only ones are the credential probes' `auth.no-bypass`, so each is
 * an authentication bypass, and it fails the run whatever `--fail-on` says about warnings.
 */
export function isBypass(finding: Pick<Finding, 'ok' | 'severity'>): boolean {
  return !finding.ok && finding.severity === 'MUST';
}

/** `1 authentication bypass (auth.no-bypass, MUST)`, or undefined when there is none. */
export function bypassSummary(findings: readonly Finding[]): string | undefined {
  const bypasses = findings.filter(isBypass);
  if (bypasses.length === 0) return undefined;
  const rules = [...new Set(bypasses.map((f) => f.rule))].join(', ');
  return `${bypasses.length} authentication bypass${bypasses.length === 1 ? '' : 'es'} (${rules}, MUST)`;
}

/**
 * The console line of the host checks: `host checks: 6 held, 1 SHOULD warning
 * (wire.unauthenticated-refused), 1 unexercised, 1 inapplicable`. Warnings change the exit status
 * only under `--fail-on should` (lib/report/verdict/ci-verdict.ts); an authentication bypass, named first
 * when there is one, always fails the run.
 */
export function hostCheckSummary(hostChecks: HostChecks): string {
  const held = hostChecks.findings.filter((f) => f.ok).length;
  const failed = hostChecks.findings.filter((f) => !f.ok && !isBypass(f));
  const rules = [...new Set(failed.map((f) => f.rule))].join(', ');
  const bypass = bypassSummary(hostChecks.findings);
  const parts = [
    `${held} held`,
    ...(bypass === undefined ? [] : [bypass]),
    failed.length === 0
      ? '0 SHOULD warnings'
      : `${failed.length} SHOULD warning${failed.length === 1 ? '' : 's'} (${rules})`,
    `${hostChecks.unexercised.length} unexercised`,
    `${hostChecks.inapplicable.length} inapplicable`,
  ];
  return `host checks: ${parts.join(', ')}`;
}
