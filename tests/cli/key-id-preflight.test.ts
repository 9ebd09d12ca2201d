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
beforeAll(async () => {
  dir = await scratchDir();
  pem = join(dir, 'host.pem');
  await writeFile(pem, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  unpublished = await startReferenceHost({ apiKey: LEAKY_KEY });
  otherKey = await startReferenceHost({
    apiKey: LEAKY_KEY,
    signingKey: { keyId: 'host-2025-12', publicKey: rawPublic },
  });
});
afterAll(async () => {
  await unpublished.close();
  await otherKey.close();
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
      `openwop-eval-gate: --key-id host-2026-01: discovery publishes no signingKeys at ${unpublished.url}/.well-known/openwop; publish the key there first, or sign under a key id it lists, so verify can check the signature`,
    ]);
    expect(run.stdout.filter((l) => !l.startsWith('target: '))).toEqual([]);
    await expect(access(join(reportDir, 'eval-gate-report.json'))).rejects.toThrow();
  });

  it('a host that publishes other key ids: the line names them', async () => {
    const run = await signedRun(otherKey.url, join(dir, 'other'));
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toContain(
      "--key-id host-2026-01: discovery's signingKeys list host-2025-12, not host-2026-01",
    );
  });

  it('a published key id passes the check', () => {
    const document = {
      signingKeys: [{ keyId: 'host-2026-01', alg: 'ed25519', publicKey: rawPublic }],
    };
    expect(unpublishedKey(document, 'host-2026-01')).toBeUndefined();
    expect(unpublishedKey(document, 'host-2026-02')).toBe(
      "discovery's signingKeys list host-2026-01, not host-2026-02",
    );
  });
});
