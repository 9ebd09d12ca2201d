// GitHub Actions annotations: one `::error` workflow command per failing requirement that fails
// the run, one for a blocked run, and one for a run that could not start, so the check's page
// names the cause without opening the log. Rendered from the run's one verdict; a failure the
// baseline excuses fails nothing and is not annotated.

import { annotationData, annotationProperty } from '../../untrusted-text.ts';
import type { EvalGateReport } from '../report.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { EXIT } from '../verdict/verdict.ts';

const escapeData = annotationData;
const escapeProperty = annotationProperty;

/**
 * `::error title=REQUIREMENT::REASON` for each failing requirement the baseline does not excuse,
 * and for a blocked run (exit 3) one `::error` carrying the verdict's cause.
 */
export function errorAnnotations(report: EvalGateReport, verdict: RunVerdict): readonly string[] {
  const unexcused = new Set(verdict.gate.unexcused.map((f) => f.requirement));
  const failing = report.requirements
    .filter((row) => row.disposition === 'executed-fail' && unexcused.has(row.id))
    .map(
      (row) =>
        `::error title=${escapeProperty(row.id)}::${escapeData(row.reason ?? 'the requirement failed')}`,
    );
  if (verdict.exitCode !== EXIT.blocked) return failing;
  const cause = verdict.causes.join('; ') || 'the suite could not observe the host';
  return [...failing, `::error title=${escapeProperty(BLOCKED_TITLE)}::${escapeData(cause)}`];
}

const BLOCKED_TITLE = 'eval gate BLOCKED (exit 3)';

/**
 * The one `::error` of a command that ends in exit 2, its cause as printed: for `run`, a run that
 * ends without a report; for another command (a `diff` the action runs, say), that command.
 */
export function startFailureAnnotation(cause: string, command = 'run'): string {
  const title =
    command === 'run' ? 'eval gate NOT RUN (exit 2)' : `openwop-eval-gate ${command} (exit 2)`;
  return `::error title=${escapeProperty(title)}::${escapeData(cause)}`;
}

/**
 * The step summary of a run that ends without a report: its result and cause first, as a run's
 * summary is, and that nothing was learned about the host.
 */
export function startFailureSummary(cause: string): string {
  return [
    `Result: NOT RUN (exit 2): ${cause.replace(/\r?\n/g, ' ')}`,
    '',
    'No report was written, so this says nothing about the host under test (exit 2: the suite could not start or could not finish its report).',
    '',
  ].join('\n');
}
