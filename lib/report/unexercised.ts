// The rules a run left unexercised, summed over the report's rows: the count the console prints
// before its closing line and the Markdown summary prints under its own. The rows list each rule
// with why (lib/witness/exercised.ts); a leg that drove no run lists none.

import type { ReportRow } from './report.ts';

/** How many unexercised rules the rows list, and on how many legs. */
export function unexercisedTally(rows: readonly Pick<ReportRow, 'unexercised'>[]): {
  readonly rules: number;
  readonly legs: number;
} {
  const listed = rows.map((r) => r.unexercised?.length ?? 0);
  return { rules: listed.reduce((a, b) => a + b, 0), legs: listed.filter((n) => n > 0).length };
}

/** `3 rules unexercised on 2 legs`, or `every applicable rule was exercised`. */
export function unexercisedLine(rows: readonly Pick<ReportRow, 'unexercised'>[]): string {
  const { rules, legs } = unexercisedTally(rows);
  if (rules === 0) return 'every applicable rule was exercised';
  return `${rules} rule${rules === 1 ? '' : 's'} unexercised on ${legs} leg${legs === 1 ? '' : 's'}`;
}
