// The log reader (lib/observe/log-reader.ts) on its own, with no server and no real time: a
// client that answers each poll from a list the test writes, and a clock that moves only when the
// reader waits on it or a poll is held. Each poll's query is recorded, so a test reads exactly
// how far the reader went and from which cursor.

import type { Bounds } from '../../lib/env.ts';
import type { Run } from '../../lib/observe/ask.ts';
import type { DriveWatch } from '../../lib/observe/drive-watch.ts';
import type { HostClient, HostResponse, RequestOptions } from '../../lib/observe/host-client.ts';
import { WireRecord } from '../../lib/observe/wire-record.ts';

export const LOG_PATH = '/runs/r/events/poll';

export const LOG_BOUNDS: Bounds = {
  requestTimeoutMs: 1_000,
  runTimeoutMs: 60_000,
  pollTimeoutS: 0,
  maxBodyBytes: 64 * 1024,
  retryAfterCapMs: 200,
};

/** One scripted answer: a page body, or a status with a body; `heldMs` is how long it took. */
export interface Answer {
  readonly status?: number;
  readonly body: unknown;
  readonly heldMs?: number;
}

export interface ScriptedLog {
  readonly run: Run;
  /** Each poll's `afterSequence`, or null for a poll from the start. */
  readonly cursors: (number | null)[];
  /** Every wait the reader took between polls. */
  readonly waits: number[];
}

/** An event of a log, with the members every event carries. */
export const event = (sequence: unknown, type = 'eval.scored'): Record<string, unknown> => ({
  eventId: `e${String(sequence)}`,
  runId: 'r',
  type,
  sequence,
  timestamp: 't',
  payload: {},
});

/** A page of the long-poll cursor. */
export const page = (
  events: readonly unknown[],
  isTerminal: boolean,
  lastSequence: unknown,
): Record<string, unknown> => ({ runId: 'r', events, lastSequence, isTerminal });

/**
 * A run whose polls are answered from `answers` in order; once they run out, every poll is
 * answered `rest` (by default an empty terminal page, which ends any read). The clock starts far
 * from 0, so a sum of times cannot pass for their difference.
 */
export function scriptedLog(
  answers: readonly Answer[],
  {
    bounds = LOG_BOUNDS,
    rest = { body: page([], true, 0) },
    watch,
  }: { bounds?: Bounds; rest?: Answer; watch?: DriveWatch } = {},
): ScriptedLog {
  let at = 1_000_000;
  const cursors: (number | null)[] = [];
  const waits: number[] = [];
  const get = (_path: string, options?: RequestOptions): Promise<HostResponse> => {
    const after = options?.query?.afterSequence;
    cursors.push(after === undefined ? null : Number(after));
    const answer = answers[cursors.length - 1] ?? rest;
    at += answer.heldMs ?? 0;
    const text = JSON.stringify(answer.body);
    return Promise.resolve({ status: answer.status ?? 200, headers: {}, text, json: answer.body });
  };
  const client: HostClient = {
    baseUrl: 'http://scripted.invalid',
    get,
    post: () => Promise.reject(new Error('the log reader posts nothing')),
    close: () => Promise.resolve(),
  };
  const run: Run = {
    client,
    bounds,
    now: () => at,
    sleep: (ms) => {
      waits.push(ms);
      at += Math.max(0, ms);
      return Promise.resolve();
    },
    deadline: at + bounds.runTimeoutMs,
    wire: new WireRecord(),
    ...(watch === undefined ? {} : { watch }),
  };
  return { run, cursors, waits };
}
