// The SHOULD findings of a row that did not hold: warnings a host engineer should read even when
// every requirement passed (the wire rules are all SHOULD, so a dialect shows up only here).

import type { Finding } from '../types.ts';
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
