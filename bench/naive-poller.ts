// The comparison baseline for verdict latency: the common way to follow a run. It sends the same
// requests as lib/observe/driver.ts (create, poll the log, read status, read the summary) but never asks
// the host to hold a poll, and sleeps a fixed interval between polls instead.

import type { HostClient } from '../lib/observe/host-client.ts';
import { encodeRunId } from '../lib/observe/host-client.ts';
import { sleep } from './stats.ts';

export const NAIVE_INTERVAL_MS = 250;

export interface NaiveResult {
  readonly runId: string;
  readonly summary: unknown;
}

export async function naivePoll(
  client: HostClient,
  request: { readonly evalSuiteRef: string; readonly agentId: string },
  deadlineMs = 30_000,
  intervalMs = NAIVE_INTERVAL_MS,
): Promise<NaiveResult> {
  const deadline = performance.now() + deadlineMs;
  const expire = (what: string): never => {
    throw new Error(`naive poller: ${what} not reached within ${deadlineMs} ms`);
  };
  const created = await client.post('/runs', { mode: 'eval', ...request });
  const runId = (created.json as { runId?: unknown } | undefined)?.runId;
  if (created.status !== 201 || typeof runId !== 'string') {
    throw new Error(`naive poller: POST /runs answered ${created.status}`);
  }
  const runPath = `/runs/${encodeRunId(runId)}`;

  let cursor: number | undefined;
  for (;;) {
    const query = cursor === undefined ? undefined : { afterSequence: cursor };
    const page = await client.get(`${runPath}/events/poll`, query === undefined ? {} : { query });
    const body = page.json as { lastSequence?: unknown; isTerminal?: unknown } | undefined;
    // lastSequence is -1 on an empty log, and afterSequence is never negative: stay at the start.
    if (typeof body?.lastSequence === 'number' && body.lastSequence >= 0)
      cursor = body.lastSequence;
    if (body?.isTerminal === true) break;
    if (performance.now() > deadline) expire('a terminal log');
    await sleep(intervalMs);
  }

  await client.get(runPath);
  for (;;) {
    const summary = await client.get(`${runPath}/eval-summary`);
    if (summary.status === 200) return { runId, summary: summary.json };
    if (performance.now() > deadline) expire('a served summary');
    await sleep(intervalMs);
  }
}
