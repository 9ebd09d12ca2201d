// GitHub Actions annotations: one `::error` workflow command per failing requirement that fails
// the run, one for a blocked run, and one for a run that could not start, so the check's page
// names the cause without opening the log. Rendered from the run's one verdict; a failure the
// baseline excuses fails nothing and is not annotated.

import { annotationData, annotationProperty } from '../../untrusted-text.ts';
import type { EvalGateReport } from '../report.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { EXIT } from '../verdict/verdict.ts';
import { clip, shortId } from '../verdict/lead.ts';

const escapeData = annotationData;
const escapeProperty = annotationProperty;

/** How many requirement ids an annotation for a shared cause names before `and N more`. */
const NAMED_IDS = 5;

/**
 * One `::error` per cause among the failing requirements the baseline does not excuse:
 * `title=REQUIREMENT::REASON` for a cause one requirement has, and for a cause several share (a
 * strict run against a host that advertises no eval suite fails 19 alike) one
 * `N requirements: REASON (ids)`, since GitHub shows only the first ten annotations of a step.
 * A blocked run (exit 3) adds one `::error` carrying the verdict's cause.
 */
export function errorAnnotations(report: EvalGateReport, verdict: RunVerdict): readonly string[] {
  const unexcused = new Set(verdict.gate.unexcused.map((f) => f.requirement));
  const byCause = new Map<string, string[]>();
  for (const row of report.requirements) {
    if (row.disposition !== 'executed-fail' || !unexcused.has(row.id)) continue;
    const reason = row.reason ?? 'the requirement failed';
    byCause.set(reason, [...(byCause.get(reason) ?? []), row.id]);
  }
  const failing = [...byCause].map(([reason, ids]) => causeAnnotation(reason, ids));
  if (verdict.exitCode !== EXIT.blocked) return failing;
  const cause = verdict.causes.join('; ') || 'the suite could not observe the host';
  return [...failing, `::error title=${escapeProperty(BLOCKED_TITLE)}::${escapeData(cause)}`];
}

const BLOCKED_TITLE = 'eval gate BLOCKED (exit 3)';

function causeAnnotation(reason: string, ids: readonly string[]): string {
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) {
    return `::error title=${escapeProperty(only)}::${escapeData(reason)}`;
  }
  const named = ids.slice(0, NAMED_IDS).map(shortId).join(', ');
  const more = ids.length > NAMED_IDS ? `, and ${ids.length - NAMED_IDS} more` : '';
  const title = `eval gate FAIL: ${ids.length} requirements`;
  return `::error title=${escapeProperty(title)}::${escapeData(`${ids.length} requirements: ${reason} (${named}${more})`)}`;
}

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
 * The first line of a run that ends without a report, at most LEAD_LIMIT characters as a run's
 * is: the step summary's first line and the action's `verdict` output.
 */
export function startFailureHeadline(cause: string): string {
  return clip(`Result: NOT RUN (exit 2): ${oneLine(cause)}`);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * The step summary of a run that ends without a report: its result and cause first, as a run's
 * summary is (the cause in full below when the first line had to cut it), and that nothing was
 * learned about the host.
 */
export function startFailureSummary(cause: string): string {
  const head = startFailureHeadline(cause);
  const whole = `Result: NOT RUN (exit 2): ${oneLine(cause)}`;
  return [
    head,
    '',
    ...(head === whole ? [] : [`Cause: ${oneLine(cause)}`, '']),
    'No report was written, so this says nothing about the host under test (exit 2: the suite could not start or could not finish its report).',
    '',
  ].join('\n');
}

/**
 * The step outputs of a run that ends without a report, `name=value` lines for $GITHUB_OUTPUT
 * as a finished run's are: the result `NOT RUN`, never certified, and the first line.
 */
export function startFailureOutputs(cause: string): readonly string[] {
  return ['result=NOT RUN', 'certified=false', `verdict=${startFailureHeadline(cause)}`];
}
