// A second conformant host, built on the property tests' oracle rather than on the reference host
// or the suite's witness, so the suite can be checked against a host that keeps none of the
// reference host's habits. It speaks published OpenWOP v2 (contract §5–§7) in its
// own way: sequences from 0 in steps of 7, UUID event ids, a v1 minor listed before 2.0, events
// that arrive over time and are paged a few at a time, answers late by a random few
// milliseconds, a vendor event type, a path prefix on the base URL, the `~2F` projection in the
// URLs it hands out, tasks reported trial-major rather than task-major, and a create refused now
// and then with 429 and `Retry-After: 0`. `modes` add the choices upstream leaves optional
// (oracle-host-modes.ts). `mutate` and `mutateEvents` let a test break exactly one clause.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EvalSummary, Fixture } from '../../lib/types.ts';
import { grade } from '../property/oracle.ts';
import { Run, draftLog, random } from './oracle-host-log.ts';
import type { DraftEvent, Envelope, JsonObject } from './oracle-host-log.ts';
import { discoveryOf, hatchKeys, presentSummary } from './oracle-host-modes.ts';
import { EventStream, WIRE_VERSION, decodeSegment, projectId } from './oracle-host-wire.ts';
import type { OracleMode } from './oracle-host-modes.ts';

export type { DraftEvent } from './oracle-host-log.ts';
export { ORACLE_MODES } from './oracle-host-modes.ts';
export type { OracleMode } from './oracle-host-modes.ts';

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
  /** Upstream-optional choices to make (none by default). */
  readonly modes?: readonly OracleMode[];
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
  /** The tenant every run id is minted under. */
  readonly tenant: string;
  /** Runs created and POST /runs refused with 429 so far. */
  counts(): { readonly runs: number; readonly throttled: number };
  /** The most events any one poll saw appended while it was held. */
  mostAppendsWhileHeld(): number;
  close(): Promise<void>;
}

const FIXTURE_DIR = new URL('../../fixtures/', import.meta.url);
const MAX_POLL_S = 60;
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

/** A refusal as the v2 error envelope: a registered code at its registered status. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: JsonObject,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export async function startOracleHost(options: OracleHostOptions): Promise<OracleHost> {
  const fixtures = loadFixtures();
  const byRef = new Map([...fixtures.values()].map((f) => [refOf(f), f]));
  const prefix = (options.prefix ?? '/acme/v2').replace(/\/+$/, '');
  const modes: ReadonlySet<OracleMode> = new Set(options.modes ?? []);
  const tenant = tenantOf(modes);
  const seed = options.seed ?? 0x0ac3e7;
  const hostRand = random(seed);
  const gapMs = options.eventGapMs ?? 3;
  const jitterMs = options.jitterMs ?? 4;
  const runs = new Map<string, Run>();
  let appendsWhileHeld = 0;
  let closed = false;
  let created = 0;
  let asked = 0;
  const throttleEvery = options.throttleEvery ?? 3;
  const discovery = discoveryOf(modes, [...fixtures.keys()]);
  const versions = discovery.protocolVersions as readonly string[];

  function createRun(body: unknown, origin: string): JsonObject {
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
      throw new HttpError(429, 'rate_limited', 'try again', undefined, { 'retry-after': '0' });
    }
    created += 1;
    const runId = `${tenant}/${randomUUID()}`;
    const { summary, drafts } = servedRun(fixture, options);
    const run = new Run(runId, evalSuiteRef, summary, random(seed + created * 7919), modes);
    runs.set(runId, run);
    run.start([...drafts], gapMs, () => closed);
    const runUrl = `${origin}${prefix}/runs/${projectId(runId)}`;
    return {
      runId,
      status: run.status,
      eventsUrl: `${runUrl}/events`,
      ...(modes.has('optional-members') ? { statusUrl: runUrl } : {}),
      // The 201 answer is not closed upstream, so a member of the host's own is allowed here.
      ...hatchKeys(modes, 'create'),
    };
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
    // Held: the whole window, unless the run ends. Otherwise until the next append.
    const held = modes.has('held-poll');
    const before = run.events.length;
    while (!closed && (held || newer().length === 0) && !run.done && Date.now() < deadline) {
      await run.waitFor(deadline - Date.now());
    }
    appendsWhileHeld = Math.max(appendsWhileHeld, run.events.length - before);
    const available = newer();
    const size = modes.has('one-event-pages') ? 1 : 1 + Math.floor(run.rand() * 4);
    const events = available.slice(0, size);
    return {
      runId: run.runId,
      status: run.status,
      isTerminal: run.done && events.length === available.length,
      // The highest sequence in the log now, whatever this page holds (upstream events.md §Poll).
      lastSequence: run.events.at(-1)?.sequence ?? -1,
      events,
    };
  }

  function findRun(segment: string): Run {
    const runId = decodeSegment(segment);
    if (runId === undefined) {
      throw new HttpError(400, 'validation_error', 'the run id segment is malformed');
    }
    const run = runs.get(runId);
    if (run === undefined) throw new HttpError(404, 'not_found', 'no such run');
    return run;
  }

  async function route(
    req: IncomingMessage,
    path: string,
    text: string,
  ): Promise<[number, unknown]> {
    const raw = req.url ?? '/';
    const cut = raw.indexOf('?');
    const query = new URLSearchParams(cut === -1 ? '' : raw.slice(cut + 1));
    const wanted = req.headers['openwop-version'];
    if (typeof wanted === 'string' && !versions.includes(wanted)) {
      throw new HttpError(406, 'protocol_version_unsupported', `version ${wanted} is not served`, {
        supported: [...versions],
      });
    }
    const method = req.method ?? 'GET';
    if (path === '/.well-known/openwop' && method === 'GET') return [200, discovery];
    if (!authorized(req.headers.authorization, options.apiKey)) {
      throw new HttpError(401, 'unauthenticated', 'a bearer key is required');
    }
    const parts = path.split('/');
    if (path === '/runs' && method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'validation_error', 'the body is not JSON');
      }
      return [201, createRun(body, `http://${req.headers.host ?? '127.0.0.1'}`)];
    }
    // ['', 'runs', '<encoded id>', ...tail]: an id sent with raw slashes is a route miss.
    if (parts[1] !== 'runs' || parts[2] === undefined || method !== 'GET') {
      throw new HttpError(404, 'not_found', 'no such route');
    }
    const run = findRun(parts[2]);
    const tail = parts.slice(3).join('/');
    if (tail === '') {
      return [200, { runId: run.runId, status: run.status, eventLogSchemaVersion: 3 }];
    }
    if (tail === 'events/poll') return [200, await poll(run, query)];
    if (tail === 'events') {
      const last = req.headers['last-event-id'];
      return [200, new EventStream(run, typeof last === 'string' ? Number(last) : null)];
    }
    if (tail === 'eval-summary') {
      if (!run.done) {
        throw new HttpError(409, 'run_state_conflict', 'the run is still going', {
          runStatus: run.status,
        });
      }
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
    const raw = req.url ?? '/';
    const cut = raw.indexOf('?');
    const full = cut === -1 ? raw : raw.slice(0, cut);
    const path = full.startsWith(`${prefix}/`) ? full.slice(prefix.length) : full;
    let status: number;
    let body: unknown;
    let headers: Readonly<Record<string, string>> = {};
    try {
      if (!full.startsWith(`${prefix}/`)) throw new HttpError(404, 'not_found', 'no such route');
      if (text === null) throw new HttpError(400, 'validation_error', 'the body is too large');
      [status, body] = await route(req, path, text);
    } catch (error) {
      const known = error instanceof HttpError ? error : undefined;
      status = known?.status ?? 500;
      headers = known?.headers ?? {};
      body = {
        error: known?.code ?? 'internal_error',
        message: known?.message ?? 'the host failed',
        ...(known?.details === undefined ? {} : { details: known.details }),
      };
    }
    if (body instanceof EventStream) {
      await body.pipe(res, () => closed);
      return;
    }
    await new Promise((resume) => setTimeout(resume, hostRand() * jitterMs));
    const out = JSON.stringify(body);
    const sent = {
      'content-type': 'application/json; charset=utf-8',
      'openwop-version': WIRE_VERSION,
      'x-acme-request-id': randomUUID(),
      ...headers,
    };
    res.writeHead(status, { ...sent, 'content-length': Buffer.byteLength(out) });
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
    tenant,
    counts: () => ({ runs: created, throttled: asked - created }),
    mostAppendsWhileHeld: () => appendsWhileHeld,
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

const tenantOf = (modes: ReadonlySet<OracleMode>): string =>
  modes.has('anon-tenant') ? 'anon:acme-visitor-7f3a' : 'acme-tenant-7';

/** What a host with these options serves for every run of one fixture, before it is timed. */
export interface ServedRun {
  /** The summary as `GET .../eval-summary` answers it. */
  readonly summary: JsonObject;
  /** The log in order, before each event gets its sequence, id, time and envelope members. */
  readonly drafts: readonly DraftEvent[];
}

/**
 * The documents of a run of `fixture`, a pure function of the fixture and the options: every run
 * of it the host creates serves exactly these, so a test can tell whether a `mutate` or a
 * `mutateEvents` changes anything a fixture's run serves without driving one.
 */
export function servedRun(
  fixture: Fixture,
  options: Pick<OracleHostOptions, 'modes' | 'mutate' | 'mutateEvents'>,
): ServedRun {
  const modes: ReadonlySet<OracleMode> = new Set(options.modes ?? []);
  const tenant = tenantOf(modes);
  const graded = grade(fixture);
  const summary = options.mutate?.(graded.summary, fixture.id, fixture) ?? graded.summary;
  const drafted = draftLog({ fixture, graded, summary, modes, tenant });
  const drafts = options.mutateEvents?.(drafted, fixture.id, fixture) ?? drafted;
  const trials = fixture.suite.trials?.count ?? 1;
  return { summary: presentSummary(summary, modes, tenant, trials), drafts };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function authorized(header: string | undefined, apiKey: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${apiKey}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
