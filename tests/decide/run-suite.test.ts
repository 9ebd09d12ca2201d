// The run engine (lib/decide/run-suite.ts) against loopback hosts: every leg starts at once, the
// host checks borrow the tenant of a run the host minted (and make no unknown-run probe when none
// was minted), a waiting run is reported while it waits, a lost create is blocked with the same
// reason whoever sent it, a fixture that fails to load never has a run created, and the first poll
// of a run follows its create at once.

import { describe, expect, it } from 'vitest';
import { readConfig, type SuiteConfig } from '../../lib/env.ts';
import { driveEvalRun, SYSTEM_CLOCK } from '../../lib/observe/driver.ts';
import type { HostClient, HostResponse } from '../../lib/observe/host-client.ts';
import { encodeRunId } from '../../lib/observe/host-client.ts';
import type { LegDefinition } from '../../lib/legs.ts';
import { legById, LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import { runSuite } from '../../lib/decide/run-suite.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';

const API_KEY = 'run-suite-test-key-0246';
const HOST_LEGS = LEGS.filter((leg) => leg.fixtureId !== undefined);
const MEAN = legById('openwop.requirement.0246.mean-gated');
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';
const DISCOVERY = {
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents: { evalSuite: { modes: ['golden'], trajectory: {}, trials: {} } },
  fixtures: [MEAN_FIXTURE],
};
const PROGRESS =
  /^waiting: [a-z-]+ (no run yet|run \S+: \d+ events), waiting for .+ \(\d+ s of \d+ s\)$/;

function configFor(url: string, extra: Record<string, string> = {}): SuiteConfig {
  return readConfig(
    { OPENWOP_BASE_URL: url, OPENWOP_API_KEY: API_KEY, OPENWOP_RUN_TIMEOUT_MS: '30000', ...extra },
    { envFile: false },
  );
}

const tenantOf = (runId: string): string => runId.slice(0, runId.indexOf('/'));

describe('the run engine', () => {
  it('starts every leg at once, reports the waiting runs, and probes beside a minted run', async () => {
    const runDelayMs = 1_500;
    const intervalMs = 250;
    const host = await startReferenceHost({ apiKey: API_KEY, runDelayMs });
    try {
      const lines: string[] = [];
      const began = Date.now();
      const run = await runSuite(configFor(host.url), {
        onProgress: (line) => lines.push(line),
        progressIntervalMs: intervalMs,
      });
      const wall = Date.now() - began;
      const afterEnd = lines.length;

      expect(run.outcomes.map((o) => o.requirement)).toEqual(LEGS.map((l) => l.id));
      expect(run.outcomes.map((o) => o.disposition)).toEqual(LEGS.map(() => 'executed-pass'));
      // One after another, the host legs would take at least HOST_LEGS.length run delays.
      expect(wall).toBeLessThan(runDelayMs * 6);
      expect(HOST_LEGS.length * runDelayMs).toBeGreaterThan(runDelayMs * 6);

      const runIds = run.outcomes.flatMap((o) =>
        o.observation === undefined ? [] : [o.observation.runId],
      );
      expect(runIds).toHaveLength(HOST_LEGS.length);
      const probe = run.hostChecks?.probes.find((p) => p.probe === 'unknown-run');
      expect(probe?.outcome).toBe('answered');
      const tenant = tenantOf(runIds[0] ?? '');
      expect(tenant).not.toBe('');
      expect(probe !== undefined && 'request' in probe ? probe.request : '').toContain(
        `/runs/${encodeRunId(`${tenant}/`)}`,
      );

      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(PROGRESS);
      expect(lines.some((line) => runIds.some((id) => line.includes(`run ${id}: `)))).toBe(true);
      // Nothing is waiting any more: a progress timer left running would print within a few
      // intervals.
      await new Promise((done) => setTimeout(done, intervalMs * 3));
      expect(lines).toHaveLength(afterEnd);
    } finally {
      await host.close();
    }
  });

  it('makes no unknown-run probe when no leg created a run, and says why', async () => {
    const server = await startScriptedServer((req, res) =>
      req.path === '/.well-known/openwop'
        ? sendJson(res, 200, { ...DISCOVERY, fixtures: [] })
        : sendJson(res, 404, { error: 'not_found', message: 'nothing here' }),
    );
    try {
      const run = await runSuite(configFor(server.url));
      const hostLegs = run.outcomes.filter(
        (o) => o.requirement !== 'openwop.requirement.0246.gated-fields-shape',
      );
      expect(new Set(hostLegs.map((o) => o.disposition))).toEqual(new Set(['inapplicable']));
      const probe = run.hostChecks?.probes.find((p) => p.probe === 'unknown-run');
      expect(probe).toEqual({
        probe: 'unknown-run',
        outcome: 'not-made',
        reason: 'the host returned no run id this run, so its tenant is unknown',
      });
    } finally {
      await server.close();
    }
  });

  it('skips the legs a selection leaves out without a request for their runs', async () => {
    const host = await startReferenceHost({ apiKey: API_KEY });
    try {
      const run = await runSuite(configFor(host.url), { selected: (id) => id === MEAN.id });
      const driven = run.outcomes
        .filter((o) => o.observation !== undefined)
        .map((o) => o.requirement);
      expect(driven).toEqual([MEAN.id]);
      expect(run.outcomes.filter((o) => o.disposition === 'skipped')).toHaveLength(LEGS.length - 1);
      expect(
        new Set(run.outcomes.filter((o) => o.requirement !== MEAN.id).map((o) => o.reason)),
      ).toEqual(new Set(['not selected']));
    } finally {
      await host.close();
    }
  });
});

describe('a leg run by the engine', () => {
  it('blocks a create lost in transport, naming the stage and the request', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.path === '/.well-known/openwop') return sendJson(res, 200, DISCOVERY);
      res.destroy();
      return undefined;
    });
    try {
      const target = await openTarget(configFor(server.url, { OPENWOP_RUN_TIMEOUT_MS: '3000' }));
      const outcome = await runLeg(MEAN, target);
      await target?.client.close();
      expect(outcome.disposition).toBe('blocked');
      expect(outcome.reason).toMatch(/^could not observe the run \(create\): POST \/runs: /);
    } finally {
      await server.close();
    }
  });

  it('has no run created for it when its fixture fails to load', async () => {
    const missing: LegDefinition = { ...MEAN, id: 'test.missing-fixture', fixtureId: 'no-such' };
    const server = await startScriptedServer((req, res) =>
      req.path === '/.well-known/openwop'
        ? sendJson(res, 200, { ...DISCOVERY, fixtures: ['no-such'] })
        : sendJson(res, 500, { error: 'unexpected', message: 'no run was expected' }),
    );
    try {
      const target = await openTarget(configFor(server.url));
      const outcome = await runLeg(missing, target);
      await target?.client.close();
      expect(outcome.disposition).toBe('blocked');
      expect(outcome.reason).toMatch(/^the suite's fixture failed to load: /);
      expect(server.requests.filter((r) => r.path === '/runs')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the first poll of a run', () => {
  const answer = (status: number, json: unknown): HostResponse => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
  });

  it('is sent before any timer can fire once the create is answered: no wait is scheduled', async () => {
    let timerFired = false;
    let firstPollAfterTimer: boolean | undefined;
    const client: HostClient = {
      baseUrl: 'http://127.0.0.1:1',
      post: () => {
        // Scheduled as the create is answered: a drive that waited any time before its first
        // poll would let this fire first.
        setTimeout(() => (timerFired = true), 0);
        return Promise.resolve(answer(201, { runId: 't/r-1' }));
      },
      get: (path) => {
        if (path.endsWith('/events/poll')) firstPollAfterTimer ??= timerFired;
        return Promise.resolve(answer(404, { error: 'not_found', message: 'gone' }));
      },
      close: () => Promise.resolve(),
    };
    const bounds = configFor('http://127.0.0.1:1').bounds;
    await driveEvalRun(client, { evalSuiteRef: 's@1', agentId: 'a' }, bounds);
    expect(firstPollAfterTimer).toBe(false);
  });

  it('reaches a loopback host within a second of the run id coming back, under any load', async () => {
    let polledAt: number | undefined;
    const server = await startScriptedServer((req, res) => {
      if (req.path.endsWith('/events/poll')) polledAt ??= performance.now();
      if (req.path === '/runs') return sendJson(res, 201, { runId: 't/r-1' });
      return sendJson(res, 404, { error: 'not_found', message: 'gone' });
    });
    try {
      const config = configFor(server.url);
      const target = await openTarget(config);
      if (target === undefined) throw new Error('a base URL was given, so a target opens');
      let createdAt: number | undefined;
      await driveEvalRun(
        target.client,
        { evalSuiteRef: 's@1', agentId: 'a' },
        config.bounds,
        SYSTEM_CLOCK,
        undefined,
        {
          created: () => (createdAt = performance.now()),
        },
      );
      await target.client.close();
      if (createdAt === undefined || polledAt === undefined)
        throw new Error('the run was not created and polled');
      // The test above holds the 300 ms bound on what the code schedules (nothing); this one
      // measures a real loopback round, on a shared machine, so its bound is wider.
      expect(polledAt - createdAt).toBeLessThan(1_000);
    } finally {
      await server.close();
    }
  });
});
