// A drive waits on the clock it is handed, not on the process's timers: every wait between two
// requests (the summary's 409 retry, the pace of a log whose pages come back empty at once) is
// taken through the clock's `sleep` and the run deadline is read on its `now`, so a test that
// drives the clock ends a drive that waits forever in the time its requests take, whatever the
// machine's speed.

import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../lib/env.ts';
import { BACKOFF, type DriveClock } from '../../lib/observe/driver.ts';
import { driveRouted, type Route, type Routes } from '../support/routed-drive.ts';
import { sendJson } from '../support/scripted-server.ts';

const DEADLINE_MS = 5_000;
const BOUNDS: Bounds = {
  requestTimeoutMs: 30_000,
  runTimeoutMs: DEADLINE_MS,
  pollTimeoutS: 0,
  maxBodyBytes: 64 * 1024,
  retryAfterCapMs: 200,
};
const REQUEST = { evalSuiteRef: 'conformance.evals.gate@1.0.0', agentId: 'core.conformance.agent' };
const RUN = '/runs/acme%2Frun-1';

/** A clock that moves only when the drive waits on it, recording every wait. */
function drivenClock(): DriveClock & { readonly waits: number[] } {
  let at = 0;
  const waits: number[] = [];
  return {
    now: () => at,
    sleep: (ms) => {
      waits.push(ms);
      at += Math.max(0, ms);
      return Promise.resolve();
    },
    waits,
  };
}

/** The waits the backoff schedule takes until they add up to the deadline, the last one cut. */
function scheduleTo(deadline: number): number[] {
  const waits: number[] = [];
  let next: number = BACKOFF.initialMs;
  for (let spent = 0; spent < deadline; next = Math.min(next * BACKOFF.factor, BACKOFF.maxMs)) {
    const wait = Math.min(next, deadline - spent);
    waits.push(wait);
    spent += wait;
  }
  return waits;
}

const created: Route = (_q, res) => sendJson(res, 201, { runId: 'acme/run-1', status: 'running' });

function page(res: ServerResponse, isTerminal: boolean): void {
  const events = isTerminal
    ? [
        {
          eventId: 'e1',
          runId: 'acme/run-1',
          type: 'eval.completed',
          sequence: 1,
          timestamp: 't',
          payload: {},
        },
      ]
    : [];
  sendJson(res, 200, { runId: 'acme/run-1', events, lastSequence: events.length, isTerminal });
}

/**
 * Drives the routes on a clock that moves only when the drive waits, and holds the drive to ending
 * `unobserved` at `stage` by the deadline, having waited the backoff schedule between as many
 * requests to `path` as it took waits.
 */
async function endsByTheClock(
  routes: Routes,
  stage: string,
  reason: string,
  path: string,
  bounds: Bounds = BOUNDS,
) {
  const clock = drivenClock();
  const d = await driveRouted(routes, REQUEST, bounds, 'sk-clock', clock);
  expect(d.result).toEqual({ kind: 'unobserved', stage, reason });
  expect(clock.waits).toEqual(scheduleTo(DEADLINE_MS));
  expect(d.requests.filter((r) => r.path === path)).toHaveLength(clock.waits.length);
}

describe("a drive's waits are its clock's", () => {
  it('a summary refused 409 forever is retried on the backoff schedule until the deadline, every wait on the clock', async () => {
    await endsByTheClock(
      {
        'POST /runs': created,
        [`GET ${RUN}/events/poll`]: (_q, res) => page(res, true),
        [`GET ${RUN}/eval-summary`]: (_q, res) =>
          sendJson(res, 409, { error: 'run_state_conflict', message: 'wait' }),
      },
      'summary',
      `summary not served within ${DEADLINE_MS} ms; last answer 409`,
      `${RUN}/eval-summary`,
    );
  });

  it.each([
    { held: 'not asked to hold its polls', pollTimeoutS: 0 },
    { held: 'asked to hold its polls for a second', pollTimeoutS: 1 },
  ])(
    'a log $held whose pages come back empty at once is paced on the clock until the deadline',
    async ({ pollTimeoutS }) => {
      await endsByTheClock(
        { 'POST /runs': created, [`GET ${RUN}/events/poll`]: (_q, res) => page(res, false) },
        'events',
        `run not terminal within ${DEADLINE_MS} ms`,
        `${RUN}/events/poll`,
        { ...BOUNDS, pollTimeoutS },
      );
    },
  );
});
