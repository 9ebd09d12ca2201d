// A second conformant host, built on the property tests' oracle rather than on the reference host
// or the suite's witness, so the suite can be checked against a host that keeps none of the
// reference host's habits: run ids with slashes, sequences from 1000 in steps of 7, events that
// arrive over time and are paged a few at a time, answers that come late by a random few
// milliseconds, vendor members everywhere the v2 escape hatch allows, its own agent.* events,
// a path prefix on the base URL, tasks reported trial-major rather than task-major, and a
// create refused now and then with 429 and `Retry-After: 0`.
// `mutate` and `mutateEvents` let a test break exactly one clause of what it serves.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EvalSummary, Fixture } from '../../lib/types.ts';
import { grade } from '../property/oracle.ts';
import { Run, decorate, draftLog, random } from './oracle-host-log.ts';
import type { DraftEvent, Envelope, JsonObject } from './oracle-host-log.ts';

export type { DraftEvent } from './oracle-host-log.ts';

export interface OracleHostOptions {
  readonly apiKey: string;
  /** Seeds page sizes, append bursts and answer jitter. */
  readonly seed?: number;
  /** Mean spacing of appends to a run's log. */
  readonly eventGapMs?: number;
  /** Each answer is held back by up to this many milliseconds. */
  readonly jitterMs?: number;
  /** Every this-many-th POST /runs is refused with 429 and `Retry-After: 0`; 0 never. */
  readonly throttleEvery?: number;
  /** The base URL's path; every route, discovery included, lives under it. */
  readonly prefix?: string;
  /** Breaks one clause of the summary; eval.completed is derived from what this returns. */
  readonly mutate?: (summary: EvalSummary, fixtureId: string, fixture: Fixture) => EvalSummary;
  /** Breaks one clause of the log, after vendor members are added and before sequencing. */
  readonly mutateEvents?: (
    events: readonly DraftEvent[],
    fixtureId: string,
    fixture: Fixture,
  ) => readonly DraftEvent[];
}

export interface OracleHost {
  /** `http://127.0.0.1:<port><prefix>` */
  readonly url: string;
  readonly fixtureIds: readonly string[];
  /** Runs created and POST /runs refused with 429 so far. */
  counts(): { readonly runs: number; readonly throttled: number };
  close(): Promise<void>;
}

const FIXTURE_DIR = new URL('../../fixtures/', import.meta.url);
const MAX_POLL_S = 30;
const MAX_BODY = 64 * 1024;

/** Every fixture file the suite ships, by id, read with plain fs and trusted as typed. */
export function loadFixtures(): ReadonlyMap<string, Fixture> {
  const out = new Map<string, Fixture>();
  for (const name of readdirSync(FIXTURE_DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const fixture = JSON.parse(readFileSync(new URL(name, FIXTURE_DIR), 'utf8')) as Fixture;
    out.set(fixture.id, fixture);
  }
  return out;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export async function startOracleHost(options: OracleHostOptions): Promise<OracleHost> {
  const fixtures = loadFixtures();
  const byRef = new Map([...fixtures.values()].map((f) => [refOf(f), f]));
  const prefix = (options.prefix ?? '/acme/v2').replace(/\/+$/, '');
  const seed = options.seed ?? 0x0ac3e7;
  const hostRand = random(seed);
  const gapMs = options.eventGapMs ?? 3;
  const jitterMs = options.jitterMs ?? 4;
  const runs = new Map<string, Run>();
  let closed = false;
  let created = 0;
  let asked = 0;
  const throttleEvery = options.throttleEvery ?? 3;

  const discovery = {
    'x-acme-region': 'eu-west-9',
    implementation: { name: 'acme-oracle-host', version: '7.3.0-rc.2', 'x-acme-build': 'b1f' },
    protocol: { versions: ['2.0'], eventLogSchemaVersion: 2 },
    agents: {
      evalSuite: {
        trials: { passRules: ['mean', 'any', 'all'], maxCount: 100, 'x-acme-parallel': 4 },
        modes: ['rubric', 'golden'],
        trajectory: { matchModes: ['any-order', 'in-order', 'exact'] },
        'x-acme-judges': ['exact-v3'],
      },
      'vendor.acme.routing': { pools: 3 },
    },
    fixtures: [...fixtures.keys()].reverse(),
    'vendor.acme.limits': { runsPerMinute: 600 },
    links: [{ rel: 'status', href: 'https://status.acme.invalid' }],
  };

  function createRun(body: unknown): JsonObject {
    const request = isObject(body) ? body : {};
    const { mode, evalSuiteRef, agentId } = request;
    if (mode !== 'eval' || typeof evalSuiteRef !== 'string' || typeof agentId !== 'string') {
      throw new HttpError(400, 'validation_error', 'mode "eval", evalSuiteRef and agentId needed');
    }
    const fixture = byRef.get(evalSuiteRef);
    if (fixture === undefined) throw new HttpError(404, 'not_found', 'no such eval suite');
    if (fixture.agentId !== agentId) throw new HttpError(404, 'not_found', 'no such agent');
    asked += 1;
    if (throttleEvery > 0 && asked % throttleEvery === 0) {
      throw new HttpError(429, 'rate_limited', 'try again', { 'retry-after': '0' });
    }
    created += 1;
    const runId = `acme/tenant-7/${randomUUID()}`;
    const graded = grade(fixture);
    const summary = options.mutate?.(graded.summary, fixture.id, fixture) ?? graded.summary;
    let drafts: readonly DraftEvent[] = draftLog(fixture, graded, summary);
    if (options.mutateEvents !== undefined)
      drafts = options.mutateEvents(drafts, fixture.id, fixture);
    const run = new Run(runId, evalSuiteRef, decorate(summary), random(seed + created * 7919));
    runs.set(runId, run);
    run.start([...drafts], gapMs, () => closed);
    return { runId, status: run.status, 'x-acme-queue': 'standard' };
  }

  async function poll(run: Run, query: URLSearchParams): Promise<JsonObject> {
    const afterText = query.get('afterSequence');
    const after = afterText === null ? null : Number(afterText);
    if (after !== null && !Number.isInteger(after)) {
      throw new HttpError(400, 'validation_error', 'afterSequence must be an integer');
    }
    const timeoutS = Math.min(Math.max(Number(query.get('timeout') ?? 0) || 0, 0), MAX_POLL_S);
    const deadline = Date.now() + timeoutS * 1000;
    const newer = (): Envelope[] => run.events.filter((e) => after === null || e.sequence > after);
    // The real long-poll: hold until something is appended, the run ends or the timeout runs out.
    while (!closed && newer().length === 0 && !run.done && Date.now() < deadline) {
      await run.waitFor(deadline - Date.now());
    }
    const available = newer();
    const size = 1 + Math.floor(run.rand() * 4);
    const events = available.slice(0, size);
    return {
      'x-acme-page-size': size,
      runId: run.runId,
      status: run.status,
      isTerminal: run.done && events.length === available.length,
      lastSequence: events.at(-1)?.sequence ?? after ?? 0,
      events,
    };
  }

  function findRun(segment: string): Run {
    let runId: string;
    try {
      runId = decodeURIComponent(segment);
    } catch {
      throw new HttpError(400, 'validation_error', 'run id is not percent-encoded');
    }
    const run = runs.get(runId);
    if (run === undefined) throw new HttpError(404, 'not_found', 'no such run');
    return run;
  }

  async function route(req: IncomingMessage, text: string): Promise<[number, unknown]> {
    const raw = req.url ?? '/';
    const cut = raw.indexOf('?');
    const path = cut === -1 ? raw : raw.slice(0, cut);
    const query = new URLSearchParams(cut === -1 ? '' : raw.slice(cut + 1));
    if (!path.startsWith(`${prefix}/`)) throw new HttpError(404, 'not_found', 'no such route');
    const rest = path.slice(prefix.length);
    const method = req.method ?? 'GET';
    if (rest === '/.well-known/openwop' && method === 'GET') return [200, discovery];
    if (!authorized(req.headers.authorization, options.apiKey)) {
      throw new HttpError(401, 'unauthenticated', 'a bearer key is required');
    }
    const parts = rest.split('/');
    if (rest === '/runs' && method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'validation_error', 'the body is not JSON');
      }
      return [201, createRun(body)];
    }
    // ['', 'runs', '<encoded id>', ...tail]: an id sent with raw slashes is a route miss.
    if (parts[1] !== 'runs' || parts[2] === undefined || method !== 'GET') {
      throw new HttpError(404, 'not_found', 'no such route');
    }
    const run = findRun(parts[2]);
    const tail = parts.slice(3).join('/');
    if (tail === '') {
      return [200, { status: run.status, runId: run.runId, evalSuiteRef: run.evalSuiteRef }];
    }
    if (tail === 'events/poll') return [200, await poll(run, query)];
    if (tail === 'eval-summary') {
      if (!run.done) throw new HttpError(409, 'run_not_terminal', 'the run is still going');
      return [200, run.summary];
    }
    throw new HttpError(404, 'not_found', 'no such route');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      void answer(req, res, size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8'));
    });
  });

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    text: string | null,
  ): Promise<void> {
    let status: number;
    let body: unknown;
    let headers: Readonly<Record<string, string>> = {};
    try {
      if (text === null) throw new HttpError(413, 'payload_too_large', 'the body is too large');
      [status, body] = await route(req, text);
    } catch (error) {
      const known = error instanceof HttpError ? error : undefined;
      status = known?.status ?? 500;
      headers = known?.headers ?? {};
      body = { error: { code: known?.code ?? 'internal', message: known?.message ?? 'failed' } };
    }
    await new Promise((resume) => setTimeout(resume, hostRand() * jitterMs));
    const out = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(out),
      'x-acme-request-id': randomUUID(),
      ...headers,
    });
    res.end(out);
  }

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    fixtureIds: [...fixtures.keys()],
    counts: () => ({ runs: created, throttled: asked - created }),
    close: () =>
      new Promise<void>((done) => {
        closed = true;
        for (const run of runs.values()) {
          clearTimeout(run.timer);
          run.wake();
        }
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const refOf = (fixture: Fixture): string => `${fixture.suite.suiteId}@${fixture.suite.version}`;

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function authorized(header: string | undefined, apiKey: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${apiKey}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
