// The run budget and the repeated-fault stop, driven by events, never by the clock: a host whose
// runs never finish holds a run only until its budget is spent (here, spent by the test once the
// host has seen every run it will see), and a host that refuses every run the same way stops the
// pack after FAULT_STREAK_CASES cases, counted at the host.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, type SuiteConfig } from '../../lib/env.ts';
import { LEGS } from '../../lib/legs.ts';
import { runSuite } from '../../lib/decide/run-suite.ts';
import { recomputeGeneratedRow, runGeneratedLeg } from '../../lib/decide/generated-leg.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { FAULT_STREAK_CASES, FaultStreak } from '../../lib/decide/fault-streak.ts';
import { notRun, type RunBudget } from '../../lib/decide/run-budget.ts';
import { PackTally } from '../../lib/decide/pack-tally.ts';
import { blocked, type Decision } from '../../lib/decide/decide.ts';
import type { GeneratedCaseRecord, LegOutcome } from '../../lib/types.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import {
  sendErrorEnvelope,
  sendV2,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/scripted-server.ts';
import { packDir } from '../generate/pack-drive.ts';

const API_KEY = 'run-budget-test-key-0246';
const PACK = { count: 12, seed: 1 } as const;
const HOST_LEGS = LEGS.filter((leg) => leg.fixtureId !== undefined);
const SHAPE_LEGS = LEGS.filter((leg) => leg.fixtureId === undefined);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The reference host's discovery for the shipped fixtures and the pack: every gate opens. */
async function discoveryWithPack(): Promise<unknown> {
  const pack = await packDir(PACK.count, PACK.seed);
  cleanups.push(pack.remove);
  const host = await startReferenceHost({ apiKey: API_KEY, extraFixturesDirs: [pack.dir] });
  try {
    const answer = await fetch(`${host.url}/.well-known/openwop`);
    return (await answer.json()) as unknown;
  } finally {
    await host.close();
  }
}

/** A host serving `discovery` whose `POST /runs` is `onCreate`'s; every other route is 404. */
async function hostWith(
  discovery: unknown,
  onCreate: (request: RecordedRequest, response: ServerResponse, n: number) => void,
  onPoll: (response: ServerResponse) => void = (response) =>
    sendErrorEnvelope(response, 404, 'not_found', 'no such run'),
): Promise<ScriptedServer> {
  let creates = 0;
  const server = await startScriptedServer((request, response) => {
    if (request.path === '/.well-known/openwop') return sendV2(response, 200, discovery);
    if (request.method === 'POST' && request.path === '/runs') {
      creates += 1;
      return onCreate(request, response, creates);
    }
    if (request.path.endsWith('/events/poll')) return onPoll(response);
    return sendErrorEnvelope(response, 404, 'not_found', 'no such route');
  });
  cleanups.push(() => server.close());
  return server;
}

function strictConfig(url: string, extra: Record<string, string> = {}): SuiteConfig {
  return resolveConfig({
    OPENWOP_BASE_URL: url,
    OPENWOP_API_KEY: API_KEY,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    ...extra,
  });
}

/** The suites the host was asked to run with the key, in the order asked (not the probes). */
function suitesAsked(server: ScriptedServer): string[] {
  return server.requests
    .filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/runs' &&
        r.headers.authorization === `Bearer ${API_KEY}`,
    )
    .map((r) => String((JSON.parse(r.body) as { evalSuiteRef?: unknown }).evalSuiteRef));
}

/** The cases a pack row holds inline (the engine writes no sidecar when it is given no sink). */
function inlineCases(row: LegOutcome): readonly GeneratedCaseRecord[] {
  const record = row.generated;
  if (record === undefined || !('cases' in record)) throw new Error('no inline cases on the row');
  return record.cases;
}

describe('the run budget', () => {
  it('ends a run on a host that never finishes: unfinished legs and cases blocked, the rest not run', async () => {
    const discovery = await discoveryWithPack();
    const spend = new AbortController();
    const budget: RunBudget = { label: '10m', signal: spend.signal };
    let hostWorks = false;
    let created = 0;
    // Spent once every hand leg and the first cases of the pack have created their runs and the
    // legs that only judge the shipped schemas could be decided: an event, not an hour.
    const spendWhenAllAsked = (): void => {
      if (hostWorks && created === HOST_LEGS.length + FAULT_STREAK_CASES) {
        setImmediate(() => setImmediate(() => spend.abort()));
      }
    };
    const host = await hostWith(
      discovery,
      (_request, response, n) => {
        sendV2(response, 201, { runId: `never-${n}` });
        created = n;
        spendWhenAllAsked();
      },
      // The log never ends: a poll is held until the client gives up on it.
      () => undefined,
    );
    const run = await runSuite(strictConfig(host.url, { OPENWOP_RUN_TIMEOUT_MS: '3600000' }), {
      pack: PACK,
      budget,
      whileHostWorks: () => {
        hostWorks = true;
        spendWhenAllAsked();
      },
    });

    const byId = new Map(run.outcomes.map((o) => [o.requirement, o]));
    for (const leg of HOST_LEGS) {
      expect(byId.get(leg.id)).toMatchObject({
        disposition: 'blocked',
        assertions: 0,
        reason: 'the run budget of 10m was spent before this leg finished',
      });
    }
    for (const leg of SHAPE_LEGS) expect(byId.get(leg.id)?.disposition).toBe('executed-pass');

    const pack = run.outcomes.at(-1) as LegOutcome;
    expect(pack).toMatchObject({
      disposition: 'blocked',
      assertions: 0,
      reason: `the run budget of 10m was spent; ${PACK.count - FAULT_STREAK_CASES} of ${PACK.count} generated fixtures not run`,
    });
    const cases = inlineCases(pack);
    expect(cases.map((c) => [c.disposition, c.reason])).toEqual([
      ...Array.from({ length: FAULT_STREAK_CASES }, () => [
        'blocked',
        'the run budget of 10m was spent before this case finished',
      ]),
      ...Array.from({ length: PACK.count - FAULT_STREAK_CASES }, () => [
        'blocked',
        'not run: the run budget of 10m was spent',
      ]),
    ]);
    // Nothing was asked of the host once the budget was spent.
    expect(suitesAsked(host)).toHaveLength(HOST_LEGS.length + FAULT_STREAK_CASES);
  });
});

describe('a host fault that repeats', () => {
  const CREDENTIALS =
    "could not observe the run (create): answered 401: the host rejected the suite's credentials; check OPENWOP_API_KEY";

  it.each([4, 8])(
    'stops the pack after %i in flight once the first cases are all blocked the same way',
    async (concurrency) => {
      const discovery = await discoveryWithPack();
      const host = await hostWith(discovery, (_request, response) =>
        sendErrorEnvelope(response, 401, 'unauthorized', 'bad key'),
      );
      const config = strictConfig(host.url);
      const target = await openTarget(config);
      cleanups.push(async () => target?.client.close());
      const outcome = await runGeneratedLeg({ ...PACK, concurrency }, target);

      const stopped = `pack stopped after ${FAULT_STREAK_CASES} cases: every one blocked: ${CREDENTIALS}`;
      expect(outcome).toMatchObject({
        disposition: 'blocked',
        assertions: 0,
        reason: `${stopped}; ${PACK.count - FAULT_STREAK_CASES} of ${PACK.count} generated fixtures not run`,
      });
      const cases = inlineCases(outcome);
      expect(cases.map((c) => c.reason)).toEqual([
        ...Array.from({ length: FAULT_STREAK_CASES }, () => CREDENTIALS),
        ...Array.from({ length: PACK.count - FAULT_STREAK_CASES }, () => `not run: ${stopped}`),
      ]);
      expect(suitesAsked(host)).toHaveLength(FAULT_STREAK_CASES);

      // verify decides the stopped pack again from its records alone, to the same row.
      const record = outcome.generated;
      if (record === undefined || !('cases' in record)) throw new Error('no inline record');
      const again = await recomputeGeneratedRow(
        record,
        { ok: true, document: discovery },
        { strict: true, optedOut: [] },
      );
      expect(again.problems).toEqual([]);
      expect(again.decision.disposition).toBe(outcome.disposition);
      expect(again.decision.reason).toBe(outcome.reason);
      expect(again.record).toEqual(record);
    },
  );
});

describe('a pack with cases not run', () => {
  it('fails on a failing case that ran and still says once why the rest did not', () => {
    const tally = new PackTally({ count: 3, seed: 1, keepEveryFinding: true });
    const failed = {
      disposition: 'executed-fail',
      assertions: 1,
      reason: 'bad',
      findings: [
        { rule: 'suite.passed', ok: false, severity: 'MUST', ref: 'RFC 0246 §B', message: 'bad' },
      ],
    } as const;
    const at = (n: number, decision: Decision) => ({
      fixtureId: `generated-s1-n000${n}`,
      seed: 1,
      file: `generated-s1-n000${n}.json`,
      decision,
    });
    tally.add(at(1, failed));
    tally.add(at(2, notRun('the run budget of 1m was spent')));
    tally.add(at(3, notRun('the run budget of 1m was spent')));
    const decision = tally.decision();
    expect(decision.disposition).toBe('executed-fail');
    expect(decision.reason).toMatch(
      /^1 of 3 generated fixtures failed: .*\. the run budget of 1m was spent; 2 of 3 generated fixtures not run$/,
    );
  });
});

describe('the fault streak', () => {
  const pass: Decision = { disposition: 'executed-pass', assertions: 1, findings: [] };
  const admitAll = async (streak: FaultStreak, n: number): Promise<boolean[]> => {
    const out: boolean[] = [];
    for (let i = 0; i < n; i += 1) out.push((await streak.admit()).start);
    return out;
  };

  it('stops once the first cases are all blocked with one reason', async () => {
    const streak = new FaultStreak(3);
    expect(await admitAll(streak, 3)).toEqual([true, true, true]);
    for (let i = 0; i < 3; i += 1) streak.decided(blocked('reset'));
    expect(streak.stopped).toBe('pack stopped after 3 cases: every one blocked: reset');
    expect(await streak.admit()).toEqual({ start: false, why: streak.stopped });
  });

  it('holds the next case until one is decided, and runs on once one is decided otherwise', async () => {
    const streak = new FaultStreak(2);
    await admitAll(streak, 2);
    let third: boolean | undefined;
    const waiting = streak.admit().then((a) => (third = a.start));
    await Promise.resolve();
    expect(third).toBeUndefined();
    streak.decided(blocked('reset'));
    await Promise.resolve();
    expect(third).toBeUndefined();
    streak.decided(pass);
    await waiting;
    expect(third).toBe(true);
    for (let i = 0; i < 5; i += 1) streak.decided(blocked('reset'));
    expect(streak.stopped).toBeUndefined();
    expect(await admitAll(streak, 5)).toEqual([true, true, true, true, true]);
  });

  it('is broken by two different reasons, and a spent budget ends a case waiting to start', async () => {
    const streak = new FaultStreak(2);
    await admitAll(streak, 2);
    streak.decided(blocked('reset'));
    streak.decided(blocked('timed out'));
    expect(streak.stopped).toBeUndefined();
    expect((await streak.admit()).start).toBe(true);

    const held = new FaultStreak(1);
    await admitAll(held, 1);
    const budget = { spent: undefined as string | undefined };
    const waiting = held.admit(() => budget.spent);
    budget.spent = 'the run budget of 1m was spent';
    held.wake();
    expect(await waiting).toEqual({ start: false, why: budget.spent });
  });
});
