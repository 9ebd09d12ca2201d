// Test-side client for the reference host: plain fetch, no suite code, so these tests check the
// host against the contract text and not against the suite's reading of it.

import { readFileSync } from 'node:fs';
import { LEGS } from '../../lib/legs.ts';

/**
 * The fixtures the legs drive. The list is data the suite owns (lib/legs.ts), not its reading of
 * the contract, so taking it from there keeps one place per fact without judging the host by the
 * suite's code.
 */
export const FIXTURE_IDS: readonly string[] = LEGS.flatMap((leg) => leg.fixtureId ?? []);
export type FixtureId = string;

export interface RunRequest {
  readonly mode: 'eval';
  readonly evalSuiteRef: string;
  readonly agentId: string;
}

export type Body = { readonly [k: string]: unknown };

export interface WireEvent {
  readonly eventId: string;
  readonly runId: string;
  readonly type: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly schemaVersion?: number;
  readonly payload: Body;
}

export interface Page {
  readonly runId: string;
  readonly events: readonly WireEvent[];
  readonly lastSequence: number;
  readonly status: string;
  readonly isTerminal: boolean;
}

export function runRequest(id: FixtureId): RunRequest {
  const url = new URL(`../../fixtures/${id}.json`, import.meta.url);
  const doc = JSON.parse(readFileSync(url, 'utf8')) as {
    agentId: string;
    suite: { suiteId: string; version: string };
  };
  return {
    mode: 'eval',
    evalSuiteRef: `${doc.suite.suiteId}@${doc.suite.version}`,
    agentId: doc.agentId,
  };
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly headers: Headers;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { apiKey?: string; body?: string; signal?: AbortSignal; version?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // null sends no OpenWOP-Version header at all.
  if (opts.version !== null) headers['openwop-version'] = opts.version ?? '2.0';
  if (opts.apiKey !== undefined) headers['authorization'] = `Bearer ${opts.apiKey}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    signal: opts.signal ?? AbortSignal.timeout(5000),
    ...(opts.body === undefined ? {} : { body: opts.body }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}

export function runPath(runId: string, rest = ''): string {
  return `/runs/${encodeURIComponent(runId)}${rest}`;
}

/** Everything one eval run showed, with per-run noise (ids, timestamps) kept apart. */
export interface Drive {
  readonly createStatus: number;
  readonly createBody: unknown;
  readonly runId: string | undefined;
  readonly pages: readonly Page[];
  readonly events: readonly WireEvent[];
  readonly terminal: boolean;
  readonly runStatus: unknown;
  readonly summaryStatus: number;
  readonly summary: unknown;
  /** Every summary answer before the last: the 409s the host gave while it finalised. */
  readonly summaryRefusals: readonly unknown[];
  /** The OpenWOP-Version header of every answer in order, `absent` where there was none. */
  readonly versions: readonly string[];
}

/**
 * Creates a run and follows the long-poll cursor until the end, until `hung` says the host will
 * serve nothing more (its `onHang` watch fired), or until `deadlineMs`.
 */
export async function drive(
  base: string,
  id: FixtureId,
  opts: { apiKey?: string; deadlineMs?: number; hung?: () => boolean } = {},
): Promise<Drive> {
  const hung = opts.hung ?? (() => false);
  const key = opts.apiKey === undefined ? {} : { apiKey: opts.apiKey };
  const versions: string[] = [];
  const ask = async (method: string, path: string, body?: string): Promise<Answer> => {
    const answer = await call(base, method, path, body === undefined ? key : { ...key, body });
    versions.push(answer.headers.get('openwop-version') ?? 'absent');
    return answer;
  };
  const created = await ask('POST', '/runs', JSON.stringify(runRequest(id)));
  const runId = (created.body as { runId?: string } | undefined)?.runId;
  const empty = {
    runStatus: undefined,
    summaryStatus: 0,
    summary: undefined,
    summaryRefusals: [],
  };
  if (created.status !== 201 || runId === undefined) {
    return {
      createStatus: created.status,
      createBody: created.body,
      runId,
      pages: [],
      events: [],
      terminal: false,
      ...empty,
      versions,
    };
  }
  const deadline = Date.now() + (opts.deadlineMs ?? 3000);
  const pages: Page[] = [];
  let after: number | undefined;
  let terminal = false;
  while (!terminal && !hung() && Date.now() < deadline) {
    const wait = Math.min(1, Math.max(0, (deadline - Date.now()) / 1000)).toFixed(3);
    const query =
      after === undefined ? `?timeout=${wait}` : `?afterSequence=${after}&timeout=${wait}`;
    const page = (await ask('GET', runPath(runId, `/events/poll${query}`))).body as Page;
    pages.push(page);
    // The next cursor is the last event received: lastSequence is the log's highest, which a
    // page that holds only part of the log has not delivered yet.
    after = page.events.at(-1)?.sequence ?? after;
    // isTerminal says the run is terminal (events.md, Poll): a terminal page that brought events
    // and names a higher lastSequence is followed, as the suite's log reader follows it.
    const more = page.events.length > 0 && page.lastSequence > (after ?? -1);
    terminal = page.isTerminal && !more;
  }
  const run = await ask('GET', runPath(runId));
  // A 409 means "not yet" (the host finalises the summary on its first read): ask again.
  const summaries: Answer[] = [];
  // A drive that stopped on a hang in the log asks for the summary once, as one its deadline
  // stopped does; a hang in the summary itself is asked once more, as a client that waits would,
  // so the drive holds a refusal and the answer after it. Either way, however fast it ran.
  const stoppedInLog = hung();
  for (;;) {
    const answer = await ask('GET', runPath(runId, '/eval-summary'));
    summaries.push(answer);
    const hangsHere = hung() && summaries.length > 1;
    if (answer.status !== 409 || stoppedInLog || hangsHere || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const summary = summaries.at(-1) as Answer;
  return {
    createStatus: created.status,
    createBody: created.body,
    runId,
    pages,
    events: pages.flatMap((p) => p.events),
    terminal,
    runStatus: (run.body as { status?: unknown } | undefined)?.status,
    summaryStatus: summary.status,
    summary: summary.body,
    summaryRefusals: summaries.slice(0, -1).map((a) => a.body),
    versions,
  };
}

export function evalPayloads(events: readonly WireEvent[]): Body[] {
  return events.filter((e) => e.type.startsWith('eval.')).map((e) => e.payload);
}
