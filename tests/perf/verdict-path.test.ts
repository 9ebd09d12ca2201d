// Guards on the verdict path of lib/observe/driver.ts, against the bench's timed host: a host that holds
// polls gets the verdict within a round trip of its last append; a host that answers at once
// gets the bounded backoff, never a busy loop. Bounds are generous: they separate "one round
// trip" from "a fixed sleep", and "a schedule" from "a spin", on a loaded machine.

import { describe, expect, it } from 'vitest';
import { startTimedHost } from '../../bench/timed-host.ts';
import type { Bounds } from '../../lib/env.ts';
import { DEFAULT_BOUNDS } from '../../lib/env.ts';
import { BACKOFF, driveEvalRun } from '../../lib/observe/driver.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { paced } from '../support/machine-pace.ts';

const REQUEST = { evalSuiteRef: 'bench.evals.timed@1.0.0', agentId: 'bench.agent' };
const BOUNDS: Bounds = { ...DEFAULT_BOUNDS, runTimeoutMs: 10_000 };
/**
 * Several loopback round trips, far below the 250 ms a fixed poller sleeps on an idle machine;
 * stretched by the pace this process runs at, so a busy machine does not turn a round trip late.
 */
const ONE_ROUND_TRIP_MS = paced(150);

async function driveTimed(honourTimeout: boolean, runMs: number) {
  const host = await startTimedHost({ honourTimeout, runMs: () => runMs });
  const client = createHostClient({
    baseUrl: host.url,
    requestTimeoutMs: BOUNDS.requestTimeoutMs,
    maxBodyBytes: BOUNDS.maxBodyBytes,
  });
  try {
    const result = await driveEvalRun(client, REQUEST, BOUNDS);
    const doneAt = performance.now();
    if (result.kind !== 'observed') throw new Error(`${result.kind}: ${result.reason}`);
    const finishedAt = host.finishedAt(result.observation.runId);
    if (finishedAt === undefined) throw new Error('the driver returned before the run finished');
    // The replays re-read the finished log after the verdict's reads; each is one page here.
    const replayPolls = (result.observation.replays ?? []).reduce((n, r) => n + r.pages.length, 0);
    expect(replayPolls).toBe(3);
    return {
      latencyMs: doneAt - finishedAt,
      polls: host.requestCount('/events/poll') - replayPolls,
    };
  } finally {
    await client.close();
    await host.close();
  }
}

/** Polls the BACKOFF schedule allows while a run of `runMs` stays silent, plus the two pages. */
function scheduledPolls(runMs: number): number {
  let waited = 0;
  let step: number = BACKOFF.initialMs;
  let polls = 2; // the first page (eval.started) and the terminal page
  while (waited < runMs) {
    // At least 1 ms a step, so a schedule edited to 0 ends this loop and fails the bound.
    waited += Math.max(step, 1);
    step = Math.min(step * BACKOFF.factor, BACKOFF.maxMs);
    polls += 1;
  }
  return polls;
}

describe('verdict latency', () => {
  it('a long-polling host gets the verdict within one round trip of its last append', async () => {
    const { latencyMs, polls } = await driveTimed(true, 300);
    // The held poll's answer, the summary, the status and the three one-page replays.
    expect(latencyMs).toBeLessThan(ONE_ROUND_TRIP_MS);
    // The silent stretch is one held poll, not a series of short ones (replays not counted).
    expect(polls).toBeLessThanOrEqual(3);
  });

  it('a host that ignores the timeout is paced by the backoff schedule, not polled in a loop', async () => {
    const runMs = 1_000;
    const { latencyMs, polls } = await driveTimed(false, runMs);
    expect(polls).toBeLessThanOrEqual(scheduledPolls(runMs));
    expect(latencyMs).toBeLessThan(BACKOFF.maxMs + ONE_ROUND_TRIP_MS);
  });

  it('the backoff starts at 50 ms, doubles and caps at 1 s, so a silent minute costs ~65 polls', () => {
    expect(BACKOFF).toEqual({ initialMs: 50, factor: 2, maxMs: 1_000 });
    expect(scheduledPolls(60_000)).toBeLessThan(70);
  });
});
