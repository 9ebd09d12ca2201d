// A generated case's reproduce command as a reader pastes it: the report's own target and the
// flags that shaped the case (strict mode, opt-outs, requirement set, the pack), never the bare
// `--case` line the pack's decision records, which run as printed would drive the embedded host.
// The recorded reason and `smallest[].command` stay as the run decided them (verify rebuilds
// them); the console, Markdown and HTML print them through this module.

import type { EvalGateReport, ReportRow } from '../report.ts';
import { reproduceCommand } from './html/reproduce.ts';

/** The command that drives one case of the row's pack alone, against the report's target. */
export function caseReproduceCommand(
  report: EvalGateReport,
  row: ReportRow,
  fixtureId: string,
): string {
  const pack = row.generated;
  if (pack === undefined) return reproduceCommand(report, row);
  return reproduceCommand(report, { ...row, generated: { ...pack, case: fixtureId } });
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The row's reason with each recorded case command replaced by the full one. */
export function reproducibleReason(report: EvalGateReport, row: ReportRow): string | undefined {
  const pack = row.generated;
  if (row.reason === undefined || pack === undefined || !('smallest' in pack)) return row.reason;
  let text = row.reason;
  for (const s of new Map(pack.smallest.map((c) => [c.command, c])).values()) {
    // Not inside a longer id: n0001 is no prefix of n00012.
    const recorded = new RegExp(`${escaped(s.command)}(?![\\w-])`, 'g');
    text = text.replace(recorded, () => caseReproduceCommand(report, row, s.fixtureId));
  }
  return text;
}
