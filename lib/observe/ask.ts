// Asking the host within one run's bounds: retries, the waiting schedule, the run deadline, and
// the sorting of an ending into `host-fault` or `unobserved` (contract §9). Shared by the driver
// and the log reader; it judges nothing about grading.

import type { Bounds } from '../env.ts';
import type { HostClient, HostResponse } from './host-client.ts';
import type { DriveResult, DriveStage } from '../types.ts';
import { TransportError } from './errors.ts';
import type { WireRecord } from './wire-record.ts';
import type { DriveWatch } from './drive-watch.ts';

/**
 * The one waiting schedule: after an empty page answered at once, after a 429/5xx without a
 * usable Retry-After, and while the summary is 409. Starts at 50 ms, doubles, caps at 1 s, and
 * resets when the log makes progress. A Retry-After is honoured up to bounds.retryAfterCapMs but
 * never below the first step, so a host saying `Retry-After: 0` cannot make the suite spin.
 */
export const BACKOFF = { initialMs: 50, factor: 2, maxMs: 1_000 } as const;

/** Host error text quoted in a reason is cut to this many characters. */
const REASON_LIMIT = 200;

/**
 * The time a drive reads its deadline on and the waits it takes between requests: the process's
 * (SYSTEM_CLOCK) unless a test drives time, so a host that never answers ends by the clock.
 */
export interface DriveClock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** One drive: its host and bounds, the clock it reads its deadline on and waits on, its record. */
export interface Run extends DriveClock {
  readonly client: HostClient;
  readonly bounds: Bounds;
  readonly deadline: number;
  readonly wire: WireRecord;
  /** Told what the drive has seen and waits for; it decides nothing. */
  readonly watch?: DriveWatch;
}

export type Step<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly result: DriveResult };

/**
 * Sends until the answer is not retryable or the run deadline passes. 429 and 5xx are always
 * retried (and `alsoRetry` for the summary's 409); a TransportError, a 401 or a 403 ends the drive
 * `unobserved`.
 */
export async function ask(
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
    await run.sleep(Math.min(delay, remaining(run)));
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

export class Backoff {
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

export function remaining(run: Run): number {
  return run.deadline - run.now();
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((done) => setTimeout(done, ms));
}

export const SYSTEM_CLOCK: DriveClock = { now: Date.now, sleep };

export function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/**
 * `answered 404 not_found: no such suite`, from the v2 error envelope `{error, message}`. A body
 * that is not the envelope is quoted as compact JSON instead, so a dialect or a bare string still
 * says what the host meant.
 */
export function describeAnswer(answer: HostResponse): string {
  const body = asRecord(answer.json);
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

export function hostFault(stage: DriveStage, reason: string): DriveResult {
  return { kind: 'host-fault', stage, reason };
}

export function unobserved(stage: DriveStage, reason: string): DriveResult {
  return { kind: 'unobserved', stage, reason };
}
