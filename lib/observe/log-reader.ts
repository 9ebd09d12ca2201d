// Reading a run's event log through the long-poll cursor: the first read from the start, and the
// replays of the finished log from cursors the first read gave (contract §6). Records what came
// back; the witness judges it.

import type {
  ObservedEvent,
  ObservedPage,
  ObservedReplay,
  ReplayCursor,
  ReplayedEvent,
} from '../types.ts';
import {
  ask,
  Backoff,
  describeAnswer,
  hostFault,
  asRecord,
  remaining,
  unobserved,
  type Run,
  type Step,
} from './ask.ts';
import { jsonTypeOf } from './wire-record.ts';

/**
 * The whole event log may carry this many times the one-answer body limit. Large suites page
 * far more than one body (100,000 trials log about half a million events), but the suite keeps
 * only `eval.*` payloads, so what a run holds stays well under what it read.
 */
export const LOG_LIMIT_IN_BODIES = 16;

interface Log<T> {
  readonly pages: readonly ObservedPage[];
  readonly events: readonly T[];
  /** How the host mis-answered a poll, ending the read: a host fault, not a lost answer. */
  readonly refusal?: string;
}

/** How one read of the log goes: where it starts, what it keeps, and when it stops. */
interface Reading<T> {
  /** The cursor of the first request; null asks from the start of the log. */
  readonly from: number | null;
  readonly keep: (raw: unknown) => T;
  /** Whether each page's other members are kept for the wire rules (the first read only). */
  readonly pageMembers: boolean;
  /**
   * A replay reads a log the host already called finished, so an empty page that is not terminal
   * ends it: nothing more can arrive, and waiting would turn the host's fault into a timeout.
   */
  readonly stopWhenEmpty: boolean;
  readonly deadlineReason: string;
}

/**
 * Follows the long-poll cursor until the log is complete: a page says the run is terminal and no
 * event up to its `lastSequence` is still to come. Upstream's `isTerminal` says only that the run
 * is terminal (openwop/openwop spec/v2/core/events.md, Poll), so a host paging a finished log may
 * mark every page terminal; the reader reads on while such a page brings events and its
 * `lastSequence` lies beyond them. It also stops when a page shows the log cannot be trusted to
 * progress (a sequence that is not an integer or does not exceed the cursor). Either way the
 * pages so far go to the witness, which judges them.
 */
async function follow<T>(run: Run, path: string, how: Reading<T>): Promise<Step<Log<T>>> {
  const pages: ObservedPage[] = [];
  const events: T[] = [];
  const pollMs = run.bounds.pollTimeoutS * 1000;
  const emptyWait = new Backoff();
  let cursor = how.from;
  // Every page fits the body limit, yet a host can page new events forever; the whole log is
  // held to a multiple of it so the memory one read takes is bounded, not only its time.
  const logLimit = LOG_LIMIT_IN_BODIES * run.bounds.maxBodyBytes;
  let logBytes = 0;

  for (;;) {
    const query = {
      ...(cursor === null ? {} : { afterSequence: cursor }),
      timeout: run.bounds.pollTimeoutS,
    };
    const sent = run.now();
    const step = await ask(
      run,
      'events',
      how.deadlineReason,
      pollMs + run.bounds.requestTimeoutMs,
      (timeoutMs) => run.client.get(path, { query, timeoutMs }),
    );
    if (!step.ok) return step;
    logBytes += Buffer.byteLength(step.value.text);
    if (logBytes > logLimit) {
      const reason = `the event log exceeds the ${logLimit}-byte limit over ${pages.length + 1} pages`;
      return { ok: false, result: unobserved('events', reason) };
    }
    const page = asRecord(step.value.json);
    if (step.value.status !== 200 || page === undefined) {
      return {
        ok: true,
        value: { pages, events, refusal: `GET ${path} ${describeAnswer(step.value)}` },
      };
    }
    if (!Array.isArray(page.events)) {
      const refusal = `GET ${path} answered 200 without an events array`;
      return { ok: true, value: { pages, events, refusal } };
    }

    pages.push({
      afterSequence: cursor,
      lastSequence: page.lastSequence,
      isTerminal: page.isTerminal,
      eventCount: page.events.length,
      ...(how.pageMembers ? { members: without(page, PAGE_READ) } : {}),
    });
    let trusted = true;
    for (const raw of page.events as readonly unknown[]) {
      events.push(how.keep(raw));
      const sequence = asRecord(raw)?.sequence;
      if (!trusted) continue;
      if (
        typeof sequence !== 'number' ||
        !Number.isInteger(sequence) ||
        (cursor !== null && sequence <= cursor)
      ) {
        trusted = false;
      } else {
        cursor = sequence;
      }
    }
    if (how.pageMembers) run.watch?.events?.(events.length);
    if (!trusted) return { ok: true, value: { pages, events } };
    if (page.isTerminal === true && !moreToCome(page.events.length, page.lastSequence, cursor)) {
      return { ok: true, value: { pages, events } };
    }

    if (page.events.length > 0) {
      emptyWait.reset();
    } else if (how.stopWhenEmpty) {
      return { ok: true, value: { pages, events } };
    } else if (pollMs === 0 || run.now() - sent < pollMs) {
      // Nothing came back before the long-poll timeout could have run out: the host does not
      // hold the request, so the suite paces it instead.
      await run.sleep(Math.min(emptyWait.take(), remaining(run)));
    }
  }
}

/**
 * Whether a terminal page leaves events to read: it brought some, and its `lastSequence` (the
 * log's highest) lies beyond the last one. An empty terminal page ends the read whatever it says,
 * so a `lastSequence` the host never delivers is judged (`events.last-sequence`), not waited for.
 */
function moreToCome(delivered: number, last: unknown, cursor: number | null): boolean {
  return (
    delivered > 0 &&
    typeof last === 'number' &&
    Number.isSafeInteger(last) &&
    cursor !== null &&
    last > cursor
  );
}

/** The first read of the log, from its start, keeping what the witness and the wire rules read. */
export async function readLog(run: Run, path: string): Promise<Step<Log<ObservedEvent>>> {
  const read = await follow(run, path, {
    from: null,
    keep: observeEvent,
    pageMembers: true,
    stopWhenEmpty: false,
    deadlineReason: `run not terminal within ${run.bounds.runTimeoutMs} ms`,
  });
  if (read.ok && read.value.refusal !== undefined) {
    return { ok: false, result: hostFault('events', read.value.refusal) };
  }
  return read;
}

/**
 * Re-reads the finished log from a sequence in its middle, from its last sequence and from past
 * its end, so that every host is sent the cursor however fast it ran (contract §6). The cursors
 * are sequences the host itself sent: the ascending prefix of the first read, which is as far as
 * the first read can be trusted.
 */
export function replayCursors(
  events: readonly ObservedEvent[],
): { readonly cursor: ReplayCursor; readonly afterSequence: number }[] {
  const sent: number[] = [];
  for (const event of events) {
    const sequence = event.sequence;
    const previous = sent.at(-1);
    if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) break;
    if (previous !== undefined && sequence <= previous) break;
    sent.push(sequence);
  }
  const last = sent.at(-1);
  if (last === undefined) return [];
  const middle = sent.length >= 2 ? sent[Math.floor((sent.length - 1) / 2)] : undefined;
  return [
    ...(middle === undefined ? [] : [{ cursor: 'mid-log' as const, afterSequence: middle }]),
    { cursor: 'last-sequence', afterSequence: last },
    ...(Number.isSafeInteger(last + 1)
      ? [{ cursor: 'past-end' as const, afterSequence: last + 1 }]
      : []),
  ];
}

export async function replayLog(
  run: Run,
  path: string,
  first: readonly ObservedEvent[],
): Promise<Step<ObservedReplay[]>> {
  const replays: ObservedReplay[] = [];
  for (const { cursor, afterSequence } of replayCursors(first)) {
    const read = await follow(run, path, {
      from: afterSequence,
      keep: identify,
      pageMembers: false,
      stopWhenEmpty: true,
      deadlineReason: `the replay of the log after ${afterSequence} not answered within ${run.bounds.runTimeoutMs} ms`,
    });
    if (!read.ok) return read;
    const { pages, events, refusal } = read.value;
    replays.push({
      cursor,
      afterSequence,
      pages,
      events,
      ...(refusal === undefined ? {} : { refusal }),
    });
  }
  return { ok: true, value: replays };
}

/** An event as a replay keeps it: the members that say which event it is. */
function identify(raw: unknown): ReplayedEvent {
  const event = asRecord(raw);
  if (event === undefined) return {};
  const out: { sequence?: unknown; eventId?: unknown; type?: unknown } = {};
  for (const key of ['sequence', 'eventId', 'type'] as const) {
    if (Object.hasOwn(event, key)) out[key] = event[key];
  }
  return out;
}

function observeEvent(raw: unknown): ObservedEvent {
  const event = asRecord(raw);
  if (event === undefined) {
    return {
      sequence: undefined,
      type: undefined,
      runId: undefined,
      envelope: { json: jsonTypeOf(raw) },
    };
  }
  const keep = typeof event.type === 'string' && event.type.startsWith('eval.');
  const payload = Object.hasOwn(event, 'payload') ? jsonTypeOf(event.payload) : 'absent';
  const body = asRecord(event.payload);
  const outputs =
    event.type !== 'run.completed'
      ? {}
      : {
          outputs:
            body !== undefined && Object.hasOwn(body, 'outputs')
              ? jsonTypeOf(body.outputs)
              : ('absent' as const),
        };
  return {
    sequence: event.sequence,
    type: event.type,
    runId: event.runId,
    ...(keep ? { payload: event.payload } : {}),
    envelope: { json: 'object', members: without(event, EVENT_READ), payload, ...outputs },
  };
}

/** Members a page and an event carry elsewhere in the observation, so the wire record skips them. */
const PAGE_READ: ReadonlySet<string> = new Set(['events', 'lastSequence', 'isTerminal']);
const EVENT_READ: ReadonlySet<string> = new Set(['sequence', 'type', 'runId', 'payload']);

function without(
  value: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // defineProperty, so a member named __proto__ stays a member rather than a prototype.
    if (!skip.has(key)) {
      Object.defineProperty(out, key, {
        value: value[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}
