// A run that ends without a report (exit 2) leaves a trace in the CI's own view, as a finished run
// does: under GitHub Actions one `::error` with the cause, and the step summary says why there is
// no verdict. The cause arrives with the API key already scrubbed.

import { appendFile } from 'node:fs/promises';
import {
  startFailureAnnotation,
  startFailureOutputs,
  startFailureSummary,
} from '../lib/report/render/annotations.ts';

export interface StartFailureChannels {
  /** Standard output, where the runner reads workflow commands. */
  readonly log: (line: string) => void;
  /** GITHUB_ACTIONS=true: print the `::error`. */
  readonly annotate: boolean;
  /** The command word (`run`, `diff`, …), which titles the annotation. */
  readonly command: string;
  /** GITHUB_STEP_SUMMARY, for `run` only: other commands write no step summary. */
  readonly stepSummaryPath: string | undefined;
  /** GITHUB_OUTPUT, for `run` only: `result`, `certified` and `verdict`, as a finished run sets. */
  readonly stepOutputPath?: string | undefined;
}

export async function announceStartFailure(
  cause: string,
  { log, annotate, command, stepSummaryPath, stepOutputPath }: StartFailureChannels,
): Promise<void> {
  if (annotate) log(startFailureAnnotation(cause, command));
  // The cause is the line already printed; a file that cannot be written adds nothing to it.
  if (stepOutputPath !== undefined) {
    const lines = startFailureOutputs(cause).join('\n');
    await appendFile(stepOutputPath, `${lines}\n`).catch(() => undefined);
  }
  if (stepSummaryPath === undefined) return;
  await appendFile(stepSummaryPath, `${startFailureSummary(cause)}\n`).catch(() => undefined);
}
