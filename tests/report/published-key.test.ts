// `run --sign KEY.pem --key-id ID` records the key id, and `verify --trusted-keys` checks the
// signature with the key a pinned keyring lists under that id, never with the one the report's
// captured discovery holds. Each outcome is reached: vouched for, unattributed (no usable key in
// the keyring), and invalid (the keyring's key does not verify the signature).

import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { discoveryDigest, hostChecksDigest } from '../../lib/report/report.ts';
import { judgeHostChecks } from '../../lib/eval-gate-witness.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { cli, dateless, readReport, removeDir, scratchDir, verifyWritten } from '../cli/support.ts';

const KEY_ID = 'host-2026-01';

let dir = '';
let report: EvalGateReport;
let privateKey: KeyObject;
let rawPublic = '';
let otherRawPublic = '';

function rawOf(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('not an OKP key');
  return jwk.x;
}

beforeAll(async () => {
  dir = await scratchDir();
  const pair = generateKeyPairSync('ed25519');
  privateKey = pair.privateKey;
  rawPublic = rawOf(pair.publicKey);
  otherRawPublic = rawOf(generateKeyPairSync('ed25519').publicKey);
  const pem = join(dir, 'host.pem');
  await writeFile(pem, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const run = await cli([
    'run',
    '--report-dir',
    join(dir, 'run'),
    '--sign',
    pem,
    '--key-id',
    KEY_ID,
  ]);
  expect(run.code).toBe(0);
  report = await readReport(join(dir, 'run'));
}, 60_000);

afterAll(async () => {
  await removeDir(dir);
});

/**
 * The report as a host that publishes `signingKeys` would have produced it: the captured
 * discovery carries them, its digest follows, and the report is signed again over the result.
 */
async function verifyPublished(
  signingKeys: readonly Record<string, unknown>[],
  keyId: string | null = KEY_ID,
  edit: (unsigned: EvalGateReport) => EvalGateReport = (unsigned) => unsigned,
): Promise<{ code: number; lines: readonly string[] }> {
  if (!report.discovery.ok) throw new Error('the run captured no discovery');
  const text = JSON.stringify({ ...(JSON.parse(report.discovery.text) as object), signingKeys });
  const discovery = { ok: true as const, text };
  // That host's discovery is judged as the run would have judged it (an unusable key entry is a
  // wire.discovery warning), so only the signature is left for verify to tell apart.
  const probes = report.hostChecks?.probes ?? [];
  const hostChecks = {
    probes,
    ...judgeHostChecks({ ok: true, document: JSON.parse(text) }, probes),
  };
  const unsigned: EvalGateReport = {
    ...withoutSignature(report),
    discovery,
    hostChecks,
    digests: {
      ...report.digests,
      discovery: discoveryDigest(discovery),
      hostChecks: hostChecksDigest(hostChecks),
    },
  };
  const keyring = join(dir, `keyring-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(keyring, JSON.stringify({ signingKeys }));
  return verifyWritten(dir, certifiedReport(edit(unsigned), privateKey, keyId ?? undefined), [
    '--trusted-keys',
    keyring,
  ]);
}

/** The keyring path verify named in its anchor line. */
function keyringOf(lines: readonly string[]): string {
  const named = lines.join('\n').match(/the keyring (\S+?\.json)/);
  return named?.[1] ?? '(no keyring named)';
}

function withoutSignature(signed: EvalGateReport): EvalGateReport {
  return Object.fromEntries(
    Object.entries(signed).filter(([name]) => name !== 'signature'),
  ) as unknown as EvalGateReport;
}

const entry = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  keyId: KEY_ID,
  alg: 'ed25519',
  publicKey: rawPublic,
  use: 'certification-bundle',
  ...extra,
});

describe('verify against the key a host publishes in discovery', () => {
  it('run --key-id records the id in the signature', () => {
    expect(report.signature?.keyId).toBe(KEY_ID);
  });

  it('checks the signature of a report that matches its schema but has lost its rows', async () => {
    const { code, lines } = await verifyPublished([entry()], KEY_ID, (r) => ({
      ...r,
      requirements: [],
    }));
    expect(code).toBe(1);
    expect(lines).toContain(`row ${report.requirements[0]?.id ?? ''}: missing from the report`);
    expect(lines.map(dateless)).toContain(
      `anchor: vouched for by key ${KEY_ID} of the keyring ${keyringOf(lines)}`,
    );
  });

  it('refuses a re-signed report whose host checks lost a probe, or lost them all', async () => {
    // A host signs its own reports, so dropping the probe that caught a bypass and signing again
    // must not leave a report that verifies: every probe this suite sends is recorded.
    const dropped = 'near-miss-truncated';
    const withoutProbe = (r: EvalGateReport): EvalGateReport => {
      if (!r.discovery.ok || r.hostChecks === undefined) throw new Error('no host checks');
      const probes = r.hostChecks.probes.filter((p) => p.probe !== dropped);
      const hostChecks = {
        probes,
        ...judgeHostChecks({ ok: true, document: JSON.parse(r.discovery.text) }, probes),
      };
      return {
        ...r,
        hostChecks,
        digests: { ...r.digests, hostChecks: hostChecksDigest(hostChecks) },
      };
    };
    const one = await verifyPublished([entry()], KEY_ID, withoutProbe);
    expect(one.code).toBe(1);
    expect(one.lines).toContain(`host check ${dropped}: missing from the report`);
    const all = await verifyPublished([entry()], KEY_ID, (r) => {
      const stripped: Record<string, unknown> = { ...r, digests: { ...r.digests } };
      delete stripped.hostChecks;
      delete (stripped.digests as Record<string, unknown>).hostChecks;
      return stripped as unknown as EvalGateReport;
    });
    expect(all.code).toBe(1);
    expect(all.lines).toContain('hostChecks: missing from the report');
  });

  it('verifies the signature against the keyring key named by the key id', async () => {
    const { code, lines } = await verifyPublished([entry()]);
    expect(code).toBe(0);
    expect(lines.map(dateless)).toContain(
      `anchor: vouched for by key ${KEY_ID} of the keyring ${keyringOf(lines)}`,
    );
    // An entry that binds no implementation gives integrity under its key, never a certificate.
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^integrity under key ${KEY_ID} of the keyring .*: the entry binds no implementation, so it certifies none; .*every digest matches$`,
      ),
    );
  });

  it('says unattributed when the key id is not in the keyring, naming those that are', async () => {
    const { code, lines } = await verifyPublished([entry({ keyId: 'host-2025-07' })]);
    expect(code).toBe(0);
    expect(lines.map(dateless)).toContain(
      `anchor: unattributed: key host-2026-01 is not among the keyring ${keyringOf(lines)}'s signingKeys (host-2025-07); the signature attests integrity only`,
    );
    expect(lines.at(-1)).toMatch(/^unattributed: integrity only/);
  });

  it('says unattributed for a key retired before the report was signed', async () => {
    const retiredAt = new Date(Date.parse(report.finishedAt) - 60_000).toISOString();
    const { code, lines } = await verifyPublished([entry({ retiredAt })]);
    expect(code).toBe(0);
    expect(lines.join('\n')).toContain(
      `key ${KEY_ID} was retired at ${retiredAt}, at or before the report was signed (${report.finishedAt})`,
    );
    expect(lines.at(-1)).toMatch(/^unattributed: integrity only/);
  });

  it('a key retired after the report was signed bears its signature out, and certifies nothing', async () => {
    // Retired a millisecond after the report, so retired by the time verify reads it.
    const retiredAt = new Date(Date.parse(report.finishedAt) + 1).toISOString();
    const { code, lines } = await verifyPublished([entry({ retiredAt })]);
    expect(code).toBe(0);
    expect(lines.map(dateless)).toContain(
      `anchor: vouched for by key ${KEY_ID} of the keyring ${keyringOf(lines)}`,
    );
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^retired key: integrity only, key ${KEY_ID} of the keyring .* retired at ${retiredAt}; a retired key certifies nothing`,
      ),
    );
  });

  it('fails when the key the keyring lists under that id does not verify the signature', async () => {
    const { code, lines } = await verifyPublished([entry({ publicKey: otherRawPublic })]);
    expect(code).toBe(1);
    expect(lines.join('\n')).toContain(
      `signature INVALID: signature.value: does not verify with key ${KEY_ID} of the keyring ${keyringOf(lines)}`,
    );
    expect(lines.at(-1)).toMatch(/^FAILED: /);
  });

  it.each([
    [{ alg: 'rsa' }, 'has alg "rsa", not ed25519'],
    [{ publicKey: 'too-short' }, 'has no publicKey of 43 base64url characters'],
    [{ use: 'transport' }, 'is for use "transport", not certification-bundle'],
  ])('says unattributed for an unusable entry (%j)', async (extra, why) => {
    const { code, lines } = await verifyPublished([entry(extra)]);
    expect(code).toBe(0);
    expect(lines.join('\n')).toContain(`: key ${KEY_ID} ${why}`);
    expect(lines.at(-1)).toMatch(/^unattributed: integrity only/);
  });

  it('says unattributed for a signature that names no key id', async () => {
    const { code, lines } = await verifyPublished([entry()], null);
    expect(code).toBe(0);
    expect(lines.join('\n')).toContain('the signature names no key id');
    expect(lines.at(-1)).toMatch(/^unattributed: integrity only/);
  });

  it('run refuses --key-id without --sign, and a key id outside the ids pattern', async () => {
    const lonely = await cli(['run', '--key-id', KEY_ID]);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toEqual([
      'openwop-eval-gate: --key-id names the key of --sign; give --sign KEY.pem as well',
    ]);
    const bad = await cli(['run', '--sign', join(dir, 'host.pem'), '--key-id', 'not an id']);
    expect(bad.code).toBe(2);
    expect(bad.stderr[0]).toMatch(/^openwop-eval-gate: --key-id must match /);
  });
});
