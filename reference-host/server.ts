// The HTTP face of the host (contract §1, §2, §6): routing, bearer auth, body limits and the v2
// error envelope. Every failure becomes an envelope; no request can take the process down.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HasDefect } from './defects.ts';
import type { JsonValue, SeededFixture } from './fixtures.ts';
import { EvalRun, type RunSettings } from './run.ts';

export const HOST_NAME = 'openwop-reference-host';
export const HOST_VERSION = '0.1.0';
const BODY_LIMIT_BYTES = 64 * 1024;
const MAX_ACTIVE_RUNS = 64;
const MAX_POLL_SECONDS = 30;

export interface HostState {
  readonly apiKey: string | undefined;
  readonly has: HasDefect;
  readonly varied: boolean;
  readonly fixtures: readonly SeededFixture[];
  /** By `<suiteId>@<version>`. */
  readonly suites: ReadonlyMap<string, SeededFixture>;
  readonly runs: Map<string, EvalRun>;
  readonly runSettings: RunSettings;
  runCounter: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function discovery(state: HostState): JsonValue {
  const { has, varied } = state;
  const claim = varied ? { supported: true } : {};
  const evalSuite: Record<string, JsonValue> = { ...claim, modes: ['golden'] };
  if (!has('withhold-trajectory')) {
    evalSuite['trajectory'] = { ...claim, matchModes: ['exact', 'in-order', 'any-order'] };
  }
  if (!has('withhold-trials')) {
    evalSuite['trials'] = { ...claim, maxCount: 100, passRules: ['all', 'any', 'mean'] };
  }
  const agents: Record<string, JsonValue> = has('withhold-eval-suite') ? {} : { evalSuite };
  if (varied) agents['x-ref-host-sandbox'] = { supported: false };
  return {
    implementation: { name: HOST_NAME, version: HOST_VERSION },
    agents,
    fixtures: has('withhold-fixtures') ? [] : state.fixtures.map((f) => f.id),
    ...(varied
      ? { protocolVersions: ['2.0'], 'x-ref-host-build': { variant: 'varied' }, limits: {} }
      : {}),
  };
}

function authorized(req: IncomingMessage, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return true;
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header);
  const wanted = Buffer.from(`Bearer ${apiKey}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) {
        chunks.push(chunk);
        return;
      }
      // The rest of the body is read and dropped, so the 413 reaches the client intact.
      refused = true;
      reject(
        new HttpError(413, 'payload_too_large', `body exceeds ${BODY_LIMIT_BYTES} bytes`, {
          connection: 'close',
        }),
      );
    });
    req.on('error', reject);
    req.on('end', () => {
      if (refused) return;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new HttpError(400, 'validation_error', 'body is not valid JSON'));
      }
    });
  });
}

function createRun(state: HostState, body: unknown): { runId: string; status: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'validation_error', 'body must be a JSON object');
  }
  const { mode, evalSuiteRef, agentId } = body as Record<string, unknown>;
  if (mode !== 'eval') throw new HttpError(400, 'validation_error', 'mode must be "eval"');
  if (typeof evalSuiteRef !== 'string' || typeof agentId !== 'string') {
    throw new HttpError(400, 'validation_error', 'evalSuiteRef and agentId must be strings');
  }
  if (state.has('withhold-eval-suite') || state.has('create-refused')) {
    throw new HttpError(422, 'capability_not_provided', 'agents.evalSuite is not provided');
  }
  const fixture = state.suites.get(evalSuiteRef);
  if (fixture === undefined) throw new HttpError(404, 'not_found', 'unknown eval suite');
  if (fixture.agentId !== agentId) throw new HttpError(404, 'not_found', 'unknown agent');
  const active = [...state.runs.values()].filter((r) => !r.terminal).length;
  if (active >= MAX_ACTIVE_RUNS) {
    throw new HttpError(429, 'rate_limited', 'too many active runs', { 'retry-after': '1' });
  }
  state.runCounter += 1;
  const runId = state.varied ? `tenant-a/r-${state.runCounter}` : `r-${state.runCounter}`;
  const run = new EvalRun(runId, evalSuiteRef, fixture, state.runSettings);
  state.runs.set(runId, run);
  run.start();
  return { runId, status: run.status };
}

function numberParam(url: URL, name: string, min: number, max: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new HttpError(400, 'validation_error', `${name} must be a number in ${min}..${max}`);
  }
  return value;
}

async function poll(state: HostState, run: EvalRun, url: URL): Promise<JsonValue> {
  const after = numberParam(url, 'afterSequence', 0, Number.MAX_SAFE_INTEGER);
  const timeoutS = numberParam(url, 'timeout', 0, MAX_POLL_SECONDS) ?? 0;
  // The varied variant answers at once, which the contract allows.
  const deadline = Date.now() + (state.varied ? 0 : timeoutS * 1000);
  let events = run.eventsAfter(after);
  while (events.length === 0 && !run.terminal && !state.runSettings.signal.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await run.waitForChange(left);
    events = run.eventsAfter(after);
  }
  const page = state.varied ? events.slice(0, 1) : events;
  const last = page.at(-1)?.sequence ?? after ?? 0;
  const more = run.eventsAfter(last).length > 0;
  return {
    runId: run.runId,
    events: page as unknown as JsonValue,
    lastSequence: last,
    status: run.status,
    isTerminal: run.terminal && !more,
  };
}

function findRun(state: HostState, segment: string): EvalRun {
  let runId: string;
  try {
    runId = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'validation_error', 'runId is not a valid percent-encoded segment');
  }
  const run = state.runs.get(runId);
  if (run === undefined) throw new HttpError(404, 'not_found', 'unknown run');
  return run;
}

async function route(state: HostState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const parts = url.pathname.split('/').slice(1);
  const method = req.method ?? 'GET';
  const only = (allowed: string): void => {
    if (method !== allowed) throw new HttpError(405, 'method_not_allowed', `use ${allowed}`);
  };

  if (url.pathname === '/.well-known/openwop') {
    only('GET');
    if (state.has('discovery-not-json')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>openwop</body></html>');
      return;
    }
    send(res, 200, discovery(state));
    return;
  }
  if (!authorized(req, state.apiKey)) {
    throw new HttpError(401, 'unauthorized', 'a valid bearer token is required', {
      'www-authenticate': 'Bearer',
    });
  }
  if (parts[0] !== 'runs' || parts.length > 4) throw new HttpError(404, 'not_found', 'no route');
  const [, id, sub, leaf] = parts;
  if (id === undefined) {
    only('POST');
    send(res, 201, createRun(state, await readJson(req)));
    return;
  }
  if (id === '') throw new HttpError(404, 'not_found', 'no route');
  if (sub === undefined) {
    only('GET');
    const run = findRun(state, id);
    send(res, 200, {
      runId: run.runId,
      status: run.status,
      mode: 'eval',
      evalSuiteRef: run.evalSuiteRef,
      agentId: run.agentId,
    });
    return;
  }
  if (sub === 'events' && leaf === 'poll') {
    only('GET');
    send(res, 200, await poll(state, findRun(state, id), url));
    return;
  }
  if (sub === 'eval-summary' && leaf === undefined) {
    only('GET');
    const run = findRun(state, id);
    if (!run.terminal || run.summary === undefined || state.has('summary-409-forever')) {
      throw new HttpError(409, 'run_not_terminal', 'the run has not finished');
    }
    send(res, 200, run.summary);
    return;
  }
  throw new HttpError(404, 'not_found', 'no route');
}

export function handler(state: HostState) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    route(state, req, res).catch((err: unknown) => {
      const e =
        err instanceof HttpError ? err : new HttpError(500, 'internal_error', 'internal error');
      if (!(err instanceof HttpError)) process.stderr.write(`reference host: ${String(err)}\n`);
      if (res.headersSent || res.destroyed) return;
      send(res, e.status, { error: { code: e.code, message: e.message } }, e.headers);
    });
  };
}
