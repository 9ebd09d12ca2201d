// The SHOULD findings of a row that did not hold: warnings a host engineer should read even when
// every requirement passed (the wire rules are all SHOULD, so a dialect shows up only here).

import type { Finding, HostChecks } from '../types.ts';
import type { ReportRow } from './report.ts';

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
 * The console line of the host checks: `host checks: 6 held, 1 SHOULD warning
 * (wire.unauthenticated-refused), 1 unexercised, 1 inapplicable`. Warnings change the exit status
 * only under `--fail-on should` (lib/report/ci-verdict.ts).
 */
export function hostCheckSummary(hostChecks: HostChecks): string {
  const held = hostChecks.findings.filter((f) => f.ok).length;
  const failed = hostChecks.findings.filter((f) => !f.ok);
  const rules = [...new Set(failed.map((f) => f.rule))].join(', ');
  const parts = [
    `${held} held`,
    failed.length === 0
      ? '0 SHOULD warnings'
      : `${failed.length} SHOULD warning${failed.length === 1 ? '' : 's'} (${rules})`,
    `${hostChecks.unexercised.length} unexercised`,
    `${hostChecks.inapplicable.length} inapplicable`,
  ];
  return `host checks: ${parts.join(', ')}`;
}
