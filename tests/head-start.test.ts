// Runs created before vitest starts (lib/decide/head-start.ts) save time and nothing else: a leg that
// replays its recorded POST /runs reaches the disposition, and the reason, it would have reached
// creating the run itself; a leg that would not drive never has a run created for it.

import { describe, expect, it } from 'vitest';
import { forgetDiscoveries } from '../lib/observe/discovery.ts';
import { readConfig } from '../lib/env.ts';
import type { HeadStart } from '../lib/decide/leg-target.ts';
import { replayingClient, startRuns } from '../lib/decide/head-start.ts';
import type { HostClient } from '../lib/observe/host-client.ts';
import type { LegDefinition } from '../lib/legs.ts';
import { LEGS, legById } from '../lib/legs.ts';
import type { LegTarget } from '../lib/decide/leg-target.ts';
import { runLeg } from '../lib/decide/run-leg.ts';
import { openTarget } from '../lib/decide/target.ts';
import { startReferenceHost } from '../reference-host/index.ts';
import { sendJson, startScriptedServer } from './support/scripted-server.ts';

const API_KEY = 'head-start-test-key-0246';
const HOST_LEGS = LEGS.filter((leg) => leg.fixtureId !== undefined);
const MEAN = legById('openwop.requirement.0246.mean-gated');
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';
const FULL_DISCOVERY = {
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents: { evalSuite: { modes: ['golden'], trajectory: {}, trials: {} } },
  fixtures: [MEAN_FIXTURE],
};

/** The same client, counting the POST /runs that reach the host. */
function counting(client: HostClient): { client: HostClient; posts: () => number } {
  let posts = 0;
  return {
    client: {
      baseUrl: client.baseUrl,
      get: (path, options) => client.get(path, options),
      post: (path, body, options) => {
        if (path === '/runs') posts += 1;
        return client.post(path, body, options);
      },
      close: () => client.close(),
    },
    posts: () => posts,
  };
}

async function openCounted(
  url: string,
  headStarts: readonly HeadStart[] = [],
): Promise<{ target: LegTarget; posts: () => number }> {
  forgetDiscoveries();
  const config = readConfig(
    { OPENWOP_BASE_URL: url, OPENWOP_API_KEY: API_KEY, OPENWOP_RUN_TIMEOUT_MS: '10000' },
    { envFile: false },
  );
  const opened = await openTarget(config, { headStarts });
  if (opened === undefined) throw new Error('a base URL was given, so a target must open');
  const count = counting(opened.client);
  return { target: { ...opened, client: count.client }, posts: count.posts };
}

describe('head start', () => {
  it('every host leg replays its early run and ends as it does creating the run itself', async () => {
    const host = await startReferenceHost({
      apiKey: API_KEY,
      defect: 'gated-fields-but-old-passed',
    });
    try {
      const early = await openCounted(host.url);
      const starts = await startRuns(early.target, LEGS);
      await early.target.client.close();
      expect(starts.map((s) => s.legId)).toEqual(HOST_LEGS.map((l) => l.id));
      expect(early.posts()).toBe(HOST_LEGS.length);

      const replayed = await openCounted(host.url, starts);
      const withHead = await Promise.all(HOST_LEGS.map((leg) => runLeg(leg, replayed.target)));
      await replayed.target.client.close();
      expect(replayed.posts()).toBe(0);

      const live = await openCounted(host.url);
      const without = await Promise.all(HOST_LEGS.map((leg) => runLeg(leg, live.target)));
      await live.target.client.close();
      expect(live.posts()).toBe(HOST_LEGS.length);

      const verdict = (o: (typeof without)[number]) => [o.requirement, o.disposition, o.reason];
      expect(withHead.map(verdict)).toEqual(without.map(verdict));
      // The defect fails at least one leg, so the comparison covers a failure as well as passes.
      expect(without.map((o) => o.disposition)).toContain('executed-fail');
    } finally {
      await host.close();
      forgetDiscoveries();
    }
  });

  it('a run created early counts in the leg time from the moment it was created', async () => {
    const host = await startReferenceHost({ apiKey: API_KEY, runDelayMs: 300 });
    try {
      const early = await openCounted(host.url);
      const [start] = await startRuns(early.target, [MEAN]);
      await early.target.client.close();
      if (start === undefined) throw new Error('the mean leg drives, so it has a head start');
      await new Promise((done) => setTimeout(done, 400));
      const replayed = await openCounted(host.url, [start]);
      const outcome = await runLeg(MEAN, replayed.target);
      await replayed.target.client.close();
      expect(outcome.disposition).toBe('executed-pass');
      expect(outcome.durationMs).toBeGreaterThanOrEqual(400);
    } finally {
      await host.close();
      forgetDiscoveries();
    }
  });

  it('a recorded transport error replays as the same blocked reason a live one gives', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.path === '/.well-known/openwop') return sendJson(res, 200, FULL_DISCOVERY);
      res.destroy();
      return undefined;
    });
    try {
      const early = await openCounted(server.url);
      const starts = await startRuns(early.target, [MEAN]);
      await early.target.client.close();
      expect(starts.map((s) => s.answer.kind)).toEqual(['transport-error']);

      const replayed = await openCounted(server.url, starts);
      const fromRecord = await runLeg(MEAN, replayed.target);
      await replayed.target.client.close();
      const live = await openCounted(server.url);
      const fromHost = await runLeg(MEAN, live.target);
      await live.target.client.close();

      expect(replayed.posts()).toBe(0);
      expect(fromRecord.disposition).toBe('blocked');
      expect(fromRecord.reason).toBe(fromHost.reason);
      expect(fromRecord.reason).toMatch(/^could not observe the run \(create\): POST \/runs: /);
    } finally {
      await server.close();
      forgetDiscoveries();
    }
  });

  it('a leg whose fixture fails to load has no run created for it, early or late', async () => {
    const missing: LegDefinition = { ...MEAN, id: 'test.missing-fixture', fixtureId: 'no-such' };
    const server = await startScriptedServer((req, res) =>
      req.path === '/.well-known/openwop'
        ? sendJson(res, 200, { ...FULL_DISCOVERY, fixtures: ['no-such'] })
        : sendJson(res, 500, { error: { code: 'unexpected', message: 'no run was expected' } }),
    );
    try {
      const early = await openCounted(server.url);
      expect(await startRuns(early.target, [missing])).toEqual([]);
      const outcome = await runLeg(missing, early.target);
      await early.target.client.close();
      expect(outcome.disposition).toBe('blocked');
      expect(outcome.reason).toMatch(/^the suite's fixture failed to load: /);
      expect(server.requests.filter((r) => r.path === '/runs')).toEqual([]);
    } finally {
      await server.close();
      forgetDiscoveries();
    }
  });

  it('a leg its own gates stop ignores the head start it was given', async () => {
    const server = await startScriptedServer((_req, res) =>
      sendJson(res, 200, { ...FULL_DISCOVERY, fixtures: [] }),
    );
    try {
      const start: HeadStart = {
        legId: MEAN.id,
        startedAt: 0,
        body: '{}',
        answer: { kind: 'response', response: { status: 201, headers: {}, text: '', json: {} } },
      };
      const gated = await openCounted(server.url, [start]);
      const outcome = await runLeg(MEAN, gated.target);
      await gated.target.client.close();
      expect(outcome.disposition).toBe('inapplicable');
      // Timed from the epoch (the head start's startedAt) it would read some fifty years.
      expect(outcome.durationMs).toBeLessThan(60_000);
    } finally {
      await server.close();
      forgetDiscoveries();
    }
  });
});

describe('replayingClient', () => {
  const recorded = { status: 503, headers: {}, text: 'busy', json: undefined };
  const start: HeadStart = {
    legId: MEAN.id,
    startedAt: 0,
    body: JSON.stringify({ mode: 'eval', agentId: 'a' }),
    answer: { kind: 'response', response: recorded },
  };
  const live = { status: 201, headers: {}, text: '{}', json: {} };
  const underlying = (): HostClient & { sent: string[] } => {
    const sent: string[] = [];
    return {
      sent,
      baseUrl: 'http://127.0.0.1:1',
      get: async (path) => (sent.push(`GET ${path}`), live),
      post: async (path, body) => (sent.push(`POST ${path} ${JSON.stringify(body)}`), live),
      close: async () => undefined,
    };
  };

  it('answers the first identical POST /runs from the record and sends a retry to the host', async () => {
    const host = underlying();
    const client = replayingClient(host, start);
    expect(await client.post('/runs', { mode: 'eval', agentId: 'a' })).toBe(recorded);
    expect(await client.post('/runs', { mode: 'eval', agentId: 'a' })).toBe(live);
    expect(host.sent).toEqual([`POST /runs ${start.body}`]);
  });

  it('sends a POST /runs with another body, and every GET, to the host', async () => {
    const host = underlying();
    const client = replayingClient(host, start);
    await client.post('/runs', { mode: 'eval', agentId: 'b' });
    await client.get('/runs/x');
    expect(host.sent).toEqual(['POST /runs {"mode":"eval","agentId":"b"}', 'GET /runs/x']);
  });
});
