// The provoked refusals (lib/observe/probes.ts, lib/decide/host-checks.ts) against scripted
// loopback hosts: what each probe sends (the keyless one no Authorization at all, the wrong-key
// one a token that names itself and is not the key, the near-miss ones tokens made from the key
// and scrubbed from every answer, the others the key to the target alone), what is recorded of each answer, a lost answer kept as unobserved
// within the deadline, and the probes not sent when the suite has no grounds for them.

import { describe, expect, it } from 'vitest';
import { checkHost } from '../../lib/decide/host-checks.ts';
import type { DiscoveryResult } from '../../lib/observe/discovery.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import {
  EVAL_SUITE_ADVERTISED,
  madeUpRunId,
  provokeRefusals,
  unknownRunId,
  unknownSuiteRef,
  wrongKey,
} from '../../lib/observe/probes.ts';
import type { ProbeGrounds } from '../../lib/observe/probes.ts';
import {
  NEAR_MISS_KINDS,
  NEAR_MISS_WORDS,
  NoNearMissToken,
  nearMissKey,
} from '../../lib/observe/near-miss-keys.ts';
import { HOST_PROBES } from '../../lib/host-probes.ts';
import type { ObservedProbe } from '../../lib/types.ts';
import type { Handler, RecordedRequest } from '../support/scripted-server.ts';
import { paced } from '../support/machine-pace.ts';
import { sendErrorEnvelope, sendJson, startScriptedServer } from '../support/scripted-server.ts';
import {
  expectedProbeOutcomes,
  probeRequestCount,
  probeRules,
  rulesOfRefusals,
} from '../support/probe-outcomes.ts';

/** A key configured, a run id the host returned, and agents.evalSuite advertised. */
const EVERY_GROUND = { keyConfigured: true, runIdKnown: true, evalSuiteAdvertised: true };
/** The probes whose every answer the first test states; any other is held to its outcome. */
const NAMED_PROBES: readonly string[] = [
  'no-credentials',
  'wrong-credentials',
  'near-miss-last-character',
  'near-miss-extended',
  'near-miss-case-flipped',
  'near-miss-truncated',
  'unknown-run',
  'unknown-suite',
  'unadvertised-summary',
];

const KEY = 'sk-probe-key-0123456789';
const NONCE = '00000000deadbeef';
const RUN = 'acme/run-0000000000000042';

/** A v2 host that refuses each probe as the contract says. */
const CORRECT: Handler = (req, res) => {
  if (req.headers.authorization !== `Bearer ${KEY}`) {
    sendErrorEnvelope(res, 401, 'unauthenticated', 'a bearer key is required');
  } else {
    sendErrorEnvelope(res, 404, 'not_found', 'no such thing');
  }
};

/**
 * The probe and request deadline, which every answer the host does give must beat, and the one a
 * lost answer runs into: both stretched by the pace this process runs at, so a busy machine does
 * not turn a slow answer into a lost one.
 */
const PROBE_MS = paced(500);
const LOST_MS = paced(300);

async function probe(
  handler: Handler,
  grounds: Partial<ProbeGrounds> = {},
): Promise<{ probes: readonly ObservedProbe[]; requests: readonly RecordedRequest[] }> {
  const server = await startScriptedServer(handler);
  const client = createHostClient({
    baseUrl: server.url,
    apiKey: KEY,
    requestTimeoutMs: PROBE_MS,
    maxBodyBytes: 64 * 1024,
  });
  try {
    const probes = await provokeRefusals(
      client,
      {
        keyConfigured: true,
        knownRunId: RUN,
        evalSuiteAdvertised: true,
        timeoutMs: PROBE_MS,
        ...grounds,
      },
      NONCE,
    );
    return { probes, requests: server.requests };
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the probes a run sends', () => {
  it('sends a keyless create, a wrong-key create, the summary of an unknown run in the known tenant, and an unknown-suite create', async () => {
    const { probes, requests } = await probe(CORRECT);
    const body = { mode: 'eval', evalSuiteRef: unknownSuiteRef(NONCE), agentId: 'no-such-agent' };
    const sent = requests.map((r) => [r.method, r.path, r.headers.authorization, r.body]);
    expect(sent).toHaveLength(probeRequestCount(EVERY_GROUND));
    // The near-miss tokens, each the key missed one way; the scripted host saw them, the probes
    // record none of them.
    for (const token of [
      'sk-probe-key-012345678A',
      `${KEY}A`,
      'SK-PROBE-KEY-0123456789',
      'sk-probe-key-012345678',
    ]) {
      expect(sent).toContainEqual(['POST', '/runs', `Bearer ${token}`, JSON.stringify(body)]);
      expect(JSON.stringify(probes)).not.toContain(token);
    }
    expect(sent).toContainEqual(['POST', '/runs', undefined, JSON.stringify(body)]);
    expect(sent).toContainEqual([
      'POST',
      '/runs',
      'Bearer openwop-eval-gate.not-the-key.00000000deadbeef',
      JSON.stringify(body),
    ]);
    expect(sent).toContainEqual([
      'GET',
      '/runs/acme%2Fprobe-00000000deadbeef/eval-summary',
      `Bearer ${KEY}`,
      '',
    ]);
    expect(sent).toContainEqual(['POST', '/runs', `Bearer ${KEY}`, JSON.stringify(body)]);
    expect(probes.map((p) => [p.probe, p.outcome])).toEqual(expectedProbeOutcomes(EVERY_GROUND));
    expect(probes.filter((p) => NAMED_PROBES.includes(p.probe))).toEqual([
      {
        probe: 'no-credentials',
        outcome: 'answered',
        request: 'POST /runs',
        status: 401,
        body: { json: { error: 'unauthenticated', message: 'a bearer key is required' } },
      },
      ...[
        'wrong-credentials',
        'near-miss-last-character',
        'near-miss-extended',
        'near-miss-case-flipped',
        'near-miss-truncated',
      ].map((name) => ({
        probe: name,
        outcome: 'answered',
        request: 'POST /runs',
        status: 401,
        body: { json: { error: 'unauthenticated', message: 'a bearer key is required' } },
      })),
      {
        probe: 'unknown-run',
        outcome: 'answered',
        request: 'GET /runs/acme%2Fprobe-00000000deadbeef/eval-summary',
        status: 404,
        body: { json: { error: 'not_found', message: 'no such thing' } },
      },
      {
        probe: 'unknown-suite',
        outcome: 'answered',
        request: 'POST /runs',
        status: 404,
        body: { json: { error: 'not_found', message: 'no such thing' } },
      },
      {
        probe: 'unadvertised-summary',
        outcome: 'inapplicable',
        reason: EVAL_SUITE_ADVERTISED,
      },
    ]);
  });

  it('asks a host that does not advertise agents.evalSuite for the summary that capability gates, with the key', async () => {
    const { probes, requests } = await probe(CORRECT, { evalSuiteAdvertised: false });
    expect(requests).toHaveLength(
      probeRequestCount({ ...EVERY_GROUND, evalSuiteAdvertised: false }),
    );
    const summaries = requests.filter((r) => r.path.endsWith('/eval-summary'));
    expect(summaries.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/runs/acme%2Fprobe-00000000deadbeef/eval-summary', `Bearer ${KEY}`],
      ['GET', '/runs/acme%2Fprobe-00000000deadbeef/eval-summary', `Bearer ${KEY}`],
    ]);
    expect(probes.find((p) => p.probe === 'unadvertised-summary')).toEqual({
      probe: 'unadvertised-summary',
      outcome: 'answered',
      request: 'GET /runs/acme%2Fprobe-00000000deadbeef/eval-summary',
      status: 404,
      body: { json: { error: 'not_found', message: 'no such thing' } },
    });
  });

  it('asks about a bare made-up run id when the host minted none', async () => {
    const { probes, requests } = await probe(CORRECT, {
      evalSuiteAdvertised: false,
      knownRunId: undefined,
    });
    expect(requests.filter((r) => r.path.endsWith('/eval-summary')).map((r) => r.path)).toEqual([
      '/runs/probe-00000000deadbeef/eval-summary',
    ]);
    expect(madeUpRunId(undefined, NONCE)).toBe('probe-00000000deadbeef');
    expect(madeUpRunId(RUN, NONCE)).toBe('acme/probe-00000000deadbeef');
    expect(probes.map((p) => [p.probe, p.outcome])).toEqual(
      expectedProbeOutcomes({ keyConfigured: true, runIdKnown: false, evalSuiteAdvertised: false }),
    );
  });

  it('the unknown suite has the published suite-id grammar, and the unknown run the tenant-bound one', () => {
    const [suiteId, version] = unknownSuiteRef(NONCE).split('@');
    expect(suiteId).toMatch(/^[a-z0-9.-]+\.evals\.[a-z0-9-]+$/);
    expect(version).toBe('0.0.0');
    expect(unknownRunId('anon:guest-7/abcdefabcdefabcdef', NONCE)).toBe(
      'anon:guest-7/probe-00000000deadbeef',
    );
    // A host minting bare ids gets a bare unknown id, resolved under the caller's tenant.
    expect(unknownRunId('run-000000000001', NONCE)).toBe('probe-00000000deadbeef');
  });

  it('the wrong key is never the key, never holds it, and says what it is', () => {
    expect(wrongKey(NONCE)).not.toBe(KEY);
    expect(wrongKey(NONCE)).not.toContain(KEY);
    expect(wrongKey(NONCE)).toMatch(/not-the-key/);
    // The host client refuses to send the key itself in the wrong key's place.
    const client = createHostClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: KEY,
      requestTimeoutMs: PROBE_MS,
      maxBodyBytes: 1024,
    });
    return expect(client.post('/runs', {}, { wrongBearer: KEY })).rejects.toThrow(
      'the wrong-key probe was handed the key itself',
    );
  });

  it('records a body that is not JSON by why, and a 2xx answer as it came', async () => {
    const { probes } = await probe((req, res) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) sendJson(res, 201, { runId: 'x' });
      else {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>no</h1>');
      }
    });
    // Every request without the key is served; every one with it meets the HTML page.
    const withKey = (p: (typeof HOST_PROBES)[number]): boolean =>
      p.request.send !== 'create' || p.request.credential.send === 'key';
    expect(probes.map((p) => (p.outcome === 'answered' ? [p.status, p.body] : p.outcome))).toEqual(
      HOST_PROBES.map((p) =>
        p.request.send === 'unadvertised-summary'
          ? 'inapplicable'
          : withKey(p)
            ? [404, { notJson: 'not valid JSON' }]
            : [201, { json: { runId: 'x' } }],
      ),
    );
  });

  it('keeps a lost answer as unobserved, within the probe deadline', async () => {
    const started = Date.now();
    const { probes } = await probe(
      (req, res) => {
        if (req.path === '/runs' && req.headers.authorization === `Bearer ${KEY}`) return; // never answers
        CORRECT(req, res);
      },
      { timeoutMs: LOST_MS },
    );
    expect(Date.now() - started).toBeLessThan(paced(5_000));
    const lost = probes.find((p) => p.probe === 'unknown-suite');
    expect(lost).toEqual({
      probe: 'unknown-suite',
      outcome: 'unobserved',
      request: 'POST /runs',
      reason: `POST /runs: timed out after ${LOST_MS} ms`,
    });
  });

  it('sends no credential probe without a configured key, and no unknown-run probe without a run id', async () => {
    const { probes, requests } = await probe(CORRECT, {
      keyConfigured: false,
      knownRunId: undefined,
    });
    const expected = expectedProbeOutcomes({
      keyConfigured: false,
      runIdKnown: false,
      evalSuiteAdvertised: true,
    });
    // Only the creates that carry the key are sent: today the unknown suite's alone.
    expect(requests).toHaveLength(expected.filter(([, outcome]) => outcome === 'answered').length);
    expect(probes.map((p) => [p.probe, p.outcome])).toEqual(expected);
    // Each says why it was not sent, in the words of what it would have shown.
    expect(probes.slice(0, 7).map((p) => ('reason' in p ? p.reason : ''))).toEqual([
      'no API key is configured, so a request without one shows nothing',
      'no API key is configured, so the host is not expected to check one',
      'no API key is configured, so there is no key to miss narrowly',
      'no API key is configured, so there is no key to miss narrowly',
      'no API key is configured, so there is no key to miss narrowly',
      'no API key is configured, so there is no key to miss narrowly',
      'the host returned no run id this run, so its tenant is unknown',
    ]);
  });
});

describe('the host checks of a run', () => {
  const V2: DiscoveryResult = {
    ok: true,
    document: {
      protocolVersions: ['2.0'],
      preferredVersion: '2.0',
      agents: { status: 'stable', since: '2.0', witness: 'witnessable-gated', evalSuite: {} },
    },
    sha256: '',
    text: '',
    versionHeader: '2.0',
  };

  /** V2 without agents.evalSuite: the summary it gates is an unadvertised operation. */
  const WITHHELD: DiscoveryResult = {
    ...V2,
    document: {
      protocolVersions: ['2.0'],
      preferredVersion: '2.0',
      agents: { status: 'stable', since: '2.0', witness: 'witnessable-gated' },
    },
  } as DiscoveryResult;

  async function check(
    discovery: DiscoveryResult,
    handler: Handler = CORRECT,
    /** null: the host minted no run this run. */
    known: string | null = RUN,
  ) {
    const server = await startScriptedServer(handler);
    const client = createHostClient({
      baseUrl: server.url,
      apiKey: KEY,
      requestTimeoutMs: PROBE_MS,
      maxBodyBytes: 4096,
    });
    try {
      const checks = await checkHost({
        client,
        discovery,
        keyConfigured: true,
        knownRunId: known ?? undefined,
        timeoutMs: PROBE_MS,
      });
      return { checks, requests: server.requests.length };
    } finally {
      await client.close();
      await server.close();
    }
  }

  it('a correct host holds every check, nothing goes unexercised, and the unadvertised operation is inapplicable', async () => {
    const { checks } = await check(V2);
    expect(checks.findings.filter((f) => !f.ok)).toEqual([]);
    expect(checks.findings.map((f) => f.rule)).toEqual([
      'wire.discovery',
      ...rulesOfRefusals(EVERY_GROUND),
    ]);
    expect(checks.unexercised).toEqual([]);
    expect(checks.inapplicable).toEqual([
      { rule: 'wire.unadvertised-operation-not-found', reason: EVAL_SUITE_ADVERTISED },
    ]);
  });

  it('a host without agents.evalSuite that answers the gated summary 404 holds the rule', async () => {
    const { checks } = await check(WITHHELD);
    expect(checks.inapplicable).toEqual([]);
    const judged = checks.findings.filter(
      (f) => f.rule === 'wire.unadvertised-operation-not-found',
    );
    expect(judged.map((f) => [f.ok, f.severity])).toEqual([[true, 'SHOULD']]);
  });

  it('a host without agents.evalSuite that refuses the gated summary 422 capability_not_provided fails the rule, naming the status', async () => {
    const refusing: Handler = (req, res) => {
      if (req.headers.authorization === `Bearer ${KEY}` && req.path.endsWith('/eval-summary')) {
        sendErrorEnvelope(res, 422, 'capability_not_provided', 'no eval suites here');
      } else CORRECT(req, res);
    };
    // A host without the capability mints no eval run, so the unknown-run probe is not sent.
    const { checks } = await check(WITHHELD, refusing, null);
    const failed = checks.findings.filter((f) => !f.ok);
    expect(failed.map((f) => [f.rule, f.ref])).toEqual([
      [
        'wire.unadvertised-operation-not-found',
        'contract §6, openwop/openwop spec/v2/core/runs.md',
      ],
    ]);
    expect(failed[0]?.message).toMatch(
      /SHOULD be answered 404; the status is at fault: it was answered 422 \(error "capability_not_provided"\)/,
    );
  });

  it('sends nothing to a host without major 2, and says so for each refusal rule', async () => {
    const v1: DiscoveryResult = {
      ...V2,
      document: { protocolVersions: ['1.11'], preferredVersion: '1.11' },
    } as DiscoveryResult;
    const { checks, requests } = await check(v1);
    expect(requests).toBe(0);
    expect(checks.unexercised.map((u) => u.rule)).toEqual(probeRules());
    expect(checks.unexercised[0]?.reason).toMatch(/^not sent: host does not serve OpenWOP major 2/);
  });

  it('sends nothing when discovery was unreadable, and judges no discovery rule', async () => {
    const { checks, requests } = await check({
      ok: false,
      reason: 'GET /.well-known/openwop answered 500',
    });
    expect(requests).toBe(0);
    expect(checks.findings).toEqual([]);
    expect(checks.unexercised.map((u) => u.rule)).toEqual(['wire.discovery', ...probeRules()]);
  });
});

/** Every probe sent to a correct host with `apiKey` configured, and the requests it received. */
async function probesWithKey(apiKey: string) {
  const server = await startScriptedServer(CORRECT);
  const client = createHostClient({
    baseUrl: server.url,
    apiKey,
    requestTimeoutMs: PROBE_MS,
    maxBodyBytes: 4096,
  });
  try {
    const probes = await provokeRefusals(
      client,
      { keyConfigured: true, knownRunId: RUN, evalSuiteAdvertised: true, timeoutMs: PROBE_MS },
      NONCE,
    );
    return { probes, requests: server.requests };
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the near-miss probes', () => {
  it('every near-miss kind has one probe, and it says how its token misses the key', () => {
    const kinds = HOST_PROBES.flatMap((p) =>
      p.request.send === 'create' && p.request.credential.send === 'near-miss'
        ? [p.request.credential.kind]
        : [],
    );
    expect(kinds).toEqual(NEAR_MISS_KINDS);
    for (const kind of NEAR_MISS_KINDS) {
      // Each kind makes a token of its own from the same key, none the key itself.
      expect(nearMissKey(kind, KEY)).not.toBe(KEY);
      expect(NEAR_MISS_WORDS[kind]).toMatch(/^the key /);
    }
    expect(new Set(NEAR_MISS_KINDS.map((k) => nearMissKey(k, KEY))).size).toBe(
      NEAR_MISS_KINDS.length,
    );
  });

  it('a host that echoes the token it was sent shows none of the near-miss tokens, nor the key', async () => {
    const { probes } = await probe((req, res) => {
      sendErrorEnvelope(res, 401, 'unauthenticated', `no such key: ${req.headers.authorization}`);
    });
    const recorded = JSON.stringify(probes);
    for (const token of [
      'sk-probe-key-012345678A',
      `${KEY}A`,
      'SK-PROBE-KEY-0123456789',
      'sk-probe-key-012345678',
    ]) {
      expect(recorded).not.toContain(token);
    }
    expect(recorded).not.toContain(KEY);
    expect(recorded).toContain('no such key: Bearer [redacted]');
  });

  it('a key without a letter has no case-flipped token, so that probe is not made, saying why', async () => {
    const { probes, requests } = await probesWithKey('0123456789-0123');
    expect(probes.find((p) => p.probe === 'near-miss-case-flipped')).toEqual({
      probe: 'near-miss-case-flipped',
      outcome: 'not-made',
      reason: 'the key holds no letter, so no token differs from it in case alone',
    });
    // Every probe but that one.
    expect(requests).toHaveLength(probeRequestCount(EVERY_GROUND) - 1);
  });

  it('a key of one character has no truncated token, so that probe is not made, saying why', async () => {
    expect(nearMissKey('truncated', 'k3y-5678')).toBe('k3y-567');
    expect(() => nearMissKey('truncated', 'k')).toThrow(NoNearMissToken);
    const { probes, requests } = await probesWithKey('k');
    expect(probes.find((p) => p.probe === 'near-miss-truncated')).toEqual({
      probe: 'near-miss-truncated',
      outcome: 'not-made',
      reason: 'the key is a single character, so removing its last leaves no token to send',
    });
    // Every other probe went out, an empty bearer token never did.
    expect(requests).toHaveLength(probeRequestCount(EVERY_GROUND) - 1);
    expect(requests.map((r) => r.headers.authorization)).not.toContain('Bearer ');
  });

  it('the truncated token of the shortest accepted key is scrubbed from an echo though shorter than a key may be', async () => {
    // Eight characters, the least a key may have: its truncation is seven.
    const shortest = 'k3y-5678';
    const server = await startScriptedServer((req, res) => {
      sendErrorEnvelope(res, 401, 'unauthenticated', `no such key: ${req.headers.authorization}`);
    });
    const client = createHostClient({
      baseUrl: server.url,
      apiKey: shortest,
      requestTimeoutMs: PROBE_MS,
      maxBodyBytes: 4096,
    });
    try {
      const probes = await provokeRefusals(
        client,
        { keyConfigured: true, knownRunId: RUN, evalSuiteAdvertised: true, timeoutMs: PROBE_MS },
        NONCE,
      );
      expect(server.requests.map((r) => r.headers.authorization)).toContain('Bearer k3y-567');
      expect(JSON.stringify(probes)).not.toContain('k3y-567');
      expect(probes.find((p) => p.probe === 'near-miss-truncated')).toMatchObject({
        outcome: 'answered',
        body: { json: { message: 'no such key: Bearer [redacted]' } },
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
