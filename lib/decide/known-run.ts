// The run id the host checks look an unknown run up beside: kept apart from host-checks.ts so the
// CLI can ask for it without loading the witness, which it loads only once the legs are running.

import { record } from '../observe/ask.ts';
import type { LegOutcome } from '../types.ts';
import type { HeadStart } from './leg-target.ts';

/**
 * A run id the host minted this run: from a leg's observation first, else from a head start's
 * 2xx answer. Undefined when the host returned none (every leg gated, every create refused).
 */
export function knownRunId(
  outcomes: readonly LegOutcome[],
  headStarts: readonly HeadStart[],
): string | undefined {
  for (const outcome of outcomes) {
    const id = outcome.observation?.runId;
    if (typeof id === 'string' && id !== '') return id;
  }
  for (const start of headStarts) {
    if (start.answer.kind !== 'response') continue;
    const { status, json } = start.answer.response;
    const id = status >= 200 && status <= 299 ? runIdOf(json) : undefined;
    if (id !== undefined) return id;
  }
  return undefined;
}

function runIdOf(json: unknown): string | undefined {
  const id = record(json)?.runId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
