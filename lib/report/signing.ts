// Optional ed25519 signatures over the report digest (node:crypto only). A host signs with its own
// key (`run --sign KEYFILE`); a certifier checks with the public half (`verify --key PUBFILE`).

import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EvalGateReport, ReportSignature } from './report.ts';
import { reportDigest } from './report.ts';

/** A key file that cannot be used; the CLI turns it into exit 2 with this one-line message. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

export async function readSigningKey(path: string): Promise<KeyObject> {
  return readKey(path, 'private', (pem) => createPrivateKey(pem));
}

export async function readVerifyingKey(path: string): Promise<KeyObject> {
  return readKey(path, 'public', (pem) => createPublicKey(pem));
}

async function readKey(
  path: string,
  kind: 'private' | 'public',
  parse: (pem: string) => KeyObject,
): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw new KeyFileError(
      `key file ${path} could not be read (${code}); give a PEM ed25519 ${kind} key`,
    );
  }
  let key: KeyObject;
  try {
    key = parse(pem);
  } catch {
    // The parser's message is not quoted: it can echo part of the file, which is a private key.
    throw new KeyFileError(
      `key file ${path} is not a PEM ${kind} key; give a PEM ed25519 ${kind} key`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new KeyFileError(
      `key file ${path} holds a ${key.asymmetricKeyType ?? 'non-asymmetric'} key; give a PEM ed25519 ${kind} key`,
    );
  }
  return key;
}

/**
 * The report with its signature member: the digest of everything else, signed. `keyId` names the
 * key among the host's published `signingKeys[]`, so `verify` can find its public half.
 */
export function signReport(report: EvalGateReport, key: KeyObject, keyId?: string): EvalGateReport {
  const digest = reportDigest(report);
  const signature: ReportSignature = {
    algorithm: 'ed25519',
    ...(keyId === undefined ? {} : { keyId }),
    reportDigest: digest,
    value: sign(null, Buffer.from(digest, 'hex'), key).toString('base64'),
  };
  return { ...report, signature };
}

/** Problems with the report's signature against `key`; an empty list means it verifies. */
export function checkSignature(
  report: EvalGateReport,
  key: KeyObject,
  keyName = 'the given public key',
): string[] {
  const signature = report.signature;
  if (signature === undefined) return ['signature: the report is unsigned but a key was given'];
  const problems: string[] = [];
  const digest = reportDigest(report);
  if (digest !== signature.reportDigest) {
    problems.push(
      `signature.reportDigest: recorded ${signature.reportDigest}, the report now digests to ${digest}`,
    );
  }
  const valid = verify(
    null,
    Buffer.from(signature.reportDigest, 'hex'),
    key,
    Buffer.from(signature.value, 'base64'),
  );
  if (!valid) problems.push(`signature.value: does not verify with ${keyName}`);
  return problems;
}
