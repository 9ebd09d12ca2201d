// The driver's endings that tests/observe/driver.test.ts does not reach: a poll page that is not a
// 200 JSON object, the bound on the whole log, the edges of create, summary and status, the
// wording of a host's refusal, and the retry schedule. Scripted loopback servers on port 0, torn
// down in each test; a scripted client where the test needs a clock or a thrown error.

import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../lib/env.ts';
import {
  BACKOFF,
  driveEvalRun,
  LOG_LIMIT_IN_BODIES,
  SYSTEM_CLOCK,
} from '../../lib/observe/driver.ts';
import { TransportError } from '../../lib/observe/errors.ts';
import type { HostClient, HostResponse } from '../../lib/observe/host-client.ts';
import type { DriveResult } from '../../lib/types.ts';
import { driveRouted, type Drive, type Route, type Routes } from '../support/routed-drive.ts';
import { sendJson } from '../support/scripted-server.ts';
import { paced } from '../support/machine-pace.ts';

// Deadlines no case here expects to fire, stretched by the pace this process runs at
// (tests/support/machine-pace.ts) so a busy machine does not turn a late answer into a lost one.
const BOUNDS: Bounds = {
  requestTimeoutMs: paced(500),
  runTimeoutMs: paced(3_000),
  pollTimeoutS: 0,
  maxBodyBytes: 2_048,
  retryAfterCapMs: 200,
};
const REQUEST = { evalSuiteRef: 'conformance.evals.gate@1.0.0', agentId: 'core.conformance.agent' };
const RUN = '/runs/run-1';
const POLL = `${RUN}/events/poll`;

const drive = (routes: Routes, bounds: Bounds = BOUNDS): Promise<Drive> =>
  driveRouted(routes, REQUEST, bounds, 'sk-driver-ends');

const created: Route = (_q, res) => sendJson(res, 201, { runId: 'run-1', status: 'running' });
const completed: Route = (_q, res) => sendJson(res, 200, { runId: 'run-1', status: 'completed' });
const summary: Route = (_q, res) => sendJson(res, 200, { suiteId: 's', tasks: [] });
const terminal: Route = (_q, res) =>
  sendJson(res, 200, {
    runId: 'run-1',
    events: [{ sequence: 0, type: 'eval.completed', runId: 'run-1', payload: {} }],
    lastSequence: 0,
    status: 'completed',
    isTerminal: true,
  });
const RUN_OK: Routes = {
  'POST /runs': created,
  [`GET ${POLL}`]: terminal,
  [`GET ${RUN}/eval-summary`]: summary,
  [`GET ${RUN}`]: completed,
};

const raw =
  (status: number, text: string): Route =>
  (_q, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);

/**
 * The first read's polls: those before the summary is asked for. The replays through the cursor
 * come after the status read and are tests/observe/driver.test.ts's subject.
 */
const polls = (d: Drive) => {
  const summaryAt = d.requests.findIndex((r) => r.path === `${RUN}/eval-summary`);
  const firstRead = summaryAt === -1 ? d.requests : d.requests.slice(0, summaryAt);
  return firstRead.filter((r) => r.path === POLL);
};

describe('a poll page that is not a 200 JSON object ends the drive as a host fault', () => {
  it.each<[string, Route, string]>([
    [
      'a 404 with the v2 envelope',
      (_q, res) => sendJson(res, 404, { error: 'not_found', message: 'no such run' }),
      `GET ${POLL} answered 404 not_found: no such run`,
    ],
    [
      'a 302, which is never followed',
      (_q, res) => sendJson(res, 302, { error: 'moved' }, { location: '/elsewhere' }),
      `GET ${POLL} answered 302 moved`,
    ],
    [
      'a 200 whose body is an array',
      (_q, res) => sendJson(res, 200, [{ sequence: 0 }]),
      `GET ${POLL} answered 200 with the body [{"sequence":0}]`,
    ],
    [
      'a 200 whose body is not JSON',
      raw(200, 'events: none'),
      `GET ${POLL} answered 200 with a body that is not JSON (not valid JSON)`,
    ],
    [
      'a 200 object without an events array',
      (_q, res) => sendJson(res, 200, { events: { 0: {} }, isTerminal: true }),
      `GET ${POLL} answered 200 without an events array`,
    ],
    [
      'a 201 page',
      (_q, res) => sendJson(res, 201, { events: [], isTerminal: true }),
      `GET ${POLL} answered 201 with the body {"events":[],"isTerminal":true}`,
    ],
  ])('%s', async (_name, poll, reason) => {
    const d = await drive({ ...RUN_OK, [`GET ${POLL}`]: poll });
    expect(d.result).toEqual({ kind: 'host-fault', stage: 'events', reason });
    expect(polls(d)).toHaveLength(1);
    // Nothing after the log is asked for once the log is lost.
    expect(d.requests.map((r) => r.path)).toEqual(['/runs', POLL]);
  });

  it('a page answered 500 is retried, not a fault, and the drive goes on', async () => {
    const d = await drive({
      ...RUN_OK,
      [`GET ${POLL}`]: (q, res, n) =>
        n === 1 ? sendJson(res, 500, { error: 'internal' }) : terminal(q, res, n),
    });
    expect(d.result.kind).toBe('observed');
    expect(polls(d)).toHaveLength(2);
  });
});

/** A non-terminal page of exactly `bytes` bytes carrying the one event `sequence`. */
function sizedPage(sequence: number, bytes: number, isTerminal = false): string {
  const body = (pad: string) =>
    JSON.stringify({
      runId: 'run-1',
      events: [{ sequence, type: 'agent.decided', runId: 'run-1', pad }],
      lastSequence: sequence,
      status: isTerminal ? 'completed' : 'running',
      isTerminal,
    });
  // 'é' is two bytes in UTF-8: the bound counts bytes, not characters.
  const short = Buffer.byteLength(body(''));
  const room = bytes - short;
  const pad = 'é'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2);
  const text = body(pad);
  if (Buffer.byteLength(text) !== bytes) throw new Error('the page is not the size asked for');
  return text;
}

describe('the bound on the whole event log', () => {
  const pageBytes = BOUNDS.maxBodyBytes / 2;
  const pagesAtLimit = (LOG_LIMIT_IN_BODIES * BOUNDS.maxBodyBytes) / pageBytes;
  const limit = LOG_LIMIT_IN_BODIES * BOUNDS.maxBodyBytes;

  it('is 16 bodies', () => {
    expect(LOG_LIMIT_IN_BODIES).toBe(16);
  });

  it('a log of exactly the limit is read to its end and observed', async () => {
    const d = await drive({
      ...RUN_OK,
      // Each page carries the event after the cursor, so the replays read what the first read did.
      [`GET ${POLL}`]: (q, res, n) => {
        const next = Number(q.query.get('afterSequence') ?? 0) + 1;
        if (next > pagesAtLimit) {
          sendJson(res, 200, { events: [], lastSequence: pagesAtLimit, isTerminal: true });
          return;
        }
        raw(200, sizedPage(next, pageBytes, next === pagesAtLimit))(q, res, n);
      },
    });
    expect(polls(d)).toHaveLength(pagesAtLimit);
    expect(d.result.kind).toBe('observed');
    if (d.result.kind !== 'observed') return;
    expect(d.result.observation.events).toHaveLength(pagesAtLimit);
  });

  it('one byte past the limit ends the drive unobserved, naming the limit and the pages read', async () => {
    const d = await drive({
      ...RUN_OK,
      [`GET ${POLL}`]: (_q, res, n) =>
        raw(200, n === pagesAtLimit + 1 ? '7' : sizedPage(n, pageBytes))(_q, res, n),
    });
    // The last page is one byte; the bound is checked before the page is read.
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'events',
      reason: `the event log exceeds the ${limit}-byte limit over ${pagesAtLimit + 1} pages`,
    });
    expect(d.requests.map((r) => r.path).at(-1)).toBe(POLL);
  });
});

describe('following the cursor', () => {
  it('trusts a log that starts at sequence 0 and follows it from there', async () => {
    const event = (sequence: number) => ({ sequence, type: 'agent.decided', runId: 'run-1' });
    const d = await drive({
      ...RUN_OK,
      [`GET ${POLL}`]: (q, res) => {
        const after = q.query.get('afterSequence');
        const next = after === null ? 0 : Number(after) + 1;
        sendJson(
          res,
          200,
          next > 1
            ? { events: [], lastSequence: 1, isTerminal: true }
            : { events: [event(next)], lastSequence: next, isTerminal: next === 1 },
        );
      },
    });
    expect(polls(d).map((r) => r.query.get('afterSequence'))).toEqual([null, '0']);
    expect(d.result.kind).toBe('observed');
  });
});

describe('the ends of create, summary and status', () => {
  it.each([200, 299])('a create answered %i with a runId is a created run', async (status) => {
    const d = await drive({
      ...RUN_OK,
      'POST /runs': (_q, res) => sendJson(res, status, { runId: 'run-1' }),
    });
    expect(d.result.kind).toBe('observed');
  });

  it.each<[number, unknown, string]>([
    [300, { runId: 'run-1' }, 'POST /runs answered 300 with the body {"runId":"run-1"}'],
    [409, { error: 'run_state_conflict' }, 'POST /runs answered 409 run_state_conflict'],
    [499, { message: 'odd' }, 'POST /runs answered 499 with the body {"message":"odd"}'],
    [201, { runId: '' }, 'POST /runs answered 201 without a string runId'],
    [201, { runId: 7 }, 'POST /runs answered 201 without a string runId'],
    [201, ['run-1'], 'POST /runs answered 201 without a string runId'],
  ])('a create answered %i with %j is a host fault, asked once', async (status, body, reason) => {
    const d = await drive({ 'POST /runs': (_q, res) => sendJson(res, status, body) });
    expect(d.result).toEqual({ kind: 'host-fault', stage: 'create', reason });
    expect(d.requests).toHaveLength(1);
  });

  it('a summary answered 201 is a host fault', async () => {
    const d = await drive({
      ...RUN_OK,
      [`GET ${RUN}/eval-summary`]: (_q, res) => sendJson(res, 201, { suiteId: 's' }),
    });
    expect(d.result).toEqual({
      kind: 'host-fault',
      stage: 'summary',
      reason: `GET ${RUN}/eval-summary answered 201 with the body {"suiteId":"s"}`,
    });
  });

  it.each<[string, Route, string]>([
    [
      'a 404',
      (_q, res) => sendJson(res, 404, { error: 'not_found', message: 'gone' }),
      `GET ${RUN} answered 404 not_found: gone`,
    ],
    [
      'a 200 array',
      (_q, res) => sendJson(res, 200, ['completed']),
      `GET ${RUN} answered 200 with the body ["completed"]`,
    ],
    [
      'a 200 that is not JSON',
      raw(200, 'completed'),
      `GET ${RUN} answered 200 with a body that is not JSON (not valid JSON)`,
    ],
    [
      'a 202 object',
      (_q, res) => sendJson(res, 202, { status: 'completed' }),
      `GET ${RUN} answered 202 with the body {"status":"completed"}`,
    ],
  ])('a status read answered with %s is a host fault', async (_name, status, reason) => {
    const d = await drive({ ...RUN_OK, [`GET ${RUN}`]: status });
    expect(d.result).toEqual({ kind: 'host-fault', stage: 'status', reason });
  });

  it('a status without a status member is observed, its status left for the witness', async () => {
    const d = await drive({
      ...RUN_OK,
      [`GET ${RUN}`]: (_q, res) => sendJson(res, 200, { runId: 'run-1' }),
    });
    expect(d.result.kind).toBe('observed');
    if (d.result.kind !== 'observed') return;
    expect(d.result.observation.runStatus).toBeUndefined();
  });

  it('asks for the summary, then the status, each once, and only then replays the log', async () => {
    const d = await drive(RUN_OK);
    const asked = d.requests.map((r) => `${r.method} ${r.path}`);
    expect(asked.slice(0, 4)).toEqual([
      'POST /runs',
      `GET ${POLL}`,
      `GET ${RUN}/eval-summary`,
      `GET ${RUN}`,
    ]);
    expect(asked.slice(4).length).toBeGreaterThan(0);
    expect(asked.slice(4).every((a) => a === `GET ${POLL}`)).toBe(true);
  });
});

describe('how a refusal reads', () => {
  const refused = async (body: Route): Promise<DriveResult> =>
    (await drive({ 'POST /runs': body })).result;
  const reasonOf = (result: DriveResult): string =>
    result.kind === 'observed' ? '' : result.reason;

  it('quotes the error code alone when there is no message', async () => {
    const result = await refused((_q, res) => sendJson(res, 400, { error: 'validation_error' }));
    expect(reasonOf(result)).toBe('POST /runs answered 400 validation_error');
  });

  it('quotes the body when the message is not a string', async () => {
    const result = await refused((_q, res) => sendJson(res, 400, { message: 'no code', x: 1 }));
    expect(reasonOf(result)).toBe(
      'POST /runs answered 400 with the body {"message":"no code","x":1}',
    );
  });

  it('folds runs of white space to one space', async () => {
    const result = await refused((_q, res) =>
      sendJson(res, 400, { error: 'validation_error', message: 'bad\n\n  suite\tref' }),
    );
    expect(reasonOf(result)).toBe('POST /runs answered 400 validation_error: bad suite ref');
  });

  it('keeps a reason of 200 characters whole and cuts a longer one to 200 with an ellipsis', async () => {
    const head = 'POST /runs answered 400 validation_error: ';
    const exact = 'm'.repeat(200 - `answered 400 validation_error: `.length);
    const whole = await refused((_q, res) =>
      sendJson(res, 400, { error: 'validation_error', message: exact }),
    );
    expect(reasonOf(whole)).toBe(`${head}${exact}`);
    const long = await refused((_q, res) =>
      sendJson(res, 400, { error: 'validation_error', message: `${exact}n` }),
    );
    expect(reasonOf(long)).toBe(`${head}${exact.slice(0, -1)}…`);
  });
});

/** A client whose every answer the test scripts, with no server: for clocks and thrown errors. */
function scriptedClient(answer: (path: string, n: number) => Promise<HostResponse>): {
  client: HostClient;
  calls: string[];
} {
  const calls: string[] = [];
  const send = (path: string): Promise<HostResponse> => {
    calls.push(path);
    return answer(path, calls.length);
  };
  const client: HostClient = {
    baseUrl: 'http://scripted.invalid',
    get: (path) => send(path),
    post: (path) => send(path),
    close: () => Promise.resolve(),
  };
  return { client, calls };
}

const answer = (status: number, json: unknown, headers: Record<string, string> = {}) =>
  Promise.resolve<HostResponse>({ status, headers, text: JSON.stringify(json), json });

describe('retries and the run deadline', () => {
  it('sends nothing once the run deadline has passed', async () => {
    const { client, calls } = scriptedClient(() => answer(201, { runId: 'r' }));
    const result = await driveEvalRun(
      client,
      REQUEST,
      { ...BOUNDS, runTimeoutMs: 0 },
      {
        ...SYSTEM_CLOCK,
        now: () => 1_000,
      },
    );
    expect(result).toEqual({
      kind: 'unobserved',
      stage: 'create',
      reason: 'POST /runs not accepted within 0 ms',
    });
    expect(calls).toEqual([]);
  });

  it('a Retry-After of 0 still waits the first backoff step before each retry', async () => {
    const { client, calls } = scriptedClient((_path, n) =>
      n <= 3 ? answer(429, {}, { 'retry-after': '0' }) : answer(400, { error: 'stop' }),
    );
    const started = Date.now();
    const result = await driveEvalRun(client, REQUEST, BOUNDS);
    const elapsed = Date.now() - started;
    expect(result).toEqual({
      kind: 'host-fault',
      stage: 'create',
      reason: 'POST /runs answered 400 stop',
    });
    expect(calls).toHaveLength(4);
    expect(elapsed).toBeGreaterThanOrEqual(3 * BACKOFF.initialMs - 5);
  });

  it('a 5xx without Retry-After waits the doubling backoff', async () => {
    const { client, calls } = scriptedClient((_path, n) =>
      n <= 3 ? answer(503, {}) : answer(400, { error: 'stop' }),
    );
    const started = Date.now();
    await driveEvalRun(client, REQUEST, BOUNDS);
    expect(calls).toHaveLength(4);
    const waited = BACKOFF.initialMs * (1 + BACKOFF.factor + BACKOFF.factor ** 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waited - 5);
  });

  it('a transport failure that is not the deadline ends unobserved with its own message', async () => {
    const { client } = scriptedClient(() =>
      Promise.reject(new TransportError('connection-reset', 'POST', '/runs', 'connection reset')),
    );
    const result = await driveEvalRun(client, REQUEST, BOUNDS);
    expect(result).toEqual({
      kind: 'unobserved',
      stage: 'create',
      reason: 'POST /runs: connection reset',
    });
  });

  it('an error that is not a TransportError is the suite failing, and is thrown', async () => {
    const { client } = scriptedClient(() => Promise.reject(new RangeError('suite bug')));
    await expect(driveEvalRun(client, REQUEST, BOUNDS)).rejects.toThrow('suite bug');
  });

  it('waits out a long poll the host holds for its whole timeout, beyond the request deadline', async () => {
    // The host holds each poll 1 s (pollTimeoutS); the request deadline alone would cut it, were it
    // not stretched past 1 s by a busy machine's pace: the case keeps it at 500 ms.
    const bounds = {
      ...BOUNDS,
      requestTimeoutMs: 500,
      pollTimeoutS: 1,
      runTimeoutMs: paced(8_000),
    };
    const d = await drive(
      {
        ...RUN_OK,
        [`GET ${POLL}`]: (q, res, n) => {
          setTimeout(() => terminal(q, res, n), 1_000);
        },
      },
      bounds,
    );
    expect(d.result.kind).toBe('observed');
    expect(polls(d).map((r) => r.query.get('timeout'))).toEqual(['1']);
  });
});
