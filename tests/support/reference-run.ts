// A run's report, made as a user makes one: the reference host started with at most one defect
// (and, to sign, publishing the signing key in its discovery), the suite run against it through
// the CLI, the four files written to a fresh scratch folder.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DefectName } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { runCli } from '../../cli/cli.ts';
import { rawPublicKey } from '../../lib/report/verify/signature.ts';

const KEY = 'browser-lane-key-0001';

export interface WrittenRun {
  readonly dir: string;
  readonly code: number;
  readonly lines: readonly string[];
}

/** A report-signing key: its private half in a PEM file, its public half as discovery lists it. */
export interface SigningPair {
  readonly keyId: string;
  readonly pem: string;
  readonly publicKey: string;
}

export async function signingPair(dir: string, keyId: string): Promise<SigningPair> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = join(dir, `${keyId}.pem`);
  await writeFile(pem, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return { keyId, pem, publicKey: rawPublicKey(publicKey) };
}

/** A keyring (`--trusted-keys`) that pins these keys. */
export async function writeKeyring(path: string, pairs: readonly SigningPair[]): Promise<string> {
  const signingKeys = pairs.map((p) => ({
    keyId: p.keyId,
    alg: 'ed25519',
    publicKey: p.publicKey,
  }));
  await writeFile(path, JSON.stringify({ signingKeys }));
  return path;
}

/** Runs every leg against the reference host with `defect` on (or none) into a fresh folder. */
export async function runAgainstReferenceHost(
  defect: DefectName | undefined,
  sign?: SigningPair,
): Promise<WrittenRun> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-gate-run-'));
  const host = await startReferenceHost({
    apiKey: KEY,
    ...(defect === undefined ? {} : { defect }),
    ...(sign === undefined ? {} : { signingKey: { keyId: sign.keyId, publicKey: sign.publicKey } }),
  });
  try {
    const signing = sign === undefined ? [] : ['--sign', sign.pem, '--key-id', sign.keyId];
    const lines: string[] = [];
    const code = await runCli(['run', '--base-url', host.url, '--report-dir', dir, ...signing], {
      log: (l) => lines.push(l),
      error: (l) => lines.push(l),
      env: { OPENWOP_API_KEY: KEY },
    });
    return { dir, code, lines };
  } finally {
    await host.close();
  }
}

/** Runs every leg against the embedded reference host (no base URL) into a fresh folder. */
export async function runEmbedded(): Promise<WrittenRun> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-gate-embedded-'));
  const lines: string[] = [];
  const code = await runCli(['run', '--report-dir', dir], {
    log: (l) => lines.push(l),
    error: (l) => lines.push(l),
    env: {},
  });
  return { dir, code, lines };
}
