// The HTTP face of the host (contract §1, §2, §6): version negotiation, routing, bearer auth,
// body limits and the v2 error envelope. Every failure becomes an envelope; no request can take
// the process down.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HasDefect } from './defects.ts';
import { advertisesEvalSuite, discoveryDocument } from './discovery.ts';
import type { PublishedSigningKey } from './discovery.ts';
import type { JsonValue, SeededFixture } from './fixtures.ts';
import { EvalRun, type HostEvent, type RunSettings } from './run.ts';
import {
  decodeSegment,
  errorBody,
  HttpError,
  mintRunId,
  negotiatedVersion,
  preferredVersion,
  projectSegment,
  protocolVersions,
} from './wire.ts';

const BODY_LIMIT_BYTES = 64 * 1024;
const MAX_ACTIVE_RUNS = 64;
/** The published bound of the poll `timeout` parameter (`pollRunEvents`, contract §6). */
const MAX_POLL_SECONDS = 60;
const PLAIN_TENANT = 'reference';
/** The varied variant runs under an anonymous tenant, which the newer ids grammar admits. */
const VARIED_TENANT = 'anon:guest-7';

export interface HostState {
  readonly apiKey: string | undefined;
  readonly signingKey?: PublishedSigningKey | readonly PublishedSigningKey[];
  readonly has: HasDefect;
  readonly varied: boolean;
  readonly fixtures: readonly SeededFixture[];
  /** By `<suiteId>@<version>`. */
  readonly suites: ReadonlyMap<string, SeededFixture>;
  readonly runs: Map<string, EvalRun>;
  readonly runSettings: RunSettings;
  runCounter: number;
  readonly onHang?: HangWatch;
}

/**
 * Called with a run's id each time the host answers a request of that run from inside an endless
 * hang: a poll that finds the log at its end when `run-never-ends` has stopped the run, or a
 * summary refused 409 by `summary-409-forever` when the run has finished. From then on nothing
 * the client asks for changes.
 */
export type HangWatch = (runId: string) => void;

/** One request's answer channel, with the protocol version it was negotiated at. */
interface Reply {
  readonly res: ServerResponse;
  readonly has: HasDefect;
  version: string;
}

/** Every response names the version it speaks (contract §1); `version-header-missing` drops it. */
export function versionHeader(has: HasDefect, version: string): Record<string, string> {
  return has('version-header-missing') ? {} : { 'openwop-version': version };
}

function send(reply: Reply, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  reply.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...versionHeader(reply.has, reply.version),
    ...headers,
  });
  reply.res.end(text);
}

/**
 * `any-bearer-accepted` lets any bearer token through; a request without one is still refused.
 * The four near-miss defects each loosen the comparison one way a hurried one does.
 */
function authorized(req: IncomingMessage, apiKey: string | undefined, has: HasDefect): boolean {
  if (apiKey === undefined) return true;
  const header = req.headers.authorization ?? '';
  if (has('any-bearer-accepted')) return /^Bearer \S+$/.test(header);
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
  if (token !== undefined && nearlyTheKey(token, apiKey, has)) return true;
  const given = Buffer.from(header);
  const wanted = Buffer.from(`Bearer ${apiKey}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function nearlyTheKey(token: string, apiKey: string, has: HasDefect): boolean {
  if (has('key-prefix-accepted') && token.startsWith(apiKey)) return true;
  if (has('key-case-insensitive') && token.toLowerCase() === apiKey.toLowerCase()) return true;
  // A reversed prefix test, or one comparing only as many characters as the token has.
  if (has('key-truncation-accepted') && token.length > 0 && apiKey.startsWith(token)) return true;
  return (
    has('key-last-character-unchecked') &&
    token.length === apiKey.length &&
    token.slice(0, -1) === apiKey.slice(0, -1)
  );
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
        new HttpError('payload_too_large', `body exceeds ${BODY_LIMIT_BYTES} bytes`, undefined, {
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
        reject(new HttpError('validation_error', 'body is not valid JSON'));
      }
    });
  });
}

/** The run's path segment in the host's own links: `%2F` plain, the `~2F` projection varied. */
function segmentOf(state: HostState, runId: string): string {
  return state.varied ? projectSegment(runId) : encodeURIComponent(runId);
}

function createRun(state: HostState, req: IncomingMessage, body: unknown): JsonValue {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError('validation_error', 'body must be a JSON object');
  }
  const { mode, evalSuiteRef, agentId } = body as Record<string, unknown>;
  if (mode !== 'eval') throw new HttpError('validation_error', 'mode must be "eval"');
  if (typeof evalSuiteRef !== 'string' || typeof agentId !== 'string') {
    throw new HttpError('validation_error', 'evalSuiteRef and agentId must be strings');
  }
  if (!advertisesEvalSuite(state.has) || state.has('create-refused')) {
    throw new HttpError('capability_not_provided', 'agents.evalSuite is not provided');
  }
  const fixture = state.suites.get(evalSuiteRef);
  if (fixture === undefined && state.has('unknown-suite-server-error')) {
    throw new HttpError('internal_error', 'internal error');
  }
  if (fixture === undefined) throw new HttpError('not_found', 'unknown eval suite');
  if (fixture.agentId !== agentId) throw new HttpError('not_found', 'unknown agent');
  const active = [...state.runs.values()].filter((r) => !r.terminal).length;
  if (active >= MAX_ACTIVE_RUNS) {
    throw new HttpError('rate_limited', 'too many active runs', undefined, { 'retry-after': '1' });
  }
  state.runCounter += 1;
  const tenant = state.varied ? VARIED_TENANT : PLAIN_TENANT;
  const runId = mintRunId(tenant, state.runCounter, state.has);
  const run = new EvalRun(runId, evalSuiteRef, fixture, runSettingsFor(state, evalSuiteRef));
  state.runs.set(runId, run);
  run.start();
  const base = `http://${req.headers.host ?? '127.0.0.1'}/runs/${segmentOf(state, runId)}`;
  return {
    runId,
    status: run.status,
    ...(state.has('create-answer-no-events-url') ? {} : { eventsUrl: `${base}/events/poll` }),
    ...(state.varied ? { statusUrl: base } : {}),
  };
}

/**
 * The settings a new run of `suiteRef` is graded with: the host's own, except that a flaky host
 * drops the cost condition on the first run of each suite and every other one after it.
 */
function runSettingsFor(state: HostState, suiteRef: string): RunSettings {
  const earlier = [...state.runs.values()].filter((r) => r.evalSuiteRef === suiteRef).length;
  if (!state.has('cost-limit-dropped-on-odd-runs') || earlier % 2 === 1) return state.runSettings;
  const has = state.runSettings.has;
  return { ...state.runSettings, has: (name) => name === 'cost-limit-dropped' || has(name) };
}

function numberParam(url: URL, name: string, min: number, max: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new HttpError('validation_error', `${name} must be a number in ${min}..${max}`);
  }
  return value;
}

/** The events a poll answers: those after the cursor, or what `cursor-*` defects read it as. */
function cursorEvents(state: HostState, run: EvalRun, after: number | undefined): HostEvent[] {
  if (state.has('cursor-ignored')) return run.eventsAfter(undefined);
  if (state.has('cursor-inclusive') && after !== undefined) return run.eventsFrom(after);
  return run.eventsAfter(after);
}

/**
 * `lastSequence` as upstream `spec/v2/core/events.md` defines it: the highest sequence in the log
 * when the page is answered, −1 while it is empty. `last-sequence-of-page` answers the page's last
 * event (the cursor on an empty page), `last-sequence-minus-one` answers −1 whatever the log holds.
 */
function lastSequenceOf(
  state: HostState,
  run: EvalRun,
  page: readonly HostEvent[],
  after?: number,
) {
  if (state.has('last-sequence-minus-one')) return -1;
  if (state.has('last-sequence-of-page')) return page.at(-1)?.sequence ?? after ?? -1;
  return run.events.at(-1)?.sequence ?? -1;
}

/** The closed poll page of contract §6; the next cursor is the page's last event's sequence. */
async function poll(state: HostState, run: EvalRun, url: URL): Promise<JsonValue> {
  const after = numberParam(url, 'afterSequence', 0, Number.MAX_SAFE_INTEGER);
  const timeoutS = numberParam(url, 'timeout', 0, MAX_POLL_SECONDS) ?? 0;
  // The varied variant answers at once, which the contract allows.
  const deadline = Date.now() + (state.varied ? 0 : timeoutS * 1000);
  let events = cursorEvents(state, run, after);
  while (events.length === 0 && !run.terminal && !state.runSettings.signal.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await run.waitForChange(left);
    events = cursorEvents(state, run, after);
  }
  // One event a page, so even a finished log is read through the cursor.
  const page = state.varied ? events.slice(0, 1) : events;
  const more = run.eventsAfter(page.at(-1)?.sequence ?? after).length > 0;
  if (run.stalled && !more) state.onHang?.(run.runId);
  return {
    runId: run.runId,
    events: page as unknown as JsonValue,
    lastSequence: lastSequenceOf(state, run, page, after),
    status: run.status,
    // Upstream's isTerminal says the run is terminal: the varied host says it on every page of a
    // finished log, as events.md allows, so a client must read on to lastSequence.
    isTerminal: run.terminal && (state.varied || !more),
    ...(state.has('poll-page-extra-member') ? { hasMore: more } : {}),
  };
}

/** A bare opaque segment resolves under the caller's tenant, as in the v1 overlap. */
function findRun(state: HostState, segment: string): EvalRun {
  const runId = decodeSegment(segment);
  const tenant = state.varied ? VARIED_TENANT : PLAIN_TENANT;
  const run = state.runs.get(runId) ?? state.runs.get(`${tenant}/${runId}`);
  if (run === undefined && state.has('unknown-run-bad-request')) {
    throw new HttpError('validation_error', 'no such run id');
  }
  if (run === undefined) throw new HttpError('not_found', 'unknown run');
  return run;
}

function summaryOf(state: HostState, run: EvalRun): JsonValue {
  if (run.terminal && state.has('summary-409-forever')) state.onHang?.(run.runId);
  if (!run.terminal || run.summary === undefined || state.has('summary-409-forever')) {
    throw new HttpError('run_state_conflict', 'the run has not finished', {
      runStatus: run.status,
    });
  }
  // The varied host publishes the summary on its first read, answering that read 409 while it
  // finalises, so a normal run shows every client one v2 error body and a 409 to wait out. The
  // plain host answers at once, as the embedded default should, unless its error bodies are the
  // defect under test: a dialect nobody is shown cannot be caught.
  const finalises = state.varied || state.has('error-body-dialect');
  if (finalises && !run.summaryPublished) {
    run.summaryPublished = true;
    throw new HttpError('run_state_conflict', 'the summary is being finalised', {
      runStatus: run.status,
    });
  }
  return run.summary;
}

async function route(state: HostState, req: IncomingMessage, reply: Reply): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const parts = url.pathname.split('/').slice(1);
  const method = req.method ?? 'GET';
  // The registry has no 405 code, so a known path with another method is an unknown operation.
  const only = (allowed: string): void => {
    if (method !== allowed) {
      throw new HttpError('not_found', `no such operation; use ${allowed}`, undefined, {
        allow: allowed,
      });
    }
  };

  const requested = req.headers['openwop-version'];
  const version = negotiatedVersion(Array.isArray(requested) ? requested[0] : requested, state.has);
  if (url.pathname === '/.well-known/openwop') {
    // Discovery answers whatever version is asked for: it is how a client learns the versions.
    only('GET');
    if (state.has('discovery-not-json')) {
      reply.res.writeHead(200, {
        'content-type': 'text/html',
        ...versionHeader(state.has, reply.version),
      });
      reply.res.end('<html><body>openwop</body></html>');
      return;
    }
    send(reply, 200, discoveryDocument({ ...state, fixtureIds: state.fixtures.map((f) => f.id) }));
    return;
  }
  if (version === undefined) {
    throw new HttpError(
      'protocol_version_unsupported',
      `OpenWOP-Version ${String(requested)} is not one of ${protocolVersions(state.has).join(', ')}`,
    );
  }
  reply.version = version;
  if (!state.has('no-key-check') && !authorized(req, state.apiKey, state.has)) {
    throw new HttpError('unauthenticated', 'a valid bearer token is required', undefined, {
      'www-authenticate': 'Bearer',
    });
  }
  if (parts[0] !== 'runs' || parts.length > 4) throw new HttpError('not_found', 'no route');
  const [, id, sub, leaf] = parts;
  if (id === undefined) {
    only('POST');
    send(reply, 201, createRun(state, req, await readJson(req)));
    return;
  }
  if (id === '') throw new HttpError('not_found', 'no route');
  if (sub === undefined) {
    only('GET');
    const run = findRun(state, id);
    send(reply, 200, {
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
    send(reply, 200, await poll(state, findRun(state, id), url));
    return;
  }
  if (sub === 'eval-summary' && leaf === undefined) {
    only('GET');
    // A gated operation the host does not advertise is a path it does not serve (runs.md).
    if (!advertisesEvalSuite(state.has)) {
      if (state.has('unadvertised-summary-refused')) {
        throw new HttpError('capability_not_provided', 'agents.evalSuite is not provided');
      }
      throw new HttpError('not_found', 'no route');
    }
    send(reply, 200, summaryOf(state, findRun(state, id)));
    return;
  }
  throw new HttpError('not_found', 'no route');
}

export function handler(state: HostState) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const reply: Reply = {
      res,
      has: state.has,
      version: preferredVersion(state.has),
    };
    route(state, req, reply).catch((err: unknown) => {
      const e = err instanceof HttpError ? err : new HttpError('internal_error', 'internal error');
      if (!(err instanceof HttpError)) process.stderr.write(`reference host: ${String(err)}\n`);
      if (res.headersSent || res.destroyed) return;
      send(reply, e.status, errorBody(e, state.has), e.headers);
    });
  };
}
