// The command line that runs one failing requirement again, alone, with the settings the report
// records: the same host, strict mode, opt-outs, requirement set and generated pack. The base URL
// is the host's; it is shell-quoted here and HTML-escaped where the page prints it.

import { LEGS } from '../../../legs.ts';
import type { EvalGateReport, ReportRow } from '../../report.ts';

/**
 * --only must name a leg, and a generated pack runs beside whatever legs are selected: the pack
 * alone is the pack beside the one leg that drives no host, so nothing else talks to the host.
 */
const SERVER_FREE_LEG = LEGS.find((l) => l.fixtureId === undefined)?.id;

/** A word as a POSIX shell reads it back unchanged. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function reproduceCommand(report: EvalGateReport, row: ReportRow): string {
  const only = row.generated === undefined ? row.id : SERVER_FREE_LEG;
  const words = ['openwop-eval-gate', 'run', ...(only === undefined ? [] : ['--only', only])];
  // The embedded reference host is what a run without --base-url drives.
  if (!report.target.embedded) words.push('--base-url', report.target.baseUrl);
  if (report.strict) words.push('--require-behavior');
  for (const gate of report.optedOut) words.push('--opt-out', gate);
  const set = report.selection?.requirementSet;
  if (set !== undefined) words.push('--requirements', set.version);
  if (row.generated !== undefined) {
    words.push('--generate', String(row.generated.count), '--seed', String(row.generated.seed));
    if (row.generated.case !== undefined) words.push('--case', row.generated.case);
  }
  // A flaky row is seen flaky only across repetitions: driven once, it may well pass.
  const repeat = report.repeat;
  if (
    repeat !== undefined &&
    repeat.rows.some((r) => r.requirement === row.id && r.stability === 'flaky')
  )
    words.push('--repeat', String(repeat.count));
  return words.map(shellWord).join(' ');
}

/** Where a generated case's fixture is written, so it can be read or seeded alone. */
export function generatedFixtureCommand(row: ReportRow): string | undefined {
  const pack = row.generated;
  if (pack === undefined) return undefined;
  return [
    'openwop-eval-gate',
    'fixtures',
    '--out',
    'pack',
    '--generate',
    String(pack.count),
    '--seed',
    String(pack.seed),
  ].join(' ');
}
