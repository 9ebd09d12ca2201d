// A loopback host for the mean-gated leg whose every endpoint serves a correct run, in the
// published v2 shapes, by default and can be switched, one at a time, to misbehave. The correct answers are written out literally from
// fixtures/conformance-eval-trajectory-gate-mean.json and contract §8 (both trials score 1 and
// fail on the forbidden tool; gatedScore 0; suite passed false): this is a test double, not a
// grader, so a control run against it passing is what makes every hostile failure mean something.

import type { ServerResponse } from 'node:http';
import { expect } from 'vitest';
import type { Bounds } from '../../lib/env.ts';
import type { LegOutcome } from '../../lib/types.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { readDiscovery } from '../../lib/observe/discovery.ts';
import { legById } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import type { RecordedRequest } from './scripted-server.ts';
import { V2_HEADERS, sendErrorEnvelope, sendV2, startScriptedServer } from './scripted-server.ts';
import { meanGatedSummary } from './contract-summaries.ts';
import { paced } from './machine-pace.ts';

export const MEAN_LEG = legById('openwop.requirement.0246.mean-gated');
const SUITE_ID = 'conformance.evals.trajectory-gate-mean';
const TASK_ID = 'forbidden-in-every-trial';

/**
 * Small, because the blocked cases run into these deadlines and the suite must stay fast; not
 * smaller, because a correct answer must still arrive in time on a machine running several
 * CPU-bound processes beside the tests (300 ms did not). The deadlines are stretched by the pace
 * this process runs at (tests/support/machine-pace.ts), so a busy machine gets the same verdicts.
 */
export const HOSTILE_BOUNDS: Bounds = {
  requestTimeoutMs: paced(1_000),
  runTimeoutMs: paced(3_000),
  pollTimeoutS: 1,
  maxBodyBytes: 64 * 1024,
  retryAfterCapMs: 400,
};

/** What a loaded machine may add to a deadline before the timer that enforces it runs. */
const SCHEDULING_SLACK_MS = paced(1_500);

/**
 * The longest a leg may take once discovery is in hand: the run deadline, plus one request
 * deadline for an abort to land and one for the status or summary asked at the edge, plus
 * scheduling slack for tests that share the event loop.
 */
export const LEG_BOUND_MS =
  HOSTILE_BOUNDS.runTimeoutMs + 2 * HOSTILE_BOUNDS.requestTimeoutMs + SCHEDULING_SLACK_MS;
/** Discovery is one request: its deadline plus the same slack. */
export const DISCOVERY_BOUND_MS = HOSTILE_BOUNDS.requestTimeoutMs + SCHEDULING_SLACK_MS;

/** How the request deadline reads in a blocked reason. */
export const REQUEST_TIMED_OUT = new RegExp(
  `timed out after ${HOSTILE_BOUNDS.requestTimeoutMs} ms`,
);
/** How the run deadline reads in a blocked reason. */
export const RUN_NOT_TERMINAL = new RegExp(
  `run not terminal within ${HOSTILE_BOUNDS.runTimeoutMs} ms`,
);

/** The run id a correct create answers with: tenant-bound, with a 16+ character opaque part. */
export const HOSTILE_RUN_ID = 'hostile-tenant/run-00000000000001';

/** A v2 discovery root: protocol versions, the agents record and its evalSuite facet. */
export function correctDiscovery(): Record<string, unknown> {
  return {
    protocolVersions: ['2.0'],
    preferredVersion: '2.0',
    implementation: { name: 'hostile-host', version: '0.0.1' },
    agents: {
      status: 'stable',
      since: '2.0',
      witness: 'witnessable-gated',
      evalSuite: {
        modes: ['golden'],
        trajectory: { matchModes: ['exact', 'in-order', 'any-order'] },
        trials: { maxCount: 10, passRules: ['all', 'any', 'mean'] },
      },
    },
    fixtures: [MEAN_LEG.fixtureId],
  };
}

/** A v2 event id: 16 or more characters of the id alphabet. */
export const eventIdOf = (sequence: number): string =>
  `hostile-event-${String(sequence).padStart(4, '0')}`;

/** The eval.* log of a correct run, then run.completed; agent.* events are optional and left out. */
export function correctEvents(runId: unknown): Record<string, unknown>[] {
  const scored = (trial: number): Record<string, unknown> => ({
    taskId: TASK_ID,
    score: 1,
    passed: false,
    trial,
    trajectoryMatched: false,
    failedClosed: false,
  });
  const payloads: [string, Record<string, unknown>][] = [
    [
      'eval.started',
      {
        suiteId: SUITE_ID,
        suiteVersion: '1.0.0',
        taskCount: 1,
        modes: ['golden'],
        trials: { count: 2, passRule: 'mean' },
      },
    ],
    ['eval.scored', scored(1)],
    ['eval.scored', scored(2)],
    ['eval.completed', { aggregateScore: 1, passed: false, taskCount: 1, passedCount: 0 }],
    ['run.completed', { outputs: {} }],
  ];
  return payloads.map(([type, payload], sequence) => ({
    eventId: eventIdOf(sequence),
    runId,
    type,
    payload,
    timestamp: '2026-10-16T12:00:00.000Z',
    sequence,
    schemaVersion: 1,
  }));
}

export function correctSummary(): Record<string, unknown> {
  return meanGatedSummary();
}

/** One poll page carrying `events` as given, for logs the default paging cannot serve. */
export function logPage(events: readonly unknown[], isTerminal: unknown): Record<string, unknown> {
  const last = events.length === 0 ? -1 : sequenceOf(events[events.length - 1]);
  return { runId: HOSTILE_RUN_ID, events, lastSequence: last, status: 'completed', isTerminal };
}

export type Route = 'discovery' | 'create' | 'status' | 'poll' | 'summary' | 'other';

export interface Exchange {
  readonly request: RecordedRequest;
  readonly response: ServerResponse;
  /** 1-based count of requests to this route, this one included. */
  readonly call: number;
  /** The poll's afterSequence, null when absent or unreadable. */
  readonly afterSequence: number | null;
  /** Answers what a correct host would. */
  correct(): void;
}

/** May answer, answer badly, or never answer; a rejected promise destroys the connection. */
export type Override = (exchange: Exchange) => unknown;

export interface HostileOptions {
  /** What `POST /runs` returns as runId; default HOSTILE_RUN_ID. */
  readonly runId?: unknown;
  /** The log the default poll pages through; default the correct log. */
  readonly events?: readonly unknown[];
  /** Events per default poll page; default 2, so a run takes three pages. */
  readonly pageSize?: number;
  readonly routes?: Partial<Record<Route, Override>>;
}

export interface HostileHost {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  calls(route: Route): number;
  close(): Promise<void>;
}

export async function startHostileHost(options: HostileOptions = {}): Promise<HostileHost> {
  const runId = options.runId ?? HOSTILE_RUN_ID;
  const events = options.events ?? correctEvents(runId);
  const pageSize = options.pageSize ?? 2;
  const counts = new Map<Route, number>();

  const answer = (route: Route, request: RecordedRequest, response: ServerResponse): void => {
    switch (route) {
      case 'discovery':
        return sendV2(response, 200, correctDiscovery());
      case 'create': {
        const runPath = `/runs/${encodeURIComponent(String(runId))}`;
        const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
        return sendV2(response, 201, {
          runId,
          status: 'running',
          eventsUrl: `${origin}${runPath}/events`,
        });
      }
      case 'status':
        return sendV2(response, 200, { runId, status: 'completed' });
      case 'summary':
        return sendV2(response, 200, correctSummary());
      case 'poll': {
        const after = readAfter(request);
        const rest = events.filter((e) => after === null || sequenceOf(e) > after);
        const page = rest.slice(0, pageSize);
        // The finished log's highest sequence, on every page (upstream events.md §Poll).
        const last = events.length > 0 ? sequenceOf(events[events.length - 1]) : -1;
        const isTerminal = page.length === rest.length;
        const status = isTerminal ? 'completed' : 'running';
        return sendV2(response, 200, {
          runId,
          events: page,
          lastSequence: last,
          status,
          isTerminal,
        });
      }
      case 'other':
        return sendErrorEnvelope(response, 404, 'not_found', 'no such route');
    }
  };

  const server = await startScriptedServer((request, response) => {
    const route = routeOf(request, runId);
    const call = (counts.get(route) ?? 0) + 1;
    counts.set(route, call);
    const override = options.routes?.[route];
    if (override === undefined) return answer(route, request, response);
    return override({
      request,
      response,
      call,
      afterSequence: readAfter(request),
      correct: () => answer(route, request, response),
    });
  });
  return {
    url: server.url,
    requests: server.requests,
    calls: (r) => counts.get(r) ?? 0,
    close: server.close,
  };
}

/** A run route matches only when its one path segment decodes to exactly the run id. */
function routeOf(request: RecordedRequest, runId: unknown): Route {
  if (request.path === '/.well-known/openwop') return 'discovery';
  if (request.path === '/runs') return request.method === 'POST' ? 'create' : 'other';
  const match = /^\/runs\/([^/]+)(\/events\/poll|\/eval-summary)?$/.exec(request.path);
  if (match === null || request.method !== 'GET' || decoded(match[1] ?? '') !== runId) {
    return 'other';
  }
  if (match[2] === '/events/poll') return 'poll';
  return match[2] === '/eval-summary' ? 'summary' : 'status';
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function readAfter(request: RecordedRequest): number | null {
  const raw = request.query.get('afterSequence');
  return raw === null || !/^\d+$/.test(raw) ? null : Number(raw);
}

function sequenceOf(event: unknown): number {
  const sequence = (event as { sequence?: unknown } | null)?.sequence;
  return typeof sequence === 'number' ? sequence : Number.NaN;
}

/** Answers with a body written exactly as given, so it may be broken JSON or hold `1e400`. */
export function sendRaw(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...V2_HEADERS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Declares a whole body, sends half of it, then drops the connection. */
export function resetMidBody(response: ServerResponse, text: string): void {
  response.writeHead(200, {
    ...V2_HEADERS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.write(text.slice(0, Math.floor(text.length / 2)), () => response.destroy());
}

/**
 * Writes `chunk` every `intervalMs` (0: as fast as the socket drains, respecting backpressure)
 * until `totalBytes` are out or the client goes away. With no length declared the client cannot
 * know where the body ends, so only its deadline or its body limit can stop it. Returns a reader
 * of the bytes handed to the socket so far.
 */
export function streamBody(
  response: ServerResponse,
  chunk: Buffer,
  intervalMs: number,
  totalBytes: number = Number.POSITIVE_INFINITY,
): () => number {
  response.writeHead(200, { ...V2_HEADERS, 'content-type': 'application/json' });
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  response.on('close', () => clearTimeout(timer));
  const pump = (): void => {
    if (response.destroyed) return;
    if (sent >= totalBytes) {
      response.end();
      return;
    }
    sent += chunk.length;
    const flushed = response.write(chunk);
    if (intervalMs > 0) timer = setTimeout(pump, intervalMs);
    else if (flushed) setImmediate(pump);
    else response.once('drain', pump);
  };
  pump();
  return () => sent;
}

/**
 * One correct run, so the schemas are compiled and the modules loaded before any timed test:
 * that first compile holds the event loop long enough to make a short deadline fire late.
 */
export async function warmUp(): Promise<void> {
  const host = await startHostileHost();
  try {
    await runMeanLeg(host.url);
  } finally {
    await host.close();
  }
}

export interface LegRun {
  readonly outcome: LegOutcome;
  /** Time spent in runLeg, after discovery was read. */
  readonly legMs: number;
  readonly discoveryMs: number;
}

/** Reads discovery afresh and runs the mean-gated leg against `baseUrl` with the given bounds. */
export async function runMeanLeg(
  baseUrl: string,
  options: {
    readonly apiKey?: string;
    readonly bounds?: Bounds;
    /** The leg's clock, read for its run deadline; Date.now unless a test drives it. */
    readonly now?: () => number;
  } = {},
): Promise<LegRun> {
  const bounds = options.bounds ?? HOSTILE_BOUNDS;
  const client = createHostClient({
    baseUrl,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    requestTimeoutMs: bounds.requestTimeoutMs,
    maxBodyBytes: bounds.maxBodyBytes,
  });
  try {
    const discoveryStarted = Date.now();
    // A port freed by an earlier test may be reused; the memo is keyed by URL, so forget it first.
    const discovery = await readDiscovery(client);
    const discoveryMs = Date.now() - discoveryStarted;
    const legStarted = Date.now();
    const config = { requireBehavior: false, optedOut: [], bounds };
    const outcome = await runLeg(
      MEAN_LEG,
      { client, discovery, config },
      options.now === undefined ? {} : { now: options.now },
    );
    return { outcome, legMs: Date.now() - legStarted, discoveryMs };
  } finally {
    await client.close();
  }
}

/** Starts a hostile host, runs the mean-gated leg against it, and closes it; `host` still counts calls. */
export async function runOnHostileHost(
  options: HostileOptions = {},
  leg: Parameters<typeof runMeanLeg>[1] = {},
): Promise<{ readonly run: LegRun; readonly host: HostileHost }> {
  const host = await startHostileHost(options);
  try {
    return { run: await runMeanLeg(host.url, leg), host };
  } finally {
    await host.close();
  }
}

/**
 * The verdict every hostile case must reach: never a pass, exactly the expected disposition, a
 * reason that names what went wrong, and both deadlines kept.
 */
export function expectOutcome(
  run: LegRun,
  disposition: 'executed-fail' | 'blocked',
  ...words: readonly (string | RegExp)[]
): void {
  const { outcome } = run;
  expect(outcome.disposition).not.toBe('executed-pass');
  expect(outcome.disposition, outcome.reason).toBe(disposition);
  for (const word of words) expect(outcome.reason ?? '').toMatch(word);
  expect(run.discoveryMs).toBeLessThanOrEqual(DISCOVERY_BOUND_MS);
  expect(run.legMs).toBeLessThanOrEqual(LEG_BOUND_MS);
}
