// The suite against a conformant host it was not written beside: tests/support/oracle-host.ts
// grades with the property tests' oracle and shares no code with lib/ or reference-host/. Every
// leg must pass it, non-vacuously, in strict mode; and the host must really have the habits that
// make it a different host, or passing it would prove nothing.

import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LegOutcome } from '../../lib/types.ts';
import { startOracleHost } from '../support/oracle-host.ts';
import type { OracleHost, OracleHostOptions } from '../support/oracle-host.ts';
import { expectEveryLegPassed, HANG_GUARD_MS, runEveryLeg } from '../support/run-every-leg.ts';

const MEAN_REF = 'conformance.evals.trajectory-gate-mean@1.0.0';

let host: OracleHost;
let apiKey: string;

beforeEach(async () => {
  apiKey = randomBytes(18).toString('base64url');
  host = await startOracleHost({ apiKey, seed: 246 });
});
afterEach(async () => {
  await host.close();
});

const allLegs = (pollTimeoutS = 2): Promise<readonly LegOutcome[]> =>
  runEveryLeg(host.url, apiKey, pollTimeoutS);

async function call(
  path: string,
  init: RequestInit = {},
  headers: Record<string, string> = {},
): Promise<[number, unknown, Headers]> {
  const response = await fetch(`${host.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    signal: AbortSignal.timeout(5_000),
  });
  return [response.status, await response.json(), response.headers];
}

async function createMeanRun(): Promise<string> {
  const [status, body] = await call('/runs', {
    method: 'POST',
    body: JSON.stringify({
      mode: 'eval',
      evalSuiteRef: MEAN_REF,
      agentId: 'core.conformance.eval-scripted-agent',
    }),
  });
  expect(status).toBe(201);
  return (body as { runId: string }).runId;
}

interface Page {
  readonly events: readonly { sequence: number; eventId: string; type: string }[];
  readonly isTerminal: boolean;
}

/** Host timings to pass under, and the long-poll timeout the suite asks for. */
const SETTINGS: readonly (readonly [string, Omit<OracleHostOptions, 'apiKey'>, number])[] = [
  ['default timing', { seed: 246 }, 2],
  ['no gaps and no jitter', { seed: 7, eventGapMs: 0, jitterMs: 0 }, 2],
  ['slow appends and late answers', { seed: 99, eventGapMs: 20, jitterMs: 12 }, 2],
  ['the shortest hold a suite may ask', { seed: 5, throttleEvery: 2 }, 1],
  // The contract fixes which tasks a summary lists; their order is a SHOULD (suite order, from the
  // published EvalSummary), so a host that reverses them still passes every leg, and warns.
  [
    'summary tasks in reverse order',
    { seed: 11, mutate: (s) => ({ ...s, tasks: s.tasks.toReversed() }) },
    2,
  ],
];

describe('the suite against an independent conformant host', () => {
  it.each(SETTINGS)(
    'every leg passes in strict mode on host data (%s)',
    { timeout: HANG_GUARD_MS },
    async (_, options, poll) => {
      await host.close();
      host = await startOracleHost({ apiKey, ...options });
      // Not even a SHOULD warns, but the one the reversed summary breaks: the host is conformant
      // down to the [0244-assumed] details.
      const reversed = options.mutate !== undefined;
      const outcomes = await allLegs(poll);
      const driven = expectEveryLegPassed(outcomes, reversed ? ['wire.summary-task-order'] : []);
      if (reversed) {
        const warned = outcomes.flatMap((o) => o.findings.filter((f) => !f.ok).map((f) => f.rule));
        expect(warned.length).toBeGreaterThan(0);
      }
      // Each driven leg saw the host's own habits: a tenant-bound run id and the log paged in pieces.
      for (const observation of driven) {
        expect(observation.runId).toMatch(/^acme-tenant-7\/[0-9a-f-]{36}$/);
        expect(observation.pages.length).toBeGreaterThan(2);
        // And its cursor was re-driven on the finished log: mid-log, last sequence, past the end.
        expect(observation.replays?.map((r) => r.cursor)).toEqual([
          'mid-log',
          'last-sequence',
          'past-end',
        ]);
      }
      // Some of the creates were refused with 429 first, and the suite asked again.
      expect(host.counts()).toMatchObject({ runs: driven.length });
      expect(host.counts().throttled).toBeGreaterThan(0);
    },
  );
});

describe('the oracle host keeps habits the reference host does not', () => {
  it('pages a tenant-bound run id from sequence 0 in steps of 7, a few events at a time', async () => {
    const runId = await createMeanRun();
    const pages: Page[] = [];
    let after: number | undefined;
    for (let i = 0; i < 200 && pages.at(-1)?.isTerminal !== true; i += 1) {
      const query = `timeout=2${after === undefined ? '' : `&afterSequence=${after}`}`;
      const [status, body] = await call(`/runs/${encodeURIComponent(runId)}/events/poll?${query}`);
      expect(status).toBe(200);
      const page = body as Page;
      pages.push(page);
      after = page.events.at(-1)?.sequence ?? after;
    }
    const events = pages.flatMap((p) => p.events);
    expect(pages.at(-1)?.isTerminal).toBe(true);
    expect(Math.max(...pages.map((p) => p.events.length))).toBeLessThanOrEqual(4);
    expect(new Set(pages.map((p) => p.events.length)).size).toBeGreaterThan(1);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => 7 * i));
    expect(events.every((e) => /^[0-9a-f-]{36}$/.test(e.eventId))).toBe(true);
    expect(events.some((e) => e.type.startsWith('agent.'))).toBe(true);
  });

  it('holds a poll until the next append instead of answering empty at once', async () => {
    const runId = await createMeanRun();
    const [, body] = await call(`/runs/${encodeURIComponent(runId)}/events/poll?timeout=5`);
    expect((body as Page).events.length).toBeGreaterThan(0);
  });

  it('answers 409 run_state_conflict for the summary while the run is going and 404 for a raw slashed id', async () => {
    const runId = await createMeanRun();
    const [early, body] = await call(`/runs/${encodeURIComponent(runId)}/eval-summary`);
    expect([early, body]).toMatchObject([409, { error: 'run_state_conflict' }]);
    expect((body as { details: { runStatus: unknown } }).details.runStatus).toMatch(
      /pending|running/,
    );
    const [raw] = await call(`/runs/${runId}`);
    expect(raw).toBe(404);
  });

  it('refuses a run without the bearer key and an unknown suite', async () => {
    const anonymous = await fetch(`${host.url}/runs`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(5_000),
    });
    expect(anonymous.status).toBe(401);
    const [status, body] = await call('/runs', {
      method: 'POST',
      body: JSON.stringify({ mode: 'eval', evalSuiteRef: 'x.evals.y@1.0.0', agentId: 'a' }),
    });
    expect([status, body]).toMatchObject([404, { error: 'not_found' }]);
  });
});

describe('the oracle host speaks published v2 on the wire', () => {
  it('carries OpenWOP-Version 2.0 on every answer, refusals included', async () => {
    const runId = await createMeanRun();
    const answers = await Promise.all([
      call('/.well-known/openwop'),
      call(`/runs/${encodeURIComponent(runId)}`),
      call('/runs/nobody~2Fnothing-here-at-all'),
      call('/runs', { method: 'POST', body: '{' }),
    ]);
    expect(answers.map(([status]) => status)).toEqual([200, 200, 404, 400]);
    expect(answers.map(([, , headers]) => headers.get('openwop-version'))).toEqual(
      answers.map(() => '2.0'),
    );
    expect(answers[3]?.[1]).toMatchObject({
      error: 'validation_error',
      message: expect.any(String),
    });
  });

  it('addresses a run by its %2F and its ~2F segment alike and refuses a stray ~', async () => {
    const runId = await createMeanRun();
    const [percent, byPercent] = await call(`/runs/${encodeURIComponent(runId)}`);
    const [tilde, byTilde] = await call(`/runs/${runId.replace('/', '~2F')}`);
    expect([percent, tilde]).toEqual([200, 200]);
    expect([byPercent, byTilde]).toMatchObject([{ runId }, { runId }]);
    const [stray, body] = await call(`/runs/${runId.replace('/', '~zz')}`);
    expect([stray, body]).toMatchObject([400, { error: 'validation_error' }]);
  });

  it('hands out an eventsUrl in the ~2F projection for the run it created', async () => {
    const [status, body] = await call('/runs', {
      method: 'POST',
      body: JSON.stringify({
        mode: 'eval',
        evalSuiteRef: MEAN_REF,
        agentId: 'core.conformance.eval-scripted-agent',
      }),
    });
    const answer = body as { runId: string; status: string; eventsUrl: string };
    expect([status, answer.status]).toEqual([201, 'pending']);
    expect(answer.eventsUrl).toBe(`${host.url}/runs/${answer.runId.replace('/', '~2F')}/events`);
    // The URL leads to the log as server-sent events, each frame's id its sequence.
    const stream = await fetch(answer.eventsUrl, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(5_000),
    });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await stream.text()).trim().split('\n\n');
    const docs = frames.map(
      (f) => JSON.parse(f.split('\n')[2]?.slice(6) ?? 'null') as Page['events'][number],
    );
    expect(frames.map((f) => f.split('\n')[0])).toEqual(docs.map((_, i) => `id: ${7 * i}`));
    expect(docs.at(-1)?.type).toBe('run.completed');
  });

  it('refuses a protocol version it does not list with 406 protocol_version_unsupported', async () => {
    const [status, body] = await call('/.well-known/openwop', {}, { 'openwop-version': '3.0' });
    expect([status, body]).toMatchObject([406, { error: 'protocol_version_unsupported' }]);
  });
});
