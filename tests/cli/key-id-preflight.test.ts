// `run --sign KEY.pem --key-id ID` against a host whose discovery does not publish ID is refused
// at the start, in one line with exit 2, before any leg runs: a report signed under a key the host
// does not publish could never verify as the host's.

import { generateKeyPairSync } from 'node:crypto';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpublishedKey } from '../../cli/preflight.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, removeDir, scratchDir } from './support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const pair = generateKeyPairSync('ed25519');
const rawPublic = pair.publicKey.export({ format: 'jwk' }).x ?? '';

let dir = '';
let pem = '';
let unpublished: ReferenceHost;
let otherKey: ReferenceHost;
let rotated: ReferenceHost;
beforeAll(async () => {
  dir = await scratchDir();
  pem = join(dir, 'host.pem');
  await writeFile(pem, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  unpublished = await startReferenceHost({ apiKey: LEAKY_KEY });
  otherKey = await startReferenceHost({
    apiKey: LEAKY_KEY,
    signingKey: { keyId: 'host-2025-12', publicKey: rawPublic },
  });
  rotated = await startReferenceHost({
    apiKey: LEAKY_KEY,
    signingKey: {
      keyId: 'host-2026-01',
      publicKey: generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '',
    },
  });
});
afterAll(async () => {
  await unpublished.close();
  await otherKey.close();
  await rotated.close();
  await removeDir(dir);
});

async function signedRun(url: string, reportDir: string) {
  return cli(
    [
      'run',
      '--base-url',
      url,
      '--report-dir',
      reportDir,
      '--sign',
      pem,
      '--key-id',
      'host-2026-01',
    ],
    ENV,
  );
}

describe('--key-id checked against discovery before any leg', () => {
  it('a host that publishes no signingKeys: one line, exit 2, no report', async () => {
    const reportDir = join(dir, 'none');
    const run = await signedRun(unpublished.url, reportDir);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --key-id host-2026-01: discovery lists no signingKeys at ${unpublished.url}/.well-known/openwop; publish the public half of --sign there under that id first, or sign with a key it publishes, so the report can verify as the host's`,
    ]);
    expect(run.stdout.filter((l) => !l.startsWith('target: '))).toEqual([]);
    await expect(access(join(reportDir, 'eval-gate-report.json'))).rejects.toThrow();
  });

  it('a host that publishes other key ids: the line names them', async () => {
    const run = await signedRun(otherKey.url, join(dir, 'other'));
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toContain(
      "--key-id host-2026-01: key host-2026-01 is not among discovery's signingKeys (host-2025-12)",
    );
  });

  it('a host that publishes another key under the id: refused before any leg', async () => {
    const reportDir = join(dir, 'rotated');
    const run = await signedRun(rotated.url, reportDir);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toContain(
      '--key-id host-2026-01: discovery publishes another public key under host-2026-01 than the public half of --sign',
    );
    expect(run.stdout.filter((l) => !l.startsWith('target: '))).toEqual([]);
    await expect(access(join(reportDir, 'eval-gate-report.json'))).rejects.toThrow();
  });

  it('the key the host publishes under the id passes; a retired, misused or other key does not', () => {
    const entry = { keyId: 'host-2026-01', alg: 'ed25519', publicKey: rawPublic };
    const now = '2026-06-01T00:00:00Z';
    const check = (extra: Record<string, unknown>, keyId = 'host-2026-01') =>
      unpublishedKey({ signingKeys: [{ ...entry, ...extra }] }, keyId, pair.privateKey, now);
    expect(check({})).toBeUndefined();
    expect(
      check({ use: 'certification-bundle', retiredAt: '2026-07-01T00:00:00Z' }),
    ).toBeUndefined();
    expect(check({}, 'host-2026-02')).toBe(
      "key host-2026-02 is not among discovery's signingKeys (host-2026-01)",
    );
    expect(check({ retiredAt: '2026-01-01T00:00:00Z' })).toBe(
      'discovery: key host-2026-01 was retired at 2026-01-01T00:00:00Z, at or before the report was signed (2026-06-01T00:00:00Z)',
    );
    expect(check({ use: 'transport' })).toBe(
      'discovery: key host-2026-01 is for use "transport", not certification-bundle',
    );
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '';
    expect(check({ publicKey: other })).toBe(
      'discovery publishes another public key under host-2026-01 than the public half of --sign',
    );
  });
});
