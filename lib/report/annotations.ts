// GitHub Actions annotations: one `::error` workflow command per failing requirement that fails
// the run, so the check's page names each one without opening the log. Rendered from the run's
// one verdict; a failure the baseline excuses fails nothing and is not annotated.

import type { EvalGateReport } from './report.ts';
import type { RunVerdict } from './run-verdict.ts';

/** A workflow command's message: `%`, CR and LF would end or garble the command. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value, where `:` and `,` also delimit. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error title=REQUIREMENT::REASON` for each failing requirement the baseline does not excuse. */
export function errorAnnotations(report: EvalGateReport, verdict: RunVerdict): readonly string[] {
  const unexcused = new Set(verdict.gate.unexcused.map((f) => f.requirement));
  return report.requirements
    .filter((row) => row.disposition === 'executed-fail' && unexcused.has(row.id))
    .map(
      (row) =>
        `::error title=${escapeProperty(row.id)}::${escapeData(row.reason ?? 'the requirement failed')}`,
    );
}
