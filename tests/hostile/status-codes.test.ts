// Hosts that answer with errors or redirects. 429 and 5xx are retried until the run deadline,
// honouring Retry-After up to its cap; when they never stop, the run was not served within the
// bound, which is `blocked` (contract §9). A redirect is never followed: where the contract asks
// for an answer, a 3xx is the host answering wrongly (`executed-fail`), and on discovery it leaves
// discovery unreadable (`blocked`). The bearer key must never reach another origin.

import { beforeAll, describe, expect, it } from 'vitest';
import { BACKOFF } from '../../lib/observe/driver.ts';
import type { HostileOptions, Override } from '../support/hostile-host.ts';
import {
  correctSummary,
  expectOutcome,
  HOSTILE_BOUNDS,
  runOnHostileHost,
  warmUp,
} from '../support/hostile-host.ts';
import type { ScriptedServer } from '../support/scripted-server.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';

beforeAll(warmUp);

const KEY = 'sk-test-DO-NOT-LEAK-4242';

const against = (options: HostileOptions, now?: () => number) =>
  runOnHostileHost(options, now === undefined ? { apiKey: KEY } : { apiKey: KEY, now });

const refusal = (status: number, retryAfter: string | undefined) => {
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'retry-after': retryAfter };
  const code =
    status === 429 ? 'rate_limited' : status === 409 ? 'run_state_conflict' : 'internal_error';
  return {
    body: {
      error: code,
      message: 'try later',
      ...(status === 409 ? { details: { runStatus: 'running' } } : {}),
    },
    headers,
  };
};

const within = `within ${HOSTILE_BOUNDS.runTimeoutMs} ms`;
const DEADLINE = {
  create: new RegExp(`\\(create\\): POST /runs not accepted ${within}`),
  poll: new RegExp(`\\(events\\): run not terminal ${within}`),
  summary: new RegExp(`\\(summary\\): summary not served ${within}`),
} as const;

const inOneHour = () => new Date(Date.now() + 3_600_000).toUTCString();

/**
 * Refusals a route answers before the leg's clock passes the run deadline: two waits between
 * retries to measure. The leg reads the real time until then, so every wait is the suite's own,
 * and the deadline is then reached by the suite's own path at once, however busy the machine.
 */
const REFUSALS = 3;

/** Timers may fire a millisecond before their delay as performance.now reads it. */
const TIMER_SLACK_MS = 2;

const gaps = (times: readonly number[]): number[] =>
  times.slice(1).map((t, i) => t - (times[i] as number));

describe.concurrent('errors that never stop block the leg at the run deadline', () => {
  // Every status appears with and without Retry-After, and every route is hit.
  it.each([
    ['create', 500, 'none'],
    ['create', 502, '1'],
    ['poll', 502, 'none'],
    ['poll', 503, '3600'],
    ['summary', 503, 'none'],
    ['summary', 429, '0'],
    ['summary', 500, 'date'],
    ['poll', 429, 'none'],
    // 409 is "not yet" on the summary (contract §6), retried like a refusal.
    ['summary', 409, 'none'],
  ] as const)(
    '%s answering %i (Retry-After %s) forever is blocked',
    async (route, status, hint) => {
      const retryAfter = hint === 'date' ? inOneHour() : hint === 'none' ? undefined : hint;
      const { body, headers } = refusal(status, retryAfter);
      const answered: number[] = [];
      let late = false;
      const refuse: Override = ({ call, response }) => {
        answered.push(performance.now());
        if (call >= REFUSALS) late = true;
        return sendJson(response, status, body, headers);
      };
      const now = () => Date.now() + (late ? HOSTILE_BOUNDS.runTimeoutMs : 0);
      const { run, host } = await against({ routes: { [route]: refuse } }, now);
      expectOutcome(run, 'blocked', DEADLINE[route], new RegExp(`last answer ${status}$`));
      const calls = host.calls(route);
      expect(calls).toBe(REFUSALS);
      // Retried, but never faster than the first backoff step, even when told `Retry-After: 0`;
      // a long hint is capped, not obeyed (uncapped, the deadline would come before a retry), yet
      // waited out up to its cap.
      const least =
        retryAfter === undefined || retryAfter === '0'
          ? BACKOFF.initialMs
          : HOSTILE_BOUNDS.retryAfterCapMs;
      for (const gap of gaps(answered)) expect(gap).toBeGreaterThanOrEqual(least - TIMER_SLACK_MS);
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(calls).toBeLessThanOrEqual(HOSTILE_BOUNDS.runTimeoutMs / 50 + 2);
      if (retryAfter !== undefined && retryAfter !== '0') {
        // A long hint is capped, not obeyed: the suite asks again after retryAfterCapMs.
        expect(calls).toBeLessThanOrEqual(
          HOSTILE_BOUNDS.runTimeoutMs / HOSTILE_BOUNDS.retryAfterCapMs + 2,
        );
      }
    },
  );

  it('one refusal on each route, then correct answers, still passes: a retry is not a verdict', async () => {
    const once =
      (status: number): Override =>
      ({ call, response, correct }) =>
        call === 1
          ? sendJson(response, status, refusal(status, '0').body, { 'retry-after': '0' })
          : correct();
    const { run, host } = await against({
      routes: { create: once(503), poll: once(429), summary: once(502) },
    });
    expect(run.outcome.disposition, run.outcome.reason).toBe('executed-pass');
    expect(host.calls('create')).toBe(2);
    expect(host.calls('summary')).toBe(2);
  });
});

describe.concurrent('redirects are answers, never followed', () => {
  async function withElsewhere<T>(use: (elsewhere: ScriptedServer) => Promise<T>): Promise<T> {
    // The other origin would serve a passing summary: following the redirect could earn a pass.
    const elsewhere = await startScriptedServer((_, response) =>
      sendJson(response, 200, correctSummary()),
    );
    try {
      return await use(elsewhere);
    } finally {
      await elsewhere.close();
    }
  }

  it.each([
    ['create', 307, 'POST /runs answered 307'],
    ['summary', 302, '/eval-summary answered 302'],
    ['poll', 308, '/events/poll answered 308'],
  ] as const)(
    '%s redirecting (%i) to another origin is executed-fail and the key stays home',
    async (route, status, said) => {
      await withElsewhere(async (elsewhere) => {
        const redirect: Override = ({ response }) => {
          response.writeHead(status, { location: `${elsewhere.url}/runs/run-1/eval-summary` });
          response.end();
        };
        const { run, host } = await against({
          routes: { [route]: redirect },
        });
        expectOutcome(run, 'executed-fail', /run\.served/, said);
        expect(elsewhere.requests).toHaveLength(0);
        // The key was in play: the host itself received it.
        expect(host.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
        expect(JSON.stringify(run.outcome)).not.toContain(KEY);
      });
    },
  );

  it('a summary redirected to the same origin is executed-fail, though the target is correct', async () => {
    const { run, host } = await against({
      routes: {
        summary: ({ response }) => {
          response.writeHead(307, { location: '/moved/summary' });
          response.end();
        },
        other: ({ response }) => sendJson(response, 200, correctSummary()),
      },
    });
    expectOutcome(run, 'executed-fail', /run\.served/, /answered 307/);
    expect(host.calls('other')).toBe(0);
  });

  it('discovery redirected to another origin is blocked as unreadable', async () => {
    await withElsewhere(async (elsewhere) => {
      const { run } = await against({
        routes: {
          discovery: ({ response }) => {
            response.writeHead(301, { location: `${elsewhere.url}/.well-known/openwop` });
            response.end();
          },
        },
      });
      expectOutcome(run, 'blocked', /discovery unreadable/, /answered 301/);
      expect(elsewhere.requests).toHaveLength(0);
    });
  });
});
