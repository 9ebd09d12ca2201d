// Which rows of the Markdown summary a reader sees first: the ones that need something done
// (failed, blocked, inapplicable, or failing the run through a warning) in that order, and the
// rows that passed or were not selected folded away, so a failing leg's detail is near the top
// of a summary of fourteen legs instead of after ten passing ones.

import type { Disposition } from '../../types.ts';
import type { ReportRow } from '../report.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { cell } from './markdown-ci.ts';
import { legGaps } from '../verdict/unexercised.ts';

export interface FocusedRows {
  /** Rows a reader must look at, the most serious first, each kind in leg order. */
  readonly attention: readonly ReportRow[];
  /** Passed rows and rows the run did not select: listed, collapsed. */
  readonly settled: readonly ReportRow[];
}

const RANK: Readonly<Record<Disposition, number>> = {
  'executed-fail': 0,
  blocked: 1,
  inapplicable: 2,
  'executed-pass': 3,
  skipped: 4,
};

export function focusRows(rows: readonly ReportRow[], verdict: RunVerdict): FocusedRows {
  const failingTheRun = new Set(verdict.gate.unexcused.map((f) => f.requirement));
  const needsAttention = (r: ReportRow): boolean =>
    RANK[r.disposition] < RANK['executed-pass'] || failingTheRun.has(r.id);
  const byRank = (a: ReportRow, b: ReportRow): number => RANK[a.disposition] - RANK[b.disposition];
  return {
    attention: rows.filter(needsAttention).sort(byRank),
    settled: rows.filter((r) => !needsAttention(r)),
  };
}

/** The requirements table for `rows`, nothing when there are none. */
export function requirementTable(rows: readonly ReportRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '| requirement | disposition | assertions | unexercised | reason |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.disposition} | ${r.assertions} | ${r.unexercised === undefined ? '—' : legGaps(r).length} | ${cell(r.reason ?? '')} |`,
    ),
  ];
}

/** `13 passed`, `12 passed, 1 skipped`: what a collapsed section holds. */
export function settledTitle(rows: readonly ReportRow[]): string {
  const passed = rows.filter((r) => r.disposition === 'executed-pass').length;
  const skipped = rows.length - passed;
  const parts = [
    ...(passed === 0 ? [] : [`${passed} passed`]),
    ...(skipped === 0 ? [] : [`${skipped} skipped`]),
  ];
  return `${parts.join(', ')} (table and legs)`;
}
