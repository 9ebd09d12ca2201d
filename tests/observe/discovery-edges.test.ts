// Discovery's edges that tests/observe/discovery.test.ts leaves loose: the memo key, the exact reason
// of each unreadable answer, the digest, a thrown error that is not the transport's, and the
// readers on documents that are almost right.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  advertisedImplementation,
  advertisedLimits,
  advertisesGolden,
  DISCOVERY_PATH,
  readDiscovery,
  isAdvertised,
  listedFixtures,
  majorTwoMissing,
} from '../../lib/observe/discovery.ts';
import { TransportError } from '../../lib/observe/errors.ts';
import type { HostClient, HostResponse } from '../../lib/observe/host-client.ts';

/** A client that answers every request with `reply`, counting the requests and their options. */
function client(reply: () => Promise<HostResponse>) {
  const seen: { path: string; auth: boolean | undefined }[] = [];
  const c: HostClient = {
    baseUrl: 'http://discovery.invalid',
    get: (path, options) => {
      seen.push({ path, auth: options?.auth });
      return reply();
    },
    post: () => Promise.reject(new Error('discovery never posts')),
    close: () => Promise.resolve(),
  };
  return { client: c, seen };
}

const answer = (
  status: number,
  text: string,
  headers: Record<string, string> = {},
): Promise<HostResponse> => {
  let parsed: { json: unknown; jsonError?: string };
  try {
    parsed = { json: JSON.parse(text) as unknown };
  } catch {
    parsed = { json: undefined, jsonError: 'not valid JSON' };
  }
  return Promise.resolve({ status, headers, text, ...parsed });
};

describe('readDiscovery', () => {
  it('reads discovery without credentials, at the well-known path', async () => {
    const { client: c, seen } = client(() => answer(200, '{}'));
    await readDiscovery(c);
    expect(DISCOVERY_PATH).toBe('/.well-known/openwop');
    expect(seen).toEqual([{ path: '/.well-known/openwop', auth: false }]);
  });

  it('reads afresh on every call: what a run reuses, it is handed (cli/preflight.ts)', async () => {
    let n = 0;
    const { client: c, seen } = client(() => {
      n += 1;
      return n === 1 ? answer(503, '{}') : answer(200, '{}');
    });
    expect(await readDiscovery(c)).toEqual({
      ok: false,
      reason: 'GET /.well-known/openwop answered 503',
    });
    expect(await readDiscovery(c)).toMatchObject({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('hashes the exact text and keeps the document, the text and the header', async () => {
    const text = '{ "protocolVersions": ["2.0"] }';
    const { client: c } = client(() => answer(200, text, { 'openwop-version': '2.3' }));
    expect(await readDiscovery(c)).toEqual({
      ok: true,
      document: { protocolVersions: ['2.0'] },
      sha256: createHash('sha256').update(text).digest('hex'),
      text,
      versionHeader: '2.3',
    });
  });

  it.each<[string, () => Promise<HostResponse>, string]>([
    ['a 201', () => answer(201, '{}'), 'GET /.well-known/openwop answered 201'],
    [
      'a body that is not JSON',
      () => answer(200, '<html>'),
      'GET /.well-known/openwop body is not JSON (not valid JSON)',
    ],
    [
      'JSON null',
      () => answer(200, 'null'),
      'GET /.well-known/openwop body is JSON but not an object',
    ],
    [
      'a JSON string',
      () => answer(200, '"2.0"'),
      'GET /.well-known/openwop body is JSON but not an object',
    ],
    [
      'a transport failure',
      () => Promise.reject(new TransportError('dns', 'GET', DISCOVERY_PATH, 'name not found')),
      'GET /.well-known/openwop: name not found',
    ],
  ])('gives %s exactly its reason', async (_name, reply, reason) => {
    const { client: c } = client(reply);
    const result = await readDiscovery(c);
    expect(result).toMatchObject({ ok: false, reason });
    // Only a lost answer is unanswered: the CLI ends the run on it before any leg.
    expect(result.ok === false && result.unanswered === true).toBe(
      reason.endsWith('name not found'),
    );
  });

  it('throws an error that is not the transport failing: that is the suite', async () => {
    const { client: c } = client(() => Promise.reject(new RangeError('suite bug')));
    await expect(readDiscovery(c)).rejects.toThrow('suite bug');
  });
});

describe('the readers on documents that are almost right', () => {
  it('isAdvertised needs each segment, the first included, to be an object', () => {
    expect(isAdvertised({ agents: {} }, 'agents')).toBe(true);
    expect(isAdvertised({ agents: [] }, 'agents')).toBe(false);
    expect(isAdvertised({ agents: { supported: false } }, 'agents')).toBe(false);
    expect(isAdvertised(['agents'], 'agents')).toBe(false);
    expect(isAdvertised({ agents: { evalSuite: null } }, 'agents.evalSuite')).toBe(false);
  });

  it('advertisesGolden needs a modes array holding golden', () => {
    expect(advertisesGolden({ agents: { evalSuite: { modes: 'golden' } } })).toBe(false);
    expect(advertisesGolden({ agents: { evalSuite: {} } })).toBe(false);
    expect(advertisesGolden({ agents: { evalSuite: { modes: ['rubric', 'golden'] } } })).toBe(true);
    expect(advertisesGolden({ agents: [] })).toBe(false);
  });

  it('listedFixtures reads nothing from a document that is not an object', () => {
    expect(listedFixtures(['a'])).toEqual([]);
    expect(listedFixtures(null)).toEqual([]);
    expect(listedFixtures({ fixtures: ['a', null, 'b'] })).toEqual(['a', 'b']);
  });

  it('advertisedImplementation needs an implementation object with a string name', () => {
    expect(advertisedImplementation({ implementation: 'acme' })).toBeUndefined();
    expect(advertisedImplementation({ implementation: { name: 3 } })).toBeUndefined();
    expect(advertisedImplementation(null)).toBeUndefined();
    expect(advertisedImplementation({ implementation: { name: 'acme' } })).toEqual({
      name: 'acme',
    });
  });

  it.each<[unknown, boolean]>([
    [['2.0'], true],
    [['2.10'], true],
    [['2.100'], true],
    [[2.1], false],
    [['12.0'], false],
    [['2.0-beta'], false],
    [['2.01'], false],
    [['v2.0'], false],
    [['2.'], false],
  ])('majorTwoMissing reads protocolVersions %j as serving major 2: %s', (versions, serves) => {
    expect(majorTwoMissing({ protocolVersions: versions }) === undefined).toBe(serves);
  });

  it('majorTwoMissing quotes every listed value as JSON', () => {
    expect(majorTwoMissing({ protocolVersions: ['1.0', 2, null] })).toBe(
      'host does not serve OpenWOP major 2: protocolVersions lists no 2.x (it lists ["1.0", 2, null])',
    );
    expect(majorTwoMissing(null)).toBe(
      'host does not serve OpenWOP major 2: discovery has no protocolVersions listing a 2.x',
    );
  });

  it('advertisedLimits leaves out a limit that is not a finite number or not a list', () => {
    const at = (evalSuite: unknown) => advertisedLimits({ agents: { evalSuite } });
    expect(at({ maxTasksPerSuite: Number.POSITIVE_INFINITY })).toStrictEqual({});
    expect(at({ maxTasksPerSuite: Number.NaN, trials: { maxCount: '3' } })).toStrictEqual({});
    expect(at({ trials: { maxCount: 0 } })).toStrictEqual({ trialsMaxCount: 0 });
    expect(at({ maxTasksPerSuite: 0 })).toStrictEqual({ maxTasksPerSuite: 0 });
    expect(at({ trajectory: { matchModes: 'exact' }, trials: { passRules: [] } })).toStrictEqual({
      passRules: [],
    });
    expect(at({ trajectory: { matchModes: [] } })).toStrictEqual({ matchModes: [] });
    expect(advertisedLimits(null)).toStrictEqual({});
  });
});
