// Discovery: fetched once per base URL, each unreadable answer given its own reason, and the
// capability readers of contract §2.

import { describe, expect, it } from 'vitest';
import {
  advertisedImplementation,
  advertisedLimits,
  advertisesGolden,
  readDiscovery,
  isAdvertised,
  listedFixtures,
  majorTwoMissing,
} from '../../lib/observe/discovery.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import type { Handler } from '../support/scripted-server.ts';
import { sendJson, sendV2, startScriptedServer } from '../support/scripted-server.ts';

const ROOT = {
  implementation: { name: 'acme-host', version: '3.2.0' },
  agents: {
    evalSuite: {
      modes: ['golden'],
      trajectory: { matchModes: ['exact'] },
      trials: { maxCount: 10 },
    },
  },
  fixtures: ['conformance-eval-trajectory-gate', 7],
};

async function discover(handler: Handler, calls = 1) {
  const server = await startScriptedServer(handler);
  const client = createHostClient({
    baseUrl: server.url,
    apiKey: 'sk-discovery',
    requestTimeoutMs: 500,
    maxBodyBytes: 4096,
  });
  try {
    const results = [];
    for (let i = 0; i < calls; i += 1) results.push(await readDiscovery(client));
    return { results, requests: server.requests };
  } finally {
    await client.close();
    await server.close();
  }
}

describe('readDiscovery', () => {
  it('reads the document without the key, and hashes its text', async () => {
    const text = JSON.stringify(ROOT);
    const { results, requests } = await discover((_req, res) => sendV2(res, 200, ROOT));
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe('/.well-known/openwop');
    expect(requests[0]?.headers.authorization).toBeUndefined();
    expect(results[0]).toEqual({
      ok: true,
      document: ROOT,
      text,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      versionHeader: '2.0',
    });
  });

  it('records a missing OpenWOP-Version header as null', async () => {
    const { results } = await discover((_req, res) => sendJson(res, 200, ROOT));
    expect(results[0]).toMatchObject({ ok: true, versionHeader: null });
  });

  it.each<[string, Handler, string]>([
    [
      'a non-200 answer',
      (_q, res) => sendJson(res, 503, {}),
      'GET /.well-known/openwop answered 503',
    ],
    [
      'a body that is not JSON',
      (_q, res) => res.writeHead(200).end('<html>'),
      'GET /.well-known/openwop body is not JSON',
    ],
    [
      'JSON that is not an object',
      (_q, res) => sendJson(res, 200, ['agents']),
      'GET /.well-known/openwop body is JSON but not an object',
    ],
    ['no answer at all', () => undefined, 'GET /.well-known/openwop: timed out after 500 ms'],
  ])('gives %s its own reason', async (_name, handler, reason) => {
    const { results } = await discover(handler);
    expect(results[0]?.ok).toBe(false);
    expect(results[0]).toMatchObject({ ok: false, reason: expect.stringContaining(reason) });
  });
});

describe('isAdvertised', () => {
  it('accepts a present record, and one whose supported is true', () => {
    expect(isAdvertised(ROOT, 'agents.evalSuite.trajectory')).toBe(true);
    const v1 = { agents: { supported: true, evalSuite: { supported: true, trials: {} } } };
    expect(isAdvertised(v1, 'agents.evalSuite.trials')).toBe(true);
  });

  it('refuses a record with supported: false', () => {
    const doc = { agents: { evalSuite: { trajectory: { supported: false } } } };
    expect(isAdvertised(doc, 'agents.evalSuite.trajectory')).toBe(false);
  });

  it('refuses a capability whose ancestor is missing or not advertised', () => {
    expect(isAdvertised({ evalSuite: { trajectory: {} } }, 'agents.evalSuite.trajectory')).toBe(
      false,
    );
    const off = { agents: { evalSuite: { supported: false, trajectory: {} } } };
    expect(isAdvertised(off, 'agents.evalSuite.trajectory')).toBe(false);
  });

  it('refuses a record that is not an object', () => {
    expect(isAdvertised({ agents: { evalSuite: true } }, 'agents.evalSuite')).toBe(false);
    expect(isAdvertised({ agents: { evalSuite: ['golden'] } }, 'agents.evalSuite')).toBe(false);
    expect(isAdvertised(null, 'agents')).toBe(false);
  });
});

describe('the other readers', () => {
  it('advertisesGolden needs golden in the modes of an advertised evalSuite', () => {
    expect(advertisesGolden(ROOT)).toBe(true);
    expect(advertisesGolden({ agents: { evalSuite: { modes: ['rubric'] } } })).toBe(false);
    expect(
      advertisesGolden({ agents: { evalSuite: { supported: false, modes: ['golden'] } } }),
    ).toBe(false);
  });

  it('listedFixtures keeps only string ids', () => {
    expect(listedFixtures(ROOT)).toEqual(['conformance-eval-trajectory-gate']);
    expect(listedFixtures({ fixtures: 'conformance-eval-trajectory-gate' })).toEqual([]);
  });

  it('advertisedImplementation reads name and optional version', () => {
    expect(advertisedImplementation(ROOT)).toEqual({ name: 'acme-host', version: '3.2.0' });
    expect(advertisedImplementation({ implementation: { name: 'x', version: 3 } })).toEqual({
      name: 'x',
    });
    expect(advertisedImplementation({ implementation: { version: '1' } })).toBeUndefined();
  });
});

describe('majorTwoMissing', () => {
  it('is undefined when protocolVersions lists a 2.x', () => {
    expect(majorTwoMissing({ protocolVersions: ['1.11', '2.0'] })).toBeUndefined();
    expect(majorTwoMissing({ protocolVersions: ['2.21'] })).toBeUndefined();
  });

  it.each<[unknown, string]>([
    [{ protocolVersions: ['1.11'] }, 'protocolVersions lists no 2.x (it lists ["1.11"])'],
    [{ protocolVersions: [] }, 'protocolVersions lists no 2.x (it lists [])'],
    [
      { protocolVersion: '1.11' },
      'discovery is a v1 document (protocolVersion "1.11", no protocolVersions)',
    ],
    [{}, 'discovery has no protocolVersions listing a 2.x'],
    [{ protocolVersions: '2.0' }, 'discovery has no protocolVersions listing a 2.x'],
  ])('names why %j does not serve major 2', (document, why) => {
    expect(majorTwoMissing(document)).toBe(`host does not serve OpenWOP major 2: ${why}`);
  });
});

describe('advertisedLimits', () => {
  it('reads the four limits and leaves out what is absent or mistyped', () => {
    const document = {
      agents: {
        evalSuite: {
          maxTasksPerSuite: 200,
          trials: { maxCount: 10, passRules: ['all', 'mean'] },
          trajectory: { matchModes: ['exact'] },
        },
      },
    };
    expect(advertisedLimits(document)).toEqual({
      maxTasksPerSuite: 200,
      trialsMaxCount: 10,
      passRules: ['all', 'mean'],
      matchModes: ['exact'],
    });
    const odd = { agents: { evalSuite: { maxTasksPerSuite: '200', trials: { passRules: {} } } } };
    expect(advertisedLimits(odd)).toEqual({});
    expect(advertisedLimits(ROOT)).toEqual({ trialsMaxCount: 10, matchModes: ['exact'] });
  });
});
