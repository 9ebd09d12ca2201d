// The eval-run driver against a scripted host: what it asks for, in what order, with which
// cursor, and how each way a run can end sorts into observed, host-fault or unobserved.

import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../lib/env.ts';
import { BACKOFF, retryAfterMs, SYSTEM_CLOCK } from '../../lib/observe/driver.ts';
import { driveRouted, type Drive, type Route, type Routes } from '../support/routed-drive.ts';
import { sendJson, sendV2, V2_HEADERS } from '../support/scripted-server.ts';
import { paced } from '../support/machine-pace.ts';

// Every deadline a case needs kept, and every one that must first let the answers before it
// through, is stretched by the pace this process runs at (tests/support/machine-pace.ts), so a
// busy machine reaches the same verdict; the messages are written from the stretched figures.
const BOUNDS: Bounds = {
  requestTimeoutMs: paced(500),
  runTimeoutMs: paced(1_500),
  pollTimeoutS: 0,
  maxBodyBytes: 64 * 1024,
  retryAfterCapMs: 200,
};
const REQUEST = { evalSuiteRef: 'conformance.evals.gate@1.0.0', agentId: 'core.conformance.agent' };
const RUN = '/runs/acme%2Frun-1';
const SUMMARY = { suiteId: 'conformance.evals.gate', passed: false, tasks: [] };

// A test that moves time passes its own `now`; the waits between requests stay real.
const drive = (routes: Routes, bounds: Bounds = BOUNDS, now?: () => number): Promise<Drive> =>
  driveRouted(
    routes,
    REQUEST,
    bounds,
    'sk-driver',
    now === undefined ? SYSTEM_CLOCK : { ...SYSTEM_CLOCK, now },
  );

const created: Route = (_q, res) => sendJson(res, 201, { runId: 'acme/run-1', status: 'running' });
const completed: Route = (_q, res) =>
  sendJson(res, 200, { runId: 'acme/run-1', status: 'completed' });
const summary: Route = (_q, res) => sendJson(res, 200, SUMMARY);

function event(sequence: number, type: string, payload: unknown = {}) {
  return { eventId: `e${sequence}`, runId: 'acme/run-1', type, sequence, timestamp: 't', payload };
}

function page(
  res: ServerResponse,
  events: readonly ReturnType<typeof event>[],
  isTerminal: boolean,
): void {
  sendJson(res, 200, {
    runId: 'acme/run-1',
    events,
    lastSequence: events.at(-1)?.sequence ?? 0,
    status: isTerminal ? 'completed' : 'running',
    isTerminal,
  });
}

const polls = (d: Drive) => d.requests.filter((r) => r.path === `${RUN}/events/poll`);
const cursors = (d: Drive) => polls(d).map((r) => r.query.get('afterSequence'));

/** A poll that honours the cursor: `size` events after afterSequence, terminal at the end. */
function served(log: readonly ReturnType<typeof event>[], size: number): Route {
  return (req, res) => {
    const after = req.query.get('afterSequence');
    const rest = log.filter((e) => after === null || e.sequence > Number(after));
    const events = rest.slice(0, size);
    sendJson(res, 200, {
      runId: 'acme/run-1',
      events,
      lastSequence: events.at(-1)?.sequence ?? log.at(-1)?.sequence ?? -1,
      status: 'completed',
      isTerminal: events.length === rest.length,
    });
  };
}

const LOG = [
  event(0, 'eval.started'),
  event(1, 'agent.tool-called'),
  event(2, 'eval.scored'),
  event(3, 'eval.completed'),
  event(4, 'run.completed'),
];

function observed(d: Drive) {
  if (d.result.kind !== 'observed') throw new Error(`not observed: ${JSON.stringify(d.result)}`);
  return d.result.observation;
}

describe('driveEvalRun', () => {
  it('creates the run, follows the cursor to the end and reads status and summary', async () => {
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (q, res, n) =>
        n === 1
          ? page(
              res,
              [
                event(1, 'eval.started', { taskCount: 1 }),
                event(2, 'agent.tool-called', { tool: 't' }),
              ],
              false,
            )
          : page(
              res,
              [
                event(3, 'eval.scored', { score: 1 }),
                event(4, 'eval.completed', { passed: false }),
              ].filter((e) => e.sequence > Number(q.query.get('afterSequence'))),
              true,
            ),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: summary,
    });
    expect(JSON.parse(d.requests[0]?.body ?? '')).toEqual({ mode: 'eval', ...REQUEST });
    // The first read, then the replays: after the middle (2), the last (4) and past the end (5).
    expect(cursors(d)).toEqual([null, '2', '2', '4', '5']);
    expect(polls(d).map((r) => r.query.get('timeout'))).toEqual(['0', '0', '0', '0', '0']);
    const empty = (after: number) => ({
      afterSequence: after,
      lastSequence: 0,
      isTerminal: true,
      eventCount: 0,
    });
    const envelope = (sequence: number) => ({
      json: 'object',
      members: { eventId: `e${sequence}`, timestamp: 't' },
      payload: 'object',
    });
    const pageMembers = (status: string) => ({ runId: 'acme/run-1', status });
    expect(d.result).toEqual({
      kind: 'observed',
      observation: {
        runId: 'acme/run-1',
        ...REQUEST,
        // The record's version says which rules read it (lib/types.ts); the driver writes the newest.
        recordVersion: 2,
        pages: [
          {
            afterSequence: null,
            lastSequence: 2,
            isTerminal: false,
            eventCount: 2,
            members: pageMembers('running'),
          },
          {
            afterSequence: 2,
            lastSequence: 4,
            isTerminal: true,
            eventCount: 2,
            members: pageMembers('completed'),
          },
        ],
        events: [
          {
            sequence: 1,
            type: 'eval.started',
            runId: 'acme/run-1',
            payload: { taskCount: 1 },
            envelope: envelope(1),
          },
          { sequence: 2, type: 'agent.tool-called', runId: 'acme/run-1', envelope: envelope(2) },
          {
            sequence: 3,
            type: 'eval.scored',
            runId: 'acme/run-1',
            payload: { score: 1 },
            envelope: envelope(3),
          },
          {
            sequence: 4,
            type: 'eval.completed',
            runId: 'acme/run-1',
            payload: { passed: false },
            envelope: envelope(4),
          },
        ],
        runStatus: 'completed',
        summary: SUMMARY,
        created: { runId: 'acme/run-1', status: 'running' },
        errors: { kinds: [], omitted: 0 },
        // What each call's header said is pinned below, where the test sets it.
        versions: expect.objectContaining({ omitted: 0 }),
        replays: [
          {
            cursor: 'mid-log',
            afterSequence: 2,
            pages: [{ afterSequence: 2, lastSequence: 4, isTerminal: true, eventCount: 2 }],
            events: [
              { sequence: 3, eventId: 'e3', type: 'eval.scored' },
              { sequence: 4, eventId: 'e4', type: 'eval.completed' },
            ],
          },
          { cursor: 'last-sequence', afterSequence: 4, pages: [empty(4)], events: [] },
          { cursor: 'past-end', afterSequence: 5, pages: [empty(5)], events: [] },
        ],
      },
    });
  });

  it('keeps asking for the summary while it is 409, then observes it', async () => {
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: (_q, res, n) =>
        n < 3
          ? sendJson(res, 409, {
              error: 'run_state_conflict',
              message: 'wait',
              details: { runStatus: 'running' },
            })
          : summary(_q, res, n),
    });
    expect(d.result.kind).toBe('observed');
    expect(d.requests.filter((r) => r.path === `${RUN}/eval-summary`)).toHaveLength(3);
  });

  it('a 404 on create is a host fault quoting status, error and message of the v2 envelope', async () => {
    const d = await drive({
      'POST /runs': (_q, res) =>
        sendJson(res, 404, { error: 'not_found', message: 'unknown suite' }),
    });
    expect(d.result).toEqual({
      kind: 'host-fault',
      stage: 'create',
      reason: 'POST /runs answered 404 not_found: unknown suite',
    });
    expect(d.requests).toHaveLength(1);
  });

  it('a refused create whose body is not the envelope still shows that body in the reason', async () => {
    const d = await drive({
      'POST /runs': (_q, res) =>
        sendJson(res, 422, { error: { code: 'capability_not_provided', message: 'no evals' } }),
    });
    expect(d.result).toEqual({
      kind: 'host-fault',
      stage: 'create',
      reason:
        'POST /runs answered 422 with the body {"error":{"code":"capability_not_provided","message":"no evals"}}',
    });
  });

  it('records every error answer and every OpenWOP-Version header, per call', async () => {
    const conflict = {
      error: 'run_state_conflict',
      message: 'wait',
      details: { runStatus: 'running' },
    };
    const d = await drive({
      'POST /runs': (_q, res) =>
        sendV2(res, 201, { runId: 'acme/run-1', status: 'running', eventsUrl: '/e' }),
      [`GET ${RUN}/events/poll`]: (_q, res) =>
        sendJson(
          res,
          200,
          {
            runId: 'acme/run-1',
            events: [
              { ...event(0, 'agent.decided'), payload: ['a'] },
              { sequence: 1, type: 'agent.decided', runId: 'acme/run-1', extra: true },
              event(2, 'run.completed', { outputs: { answer: 'kept out' } }),
              event(3, 'run.completed', { output: {} }),
              'not an event',
            ],
            lastSequence: 1,
            status: 'completed',
            isTerminal: true,
          },
          V2_HEADERS,
        ),
      [`GET ${RUN}`]: (_q, res) =>
        sendJson(
          res,
          200,
          { runId: 'acme/run-1', status: 'completed' },
          { 'openwop-version': '1.11' },
        ),
      [`GET ${RUN}/eval-summary`]: (_q, res, n) =>
        n < 3 ? sendJson(res, 409, conflict) : sendJson(res, 200, SUMMARY),
    });
    expect(d.result.kind).toBe('observed');
    if (d.result.kind !== 'observed') return;
    const o = d.result.observation;
    expect(o.created).toEqual({ runId: 'acme/run-1', status: 'running', eventsUrl: '/e' });
    expect(o.events.map((e) => e.envelope)).toEqual([
      { json: 'object', members: { eventId: 'e0', timestamp: 't' }, payload: 'array' },
      { json: 'object', members: { extra: true }, payload: 'absent' },
      {
        json: 'object',
        members: { eventId: 'e2', timestamp: 't' },
        payload: 'object',
        outputs: 'object',
      },
      {
        json: 'object',
        members: { eventId: 'e3', timestamp: 't' },
        payload: 'object',
        outputs: 'absent',
      },
      { json: 'string' },
    ]);
    // A payload outside eval.* is kept only as its JSON type; run.completed's outputs too.
    expect(o.events[0]).not.toHaveProperty('payload');
    expect(JSON.stringify(o.events)).not.toContain('kept out');
    expect(o.errors).toEqual({
      kinds: [
        {
          call: 'summary',
          status: 409,
          count: 2,
          samples: [{ json: conflict }, { json: conflict }],
        },
      ],
      omitted: 0,
    });
    expect(o.versions).toEqual({
      kinds: [
        { call: 'create', value: '2.0', count: 1 },
        // The first read and the three replays (after 0, 1 and 2).
        { call: 'events', value: '2.0', count: 4 },
        { call: 'summary', value: null, count: 3 },
        { call: 'status', value: '1.11', count: 1 },
      ],
      omitted: 0,
    });
  });

  it('a request cut by the run deadline after a refusal says the last answer', async () => {
    // The second summary request hangs and the run deadline, shorter than the request's, cuts it.
    const runMs = paced(600);
    const bounds = { ...BOUNDS, requestTimeoutMs: paced(2_000), runTimeoutMs: runMs };
    const d = await drive(
      {
        'POST /runs': created,
        [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
        [`GET ${RUN}/eval-summary`]: (_q, res, n) =>
          n === 1 ? sendJson(res, 429, {}, { 'retry-after': '0' }) : undefined,
      },
      bounds,
    );
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'summary',
      reason: `summary not served within ${runMs} ms; last answer 429`,
    });
  });

  it('reads the status after the summary, so a status lagging the 409 finalisation is not seen', async () => {
    let summaryServed = false;
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
      // The host finishes the run's record a moment after its log: until the summary is served,
      // the run still reads as running.
      [`GET ${RUN}`]: (q, res, n) =>
        summaryServed
          ? completed(q, res, n)
          : sendJson(res, 200, { runId: 'acme/run-1', status: 'running' }),
      [`GET ${RUN}/eval-summary`]: (q, res, n) => {
        if (n === 1) {
          sendJson(res, 409, {
            error: 'run_state_conflict',
            message: 'finalising',
            details: { runStatus: 'running' },
          });
          return;
        }
        summaryServed = true;
        summary(q, res, n);
      },
    });
    expect(d.result.kind).toBe('observed');
    if (d.result.kind !== 'observed') return;
    expect(d.result.observation.runStatus).toBe('completed');
    expect(d.requests.filter((r) => r.path === RUN)).toHaveLength(1);
  });

  it('a 401 on create is unobserved: a refused key is a fact about the suite', async () => {
    const d = await drive({
      'POST /runs': (_q, res) =>
        sendJson(res, 401, { error: 'unauthenticated', message: 'bad key' }),
    });
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'create',
      reason: "answered 401: the host rejected the suite's credentials; check OPENWOP_API_KEY",
    });
    expect(d.requests).toHaveLength(1);
  });

  it('a 403 on the summary is unobserved, not a host fault', async () => {
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: (_q, res) =>
        sendJson(res, 403, { error: 'forbidden', message: 'no access' }),
    });
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'summary',
      reason: "answered 403: the host rejected the suite's credentials; check OPENWOP_API_KEY",
    });
  });

  it('a 201 without a string runId is a host fault', async () => {
    const d = await drive({ 'POST /runs': (_q, res) => sendJson(res, 201, { status: 'running' }) });
    expect(d.result).toEqual({
      kind: 'host-fault',
      stage: 'create',
      reason: 'POST /runs answered 201 without a string runId',
    });
  });

  it('a 503 with Retry-After is retried after the capped delay, then the run proceeds', async () => {
    const d = await drive({
      'POST /runs': (q, res, n) =>
        n === 1 ? sendJson(res, 503, {}, { 'retry-after': '30' }) : created(q, res, n),
      [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: summary,
    });
    expect(d.result.kind).toBe('observed');
    expect(d.requests.filter((r) => r.path === '/runs')).toHaveLength(2);
    // Retry-After 30 s is capped to retryAfterCapMs (200 ms), well inside the run bound.
    expect(d.elapsedMs).toBeGreaterThanOrEqual(190);
    expect(d.elapsedMs).toBeLessThan(paced(1_500));
  });

  it('a create that stays 429 ends unobserved at the run deadline', async () => {
    const runMs = paced(400);
    const bounds = { ...BOUNDS, runTimeoutMs: runMs };
    const d = await drive({ 'POST /runs': (_q, res) => sendJson(res, 429, {}) }, bounds);
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'create',
      reason: `POST /runs not accepted within ${runMs} ms; last answer 429`,
    });
    expect(d.elapsedMs).toBeLessThan(paced(1_000));
  });

  it('a log that never turns terminal ends unobserved within the run bound', async () => {
    const bounds = { ...BOUNDS, runTimeoutMs: 600 };
    const d = await drive(
      { 'POST /runs': created, [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [], false) },
      bounds,
    );
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'events',
      reason: 'run not terminal within 600 ms',
    });
    expect(d.elapsedMs).toBeLessThan(paced(1_200));
    // Empty pages answered at once are paced by the backoff, not hammered.
    expect(polls(d).length).toBeLessThanOrEqual(6);
  });

  it('paces a host that ignores the long-poll timeout by the backoff schedule', async () => {
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (_q, res, n) =>
        n <= 3 ? page(res, [], false) : page(res, [event(1, 'eval.completed')], true),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: summary,
    });
    expect(d.result.kind).toBe('observed');
    // Then the replays after the one event (1) and past it (2).
    expect(cursors(d)).toEqual([null, null, null, null, '1', '2']);
    const waited = BACKOFF.initialMs * (1 + BACKOFF.factor + BACKOFF.factor ** 2);
    expect(d.elapsedMs).toBeGreaterThanOrEqual(waited - 10);
  });

  it('stops following a log whose sequence goes backwards and still reads status and summary', async () => {
    const d = await drive({
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: (_q, res, n) =>
        n === 1
          ? page(res, [event(1, 'eval.started'), event(2, 'eval.scored')], false)
          : page(res, [event(2, 'eval.scored')], false),
      [`GET ${RUN}`]: completed,
      [`GET ${RUN}/eval-summary`]: summary,
    });
    const o = observed(d);
    expect(o.events.map((e) => e.sequence)).toEqual([1, 2, 2]);
    expect(o.pages.map((p) => p.afterSequence)).toEqual([null, 2]);
    // Every replay stops at the repeat too: no poll the observation does not record.
    const replayPages = (o.replays ?? []).flatMap((r) => r.pages);
    expect(replayPages.map((p) => p.afterSequence)).toEqual([1, 2, 2, 3]);
    expect(polls(d)).toHaveLength(2 + replayPages.length);
  });

  it('a summary served as 404 or as non-JSON is a host fault', async () => {
    const base = {
      'POST /runs': created,
      [`GET ${RUN}/events/poll`]: ((_q, res) =>
        page(res, [event(1, 'eval.completed')], true)) as Route,
      [`GET ${RUN}`]: completed,
    };
    const missing = await drive({
      ...base,
      [`GET ${RUN}/eval-summary`]: (_q, res) =>
        sendJson(res, 404, { error: 'not_found', message: 'not an eval run' }),
    });
    expect(missing.result).toEqual({
      kind: 'host-fault',
      stage: 'summary',
      reason: `GET ${RUN}/eval-summary answered 404 not_found: not an eval run`,
    });
    const garbled = await drive({
      ...base,
      [`GET ${RUN}/eval-summary`]: (_q, res) => res.writeHead(200).end('<p>'),
    });
    expect(garbled.result).toEqual({
      kind: 'host-fault',
      stage: 'summary',
      reason: `GET ${RUN}/eval-summary answered 200 with a body that is not JSON (not valid JSON)`,
    });
  });

  it('a summary that stays 409 ends unobserved at the run deadline', async () => {
    const runMs = paced(500);
    const bounds = { ...BOUNDS, runTimeoutMs: runMs };
    // The drive's clock passes the run deadline once the host has said 409 three times, so the
    // driver's own deadline path ends the retries without the test waiting on wall time.
    let late = false;
    const d = await drive(
      {
        'POST /runs': created,
        [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
        [`GET ${RUN}`]: completed,
        [`GET ${RUN}/eval-summary`]: (_q, res, n) => {
          if (n >= 3) late = true;
          sendJson(res, 409, {});
        },
      },
      bounds,
      () => Date.now() + (late ? runMs : 0),
    );
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'summary',
      reason: `summary not served within ${runMs} ms; last answer 409`,
    });
    expect(d.requests.filter((r) => r.path === `${RUN}/eval-summary`)).toHaveLength(3);
  });

  it('a status request that gets no answer ends unobserved with the transport message', async () => {
    const requestMs = paced(200);
    const bounds = { ...BOUNDS, requestTimeoutMs: requestMs };
    const d = await drive(
      {
        'POST /runs': created,
        [`GET ${RUN}/events/poll`]: (_q, res) => page(res, [event(1, 'eval.completed')], true),
        [`GET ${RUN}/eval-summary`]: summary,
        [`GET ${RUN}`]: () => undefined,
      },
      bounds,
    );
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'status',
      reason: `GET ${RUN}: timed out after ${requestMs} ms`,
    });
  });
});

describe('the replays: the finished log is re-read through the cursor', () => {
  const host = (poll: Route): Readonly<Record<string, Route>> => ({
    'POST /runs': created,
    [`GET ${RUN}/events/poll`]: poll,
    [`GET ${RUN}`]: completed,
    [`GET ${RUN}/eval-summary`]: summary,
  });

  it('a fast host whose log arrives in one page is still sent a mid-log cursor, its last sequence and one past it', async () => {
    const d = await drive(host(served(LOG, 100)));
    expect(cursors(d)).toEqual([null, '2', '4', '5']);
    const replays = observed(d).replays ?? [];
    expect(replays.map((r) => [r.cursor, r.afterSequence, r.events.length])).toEqual([
      ['mid-log', 2, 2],
      ['last-sequence', 4, 0],
      ['past-end', 5, 0],
    ]);
    expect(replays[0]?.events).toEqual([
      { sequence: 3, eventId: 'e3', type: 'eval.completed' },
      { sequence: 4, eventId: 'e4', type: 'run.completed' },
    ]);
  });

  it('the replays are made after the summary and the status are read', async () => {
    const d = await drive(host(served(LOG, 100)));
    const order = d.requests.map((r) =>
      r.path === RUN ? 'status' : r.path.endsWith('/eval-summary') ? 'summary' : r.path,
    );
    expect(order.slice(-5)).toEqual([
      'summary',
      'status',
      `${RUN}/events/poll`,
      `${RUN}/events/poll`,
      `${RUN}/events/poll`,
    ]);
  });

  it('a replay follows the pages as usual: one event a page is read to the end', async () => {
    const d = await drive(host(served(LOG, 1)));
    expect(cursors(d)).toEqual([null, '0', '1', '2', '3', '2', '3', '4', '5']);
    expect(observed(d).replays?.[0]?.pages.map((p) => p.isTerminal)).toEqual([false, true]);
  });

  it('a host that ignores the cursor is recorded as it answered, each replay stopped at the repeat', async () => {
    const d = await drive(host((_q, res) => page(res, LOG, true)));
    const replays = observed(d).replays ?? [];
    expect(replays.map((r) => r.events.map((e) => e.sequence))).toEqual([
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
    ]);
    expect(polls(d)).toHaveLength(4);
  });

  it('a replay answered 400 is recorded as a refusal for the witness, and the drive still observes', async () => {
    const d = await drive(
      host((q, res, n) =>
        q.query.get('afterSequence') === '5'
          ? sendJson(res, 400, { error: 'validation_error', message: 'past the end' })
          : served(LOG, 100)(q, res, n),
      ),
    );
    expect(observed(d).replays?.[2]).toEqual({
      cursor: 'past-end',
      afterSequence: 5,
      pages: [],
      events: [],
      refusal: `GET ${RUN}/events/poll answered 400 validation_error: past the end`,
    });
  });

  it('an empty replay page that is not terminal ends the replay instead of waiting out the deadline', async () => {
    const d = await drive(
      host((q, res, n) =>
        q.query.get('afterSequence') === null ? served(LOG, 100)(q, res, n) : page(res, [], false),
      ),
    );
    expect(observed(d).replays?.map((r) => r.pages.map((p) => p.isTerminal))).toEqual([
      [false],
      [false],
      [false],
    ]);
    expect(d.elapsedMs).toBeLessThan(BOUNDS.runTimeoutMs);
  });

  it('a transport loss during a replay is unobserved, never a verdict', async () => {
    const d = await drive(
      host((q, res, n) =>
        q.query.get('afterSequence') === null ? served(LOG, 100)(q, res, n) : res.destroy(),
      ),
    );
    expect(d.result).toMatchObject({ kind: 'unobserved', stage: 'events' });
  });

  it('a replay that gets no answer ends unobserved within the run deadline, naming the replay', async () => {
    const runMs = paced(700);
    const bounds = { ...BOUNDS, requestTimeoutMs: paced(2_000), runTimeoutMs: runMs };
    const d = await drive(
      host((q, res, n) =>
        q.query.get('afterSequence') === null ? served(LOG, 100)(q, res, n) : undefined,
      ),
      bounds,
    );
    expect(d.result).toEqual({
      kind: 'unobserved',
      stage: 'events',
      reason: `the replay of the log after 2 not answered within ${runMs} ms`,
    });
    expect(d.elapsedMs).toBeLessThan(paced(1_500));
  });

  it('a first read with no integer sequence leaves nothing to replay from', async () => {
    const d = await drive(
      host((_q, res) =>
        page(res, [{ ...event(0, 'eval.started'), sequence: 'zero' as unknown as number }], true),
      ),
    );
    expect(observed(d).replays).toEqual([]);
    expect(polls(d)).toHaveLength(1);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-10-16T12:00:00Z');
  it.each<[string | undefined, number | undefined]>([
    ['2', 2_000],
    ['120', 5_000],
    ['Fri, 16 Oct 2026 12:00:03 GMT', 3_000],
    ['Fri, 16 Oct 2026 11:00:00 GMT', 0],
    ['soon', undefined],
    [undefined, undefined],
  ])('reads %j as %j ms under a 5 s cap', (value, ms) => {
    expect(retryAfterMs(value, 5_000, now)).toBe(ms);
  });
});
