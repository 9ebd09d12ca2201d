// The Markdown lines for a run's CI options: a warning that the run is not a clean certification
// (partial, baselined), the severity gate, and the baseline's entries with what each came to.

import { faultName } from './baseline.ts';
import type { EvalGateReport } from './report.ts';
import { certificationOf } from './run-record.ts';

type CiFacts = Pick<EvalGateReport, 'failOn' | 'selection' | 'baseline'>;

/** A quoted warning when the run is partial or baselined; the embedded host has its own. */
export function certificationWarning(report: CiFacts): string[] {
  const limits = certificationOf(report.selection, report.baseline, false).because;
  if (limits.length === 0) return [];
  return [`> **Not a clean certification.** ${limits.join('; ')}.`, ''];
}

export function gateBullets(report: CiFacts): string[] {
  const lines = [
    `- fails on: ${report.failOn === 'should' ? 'MUST failures and SHOULD warnings (--fail-on should)' : 'MUST failures'}`,
  ];
  const s = report.selection;
  if (s !== undefined) {
    lines.push(
      `- selection: ${s.selected.length} requirement${s.selected.length === 1 ? '' : 's'} (only: ${s.only.join(', ') || 'all'}; skip: ${s.skip.join(', ') || 'none'}); the others are skipped as not selected`,
    );
  }
  return lines;
}

export function baselineSection(report: CiFacts): string[] {
  const b = report.baseline;
  if (b === undefined) return [];
  return [
    '',
    `## Baseline: ${b.file}`,
    '',
    `sha256 \`${b.sha256}\`; ${b.excused.length} failing rule${b.excused.length === 1 ? '' : 's'} excused. A stale entry fails the run until it is removed.`,
    '',
    '| expected failure | status | reason |',
    '| --- | --- | --- |',
    ...b.entries.map((e) => `| ${faultName(e)} | ${e.status} | ${cell(e.reason)} |`),
  ];
}

/** Text made safe for one Markdown table cell: backslashes and pipes escaped, lines joined. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}
