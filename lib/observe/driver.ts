// Drives one eval run and records what the host said. It asserts nothing about grading: the
// observation goes to the witness. It only sorts an ending into `observed`, `host-fault` (the
// host answered and was wrong in a way that ends observation) or `unobserved` (the suite or the
// network could not see), per the "whose fact is it?" rule of contract §9.

import type { Bounds } from '../env.ts';
import type { HostClient, HostResponse } from './host-client.ts';
import type {
  DriveResult,
  DriveStage,
  ObservedEvent,
  ObservedPage,
  ObservedReplay,
  ReplayCursor,
  ReplayedEvent,
  RunObservation,
} from '../types.ts';
import { TransportError } from './errors.ts';
import { encodeRunId } from './host-client.ts';
import { jsonTypeOf, WireRecord } from './wire-record.ts';

/**
 * The one waiting schedule: after an empty page answered at once, after a 429/5xx without a
 * usable Retry-After, and while the summary is 409. Starts at 50 ms, doubles, caps at 1 s, and
 * resets when the log makes progress. A Retry-After is honoured up to bounds.retryAfterCapMs but
 * never below the first step, so a host saying `Retry-After: 0` cannot make the suite spin.
 */
export const BACKOFF = { initialMs: 50, factor: 2, maxMs: 1_000 } as const;

/**
 * The whole event log may carry this many times the one-answer body limit. Large suites page
 * far more than one body (100,000 trials log about half a million events), but the suite keeps
 * only `eval.*` payloads, so what a run holds stays well under what it read.
 */
export const LOG_LIMIT_IN_BODIES = 16;

/** Host error text quoted in a reason is cut to this many characters. */
const REASON_LIMIT = 200;

export interface EvalRunRequest {
  readonly evalSuiteRef: string;
  readonly agentId: string;
}

interface Run {
  readonly client: HostClient;
  readonly bounds: Bounds;
  readonly now: () => number;
  readonly deadline: number;
  readonly wire: WireRecord;
}

type Step<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly result: DriveResult };

export async function driveEvalRun(
  client: HostClient,
  request: EvalRunRequest,
  bounds: Bounds,
  now: () => number = Date.now,
  /** Where the wire is recorded; a caller passes one that already holds discovery's header. */
  wire: WireRecord = new WireRecord(),
): Promise<DriveResult> {
  const run: Run = { client, bounds, now, deadline: now() + bounds.runTimeoutMs, wire };

  const created = await ask(
    run,
    'create',
    `POST /runs not accepted within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.post('/runs', { mode: 'eval', ...request }, { timeoutMs }),
  );
  if (!created.ok) return created.result;
  const answer = created.value;
  if (answer.status < 200 || answer.status > 299) {
    return hostFault('create', `POST /runs ${describe(answer)}`);
  }
  const runId = record(answer.json)?.runId;
  if (typeof runId !== 'string' || runId === '') {
    return hostFault('create', `POST /runs answered ${answer.status} without a string runId`);
  }
  const runPath = `/runs/${encodeRunId(runId)}`;

  const eventsPath = `${runPath}/events/poll`;
  const followed = await readLog(run, eventsPath);
  if (!followed.ok) return followed.result;

  // The summary first: its 409 retry waits out the host's finalisation, so the status read after
  // it sees the finished run rather than a status that lags the log by a moment.
  const summary = await ask(
    run,
    'summary',
    `summary not served within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.get(`${runPath}/eval-summary`, { timeoutMs }),
    (code) => code === 409,
  );
  if (!summary.ok) return summary.result;
  if (summary.value.status !== 200 || summary.value.jsonError !== undefined) {
    return hostFault('summary', `GET ${runPath}/eval-summary ${describe(summary.value)}`);
  }

  const status = await ask(
    run,
    'status',
    `run status not served within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.get(runPath, { timeoutMs }),
  );
  if (!status.ok) return status.result;
  const statusBody = record(status.value.json);
  if (status.value.status !== 200 || statusBody === undefined) {
    return hostFault('status', `GET ${runPath} ${describe(status.value)}`);
  }

  // Last, once the run is finished and read: the cursor is driven now whatever the host's speed.
  const replays = await replayLog(run, eventsPath, followed.value.events);
  if (!replays.ok) return replays.result;

  const observation: RunObservation = {
    runId,
    evalSuiteRef: request.evalSuiteRef,
    agentId: request.agentId,
    pages: followed.value.pages,
    events: followed.value.events,
    runStatus: statusBody.status,
    summary: summary.value.json,
    created: answer.json,
    errors: run.wire.errors(),
    versions: run.wire.versions(),
    replays: replays.value,
  };
  return { kind: 'observed', observation };
}

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
 * Follows the long-poll cursor until the log says it is terminal, or until a page shows the log
 * cannot be trusted to progress (a sequence that is not an integer or does not exceed the
 * cursor). In that case following stops and the pages so far go to the witness, which judges them.
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
    const page = record(step.value.json);
    if (step.value.status !== 200 || page === undefined) {
      return { ok: true, value: { pages, events, refusal: `GET ${path} ${describe(step.value)}` } };
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
      const sequence = record(raw)?.sequence;
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
    if (!trusted || page.isTerminal === true) return { ok: true, value: { pages, events } };

    if (page.events.length > 0) {
      emptyWait.reset();
    } else if (how.stopWhenEmpty) {
      return { ok: true, value: { pages, events } };
    } else if (pollMs === 0 || run.now() - sent < pollMs) {
      // Nothing came back before the long-poll timeout could have run out: the host does not
      // hold the request, so the suite paces it instead.
      await sleep(Math.min(emptyWait.take(), remaining(run)));
    }
  }
}

/** The first read of the log, from its start, keeping what the witness and the wire rules read. */
async function readLog(run: Run, path: string): Promise<Step<Log<ObservedEvent>>> {
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

async function replayLog(
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
  const event = record(raw);
  if (event === undefined) return {};
  const out: { sequence?: unknown; eventId?: unknown; type?: unknown } = {};
  for (const key of ['sequence', 'eventId', 'type'] as const) {
    if (Object.hasOwn(event, key)) out[key] = event[key];
  }
  return out;
}

function observeEvent(raw: unknown): ObservedEvent {
  const event = record(raw);
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
  return {
    sequence: event.sequence,
    type: event.type,
    runId: event.runId,
    ...(keep ? { payload: event.payload } : {}),
    envelope: { json: 'object', members: without(event, EVENT_READ), payload },
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

/**
 * Sends until the answer is not retryable or the run deadline passes. 429 and 5xx are always
 * retried (and `alsoRetry` for the summary's 409); a TransportError, a 401 or a 403 ends the drive
 * `unobserved`.
 */
async function ask(
  run: Run,
  stage: DriveStage,
  deadlineReason: string,
  timeoutMs: number,
  send: (timeoutMs: number) => Promise<HostResponse>,
  alsoRetry: (status: number) => boolean = () => false,
): Promise<Step<HostResponse>> {
  const wait = new Backoff();
  let last: number | undefined;
  // Whether the deadline passed between requests or cut one short, the reason names the answer
  // that kept the suite asking, so a persistent refusal is told apart from a slow host.
  const deadlineSaid = (): string =>
    last === undefined ? deadlineReason : `${deadlineReason}; last answer ${last}`;
  for (;;) {
    const left = remaining(run);
    if (left <= 0) return { ok: false, result: unobserved(stage, deadlineSaid()) };
    let answer: HostResponse;
    try {
      answer = await send(Math.min(timeoutMs, left));
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      // A request cut short by the run deadline is the run's bound expiring, not a slow answer.
      const cut = left < timeoutMs && error.code === 'timeout';
      return { ok: false, result: unobserved(stage, cut ? deadlineSaid() : error.message) };
    }
    run.wire.answer(stage, answer);
    const status = answer.status;
    if (status === 401 || status === 403) {
      // The key is the suite's configuration, so a refusal of it is a fact about the suite
      // (contract §9), whatever the stage.
      const reason = `answered ${status}: the host rejected the suite's credentials; check OPENWOP_API_KEY`;
      return { ok: false, result: unobserved(stage, reason) };
    }
    if (status !== 429 && status < 500 && !alsoRetry(status)) return { ok: true, value: answer };
    last = status;
    const hinted = retryAfterMs(answer.headers['retry-after'], run.bounds.retryAfterCapMs);
    const delay = hinted === undefined ? wait.take() : Math.max(hinted, BACKOFF.initialMs);
    await sleep(Math.min(delay, remaining(run)));
  }
}

/** Retry-After as delay-seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(
  value: string | undefined,
  capMs: number,
  wallNow: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - wallNow;
  }
  return Math.min(Math.max(ms, 0), capMs);
}

class Backoff {
  private next: number = BACKOFF.initialMs;
  take(): number {
    const delay = this.next;
    this.next = Math.min(this.next * BACKOFF.factor, BACKOFF.maxMs);
    return delay;
  }
  reset(): void {
    this.next = BACKOFF.initialMs;
  }
}

function remaining(run: Run): number {
  return run.deadline - run.now();
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((done) => setTimeout(done, ms));
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/**
 * `answered 404 not_found: no such suite`, from the v2 error envelope `{error, message}`. A body
 * that is not the envelope is quoted as compact JSON instead, so a dialect or a bare string still
 * says what the host meant.
 */
function describe(answer: HostResponse): string {
  const body = record(answer.json);
  const code = body?.error;
  const message = body?.message;
  let text = `answered ${answer.status}`;
  if (typeof code === 'string' && typeof message === 'string') text += ` ${code}: ${message}`;
  else if (typeof code === 'string') text += ` ${code}`;
  else if (answer.jsonError !== undefined)
    text += ` with a body that is not JSON (${answer.jsonError})`;
  else text += ` with the body ${JSON.stringify(answer.json)}`;
  text = text.replace(/\s+/g, ' ');
  return text.length > REASON_LIMIT ? `${text.slice(0, REASON_LIMIT - 1)}…` : text;
}

function hostFault(stage: DriveStage, reason: string): DriveResult {
  return { kind: 'host-fault', stage, reason };
}

function unobserved(stage: DriveStage, reason: string): DriveResult {
  return { kind: 'unobserved', stage, reason };
}
