// A key rotation rehearsed end to end on the reference host as its own process, at one address:
// the host publishes the old key and the new one; a strict run signed with the old key certifies
// while the old key's retirement is still to come; once the host marks it retired, the same report
// still verifies and certifies nothing, a run still signing with the old key is refused before any
// leg, and a run signed with the new key certifies.

import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from '../cli/support.ts';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';

const OLD = 'host-2026-01';
const NEW = 'host-2026-06';
/** A retirement announced for later: until then the old key still vouches. */
const ANNOUNCED = '2099-01-01T00:00:00Z';

let dir = '';
let seeded = '';
let port = 0;
let host: HostProcess | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

async function writeKey(name: string): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await writeFile(join(dir, `${name}.pem`), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, `${name}.pub.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
}

/** The host at the one address, publishing both keys, the old one retired at `oldRetiredAt`. */
async function restartHost(oldRetiredAt: string): Promise<string> {
  await host?.close();
  host = await startHostProcess([
    '--api-key',
    LEAKY_KEY,
    '--port',
    String(port),
    '--fixtures-dir',
    seeded,
    '--signing-key',
    join(dir, 'new.pub.pem'),
    '--key-id',
    NEW,
    '--signing-key',
    join(dir, 'old.pub.pem'),
    '--key-id',
    OLD,
    '--retire',
    `${OLD}=${oldRetiredAt}`,
  ]);
  return host.url;
}

function strictRun(url: string, reportDir: string, keyName: string, keyId: string) {
  return cli(
    [
      'run',
      '--base-url',
      url,
      '--require-behavior',
      '--report-dir',
      reportDir,
      '--sign',
      join(dir, `${keyName}.pem`),
      '--key-id',
      keyId,
    ],
    { OPENWOP_API_KEY: LEAKY_KEY },
  );
}

const verifyAt = (reportDir: string, url: string) =>
  cli(['verify', join(reportDir, 'eval-gate-report.json'), '--host', url]);

/** Verifies the report at `url` and expects it certified under `keyId`; returns the result. */
async function expectCertifiedBy(reportDir: string, url: string, keyId: string) {
  const verified = await verifyAt(reportDir, url);
  expect(verified.code).toBe(0);
  expect(verified.stdout.at(-1)).toMatch(new RegExp(`^certified: .*\\(signed by key ${keyId}\\)`));
  return verified;
}

beforeAll(async () => {
  dir = await scratchDir();
  await writeKey('old');
  await writeKey('new');
  seeded = join(dir, 'fixtures');
  expect((await cli(['fixtures', '--out', seeded])).code).toBe(0);
  port = await freePort();
}, 60_000);

afterAll(async () => {
  await host?.close();
  await removeDir(dir);
});

describe('a signing key rotated on the reference host', () => {
  it('certifies under the old key until it retires, nothing after, and under the new key', async () => {
    let url = await restartHost(ANNOUNCED);
    const before = join(dir, 'signed-old');
    const oldRun = await strictRun(url, before, 'old', OLD);
    expect(oldRun.code, oldRun.stdout.join('\n')).toBe(0);
    const certifiedBefore = await expectCertifiedBy(before, url, OLD);

    // Retired after the report was signed and before it is read again.
    const finishedAt = Date.parse((await readReport(before)).finishedAt);
    const retiredAt = new Date(Math.max(finishedAt + 1, Date.now())).toISOString();
    url = await restartHost(retiredAt);
    const after = await verifyAt(before, url);
    // The report still verifies (its digest and signature hold) and certifies nothing.
    expect(after.code).toBe(0);
    const last = after.stdout.at(-1) ?? '';
    expect(last).toMatch(
      new RegExp(`^retired key: integrity only, key ${OLD} of the live discovery at `),
    );
    expect(last).toContain(`retired at ${retiredAt}; a retired key certifies nothing`);
    expect(last).toContain('every digest matches');
    expect(after.stdout.join('\n')).not.toMatch(/^certified: /m);

    const stillOld = await strictRun(url, join(dir, 'still-old'), 'old', OLD);
    expect(stillOld.code).toBe(2);
    expect(stillOld.stderr).toHaveLength(1);
    expect(stillOld.stderr[0]).toContain(`key ${OLD} was retired at ${retiredAt}`);

    const rotated = join(dir, 'signed-new');
    const newRun = await strictRun(url, rotated, 'new', NEW);
    expect(newRun.code, newRun.stdout.join('\n')).toBe(0);
    const certifiedAfter = await expectCertifiedBy(rotated, url, NEW);
    for (const run of [oldRun, stillOld, newRun, certifiedBefore, after, certifiedAfter]) {
      expect([...run.stdout, ...run.stderr].join('\n')).not.toContain(LEAKY_KEY);
    }
  }, 240_000);
});
