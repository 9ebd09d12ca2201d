// Everything about a report's signature in one place: reading key files, signing, checking a
// signature against a key, and finding a key by id in a `signingKeys[]` list (openwop/openwop
// schemas/v2/capabilities.schema.json). The same lookup serves every list a key can come from: the
// discovery a run captured, a host's live discovery, and a certifier's pinned keyring. Which of
// those may vouch for a report is lib/report/verify/anchor.ts's question, not this file's.

import { Refusal } from '../../refusal.ts';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { withCertification } from '../verdict/certification.ts';
import type { CiVerdict } from '../verdict/ci-verdict.ts';
import { ciVerdict } from '../verdict/ci-verdict.ts';
import type { EvalGateReport, ReportSignature, Signer } from '../report.ts';
import { reportDigest } from '../report.ts';

/** `keyId` of openwop/openwop schemas/v2/ids.schema.json. */
export const KEY_ID = /^[A-Za-z0-9._~-]{1,128}$/;
/** An ed25519 public key: 32 bytes, base64url without padding. */
const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;
/** The one `use` a signingKeys entry may name; an entry without `use` serves any purpose. */
export const CERTIFICATION_USE = 'certification-bundle';

/** A key file that cannot be used; the CLI turns it into exit 2 with this one-line message. */
export class KeyFileError extends Refusal {
  override readonly name: string = 'KeyFileError';
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

/** The raw public half of an ed25519 key (private or public), as `signingKeys[].publicKey` holds it. */
export function rawPublicKey(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' });
  return typeof jwk.x === 'string' ? jwk.x : '';
}

/**
 * The report with its signature member: the digest of everything else, signed. `keyId` names the
 * key among the host's published `signingKeys[]`, so a verifier can find its public half.
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

/**
 * Problems with the report's signature against `key`; an empty list means it verifies. `digest`
 * is the report's digest when the caller has already taken it.
 */
export function checkSignature(
  report: EvalGateReport,
  key: KeyObject,
  keyName = 'the given public key',
  digest?: string,
): string[] {
  const signature = report.signature;
  if (signature === undefined) return ['signature: the report is unsigned but a key was given'];
  const problems: string[] = [];
  digest ??= reportDigest(report);
  if (digest !== signature.reportDigest) {
    problems.push(
      `signature.reportDigest: recorded ${signature.reportDigest}, the report now digests to ${digest}`,
    );
  }
  let valid = false;
  try {
    valid = verify(
      null,
      Buffer.from(signature.reportDigest, 'hex'),
      key,
      Buffer.from(signature.value, 'base64'),
    );
  } catch {
    // A key of another type cannot check an ed25519 signature: that is a signature that fails.
  }
  if (!valid) problems.push(`signature.value: does not verify with ${keyName}`);
  return problems;
}

/** A key found in a signingKeys list, or why the list does not vouch under that id. */
export type KeyLookup =
  | {
      readonly found: true;
      readonly keyId: string;
      readonly key: KeyObject;
      readonly publicKey: string;
      /** A keyring's binding of the key to one implementation name; absent: any. */
      readonly implementation?: string;
      /** When the entry says the key retired (after `signedAt`, or it would not be found). */
      readonly retiredAt?: string;
    }
  | { readonly found: false; readonly why: string };

/**
 * Finds `keyId` in a `signingKeys[]` list and checks the entry can vouch for something signed at
 * `signedAt`: alg ed25519, a 43-character publicKey, `use` (when present) certification-bundle,
 * and not retired at or before `signedAt` (a retired key stays listed for what it signed before).
 * `where` names the list in every reason. Never throws.
 */
export function lookUpKey(
  keys: unknown,
  keyId: string,
  signedAt: string,
  where: string,
): KeyLookup {
  if (!Array.isArray(keys)) return missing(`${where} lists no signingKeys`);
  const entry: unknown = keys.find((k: unknown) => isRecord(k) && k.keyId === keyId);
  if (!isRecord(entry)) {
    const ids = keys.flatMap((k: unknown) =>
      isRecord(k) && typeof k.keyId === 'string' ? [k.keyId] : [],
    );
    return missing(
      `key ${keyId} is not among ${where}'s signingKeys (${ids.length === 0 ? 'none has a keyId' : ids.join(', ')})`,
    );
  }
  if (entry.alg !== 'ed25519') {
    return missing(`${where}: key ${keyId} has alg ${JSON.stringify(entry.alg)}, not ed25519`);
  }
  if (entry.use !== undefined && entry.use !== CERTIFICATION_USE) {
    return missing(
      `${where}: key ${keyId} is for use ${JSON.stringify(entry.use)}, not ${CERTIFICATION_USE}`,
    );
  }
  const raw = entry.publicKey;
  if (typeof raw !== 'string' || !RAW_KEY.test(raw)) {
    return missing(`${where}: key ${keyId} has no publicKey of 43 base64url characters`);
  }
  const retired = entry.retiredAt;
  if (retired !== undefined) {
    const at = typeof retired === 'string' ? Date.parse(retired) : Number.NaN;
    if (Number.isNaN(at)) return missing(`${where}: key ${keyId} has an unreadable retiredAt`);
    if (at <= Date.parse(signedAt)) {
      return missing(
        `${where}: key ${keyId} was retired at ${retired}, at or before the report was signed (${signedAt})`,
      );
    }
  }
  const binding = entry.implementation;
  if (binding !== undefined && typeof binding !== 'string') {
    return missing(`${where}: key ${keyId} has an implementation that is not a name`);
  }
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
    return {
      found: true,
      keyId,
      key,
      publicKey: raw,
      ...(binding === undefined ? {} : { implementation: binding }),
      ...(typeof retired === 'string' ? { retiredAt: retired } : {}),
    };
  } catch {
    return missing(`${where}: key ${keyId} is not a valid ed25519 public key`);
  }
}

/** The `signingKeys` member of a discovery document, whatever it holds. */
export function signingKeysOf(document: unknown): unknown {
  return isRecord(document) ? document.signingKeys : undefined;
}

/** The key a signed report names, looked up in the discovery the report itself captured. */
export function capturedKeyFor(report: EvalGateReport): KeyLookup {
  const signature = report.signature;
  if (signature === undefined) return missing('the report is unsigned');
  if (signature.keyId === undefined) return missing(NO_KEY_ID);
  return capturedKey(report, signature.keyId);
}

const NO_KEY_ID = 'the signature names no key id (sign with --key-id), so no published key applies';

/** `keyId` looked up in the discovery `report` captured, for a report signed when it was written. */
function capturedKey(report: EvalGateReport, keyId: string): KeyLookup {
  if (!report.discovery.ok) {
    return missing(
      `the report captured no discovery (${report.discovery.reason}) to find key ${keyId} in`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(report.discovery.text);
  } catch {
    return missing('the captured discovery is not JSON');
  }
  return lookUpKey(signingKeysOf(document), keyId, report.finishedAt, 'the captured discovery');
}

export const UNSIGNED: Signer = { state: 'unsigned' };

/**
 * What the report's signature comes to against the key the discovery it captured publishes: the
 * run's own record of who signed. It is evidence of integrity only; a verifier anchors it outside
 * the report (lib/report/verify/anchor.ts). `digest` is the report's when the caller has taken it.
 */
export function signerOf(report: EvalGateReport, digest?: string): Signer {
  if (report.signature === undefined) return UNSIGNED;
  const published = capturedKeyFor(report);
  if (!published.found) return { state: 'unverified', why: published.why };
  const name = `published key ${published.keyId}`;
  const problems = checkSignature(report, published.key, name, digest);
  if (problems.length > 0) return { state: 'unverified', why: problems.join('; ') };
  return { state: 'verified', keyId: published.keyId };
}

/**
 * The report with its certification, signed when a key is given. The signature covers the
 * certification, so the signer is known before signing: the key the captured discovery publishes
 * under `keyId` must be the public half of `key` (the run's pre-flight refuses a key the host does
 * not publish, so a run that gets here with a mismatch signed under a key it could not check).
 */
export function certifiedReport(
  unsigned: EvalGateReport,
  key: KeyObject | undefined,
  keyId?: string,
  gate: CiVerdict = ciVerdict(unsigned),
): EvalGateReport {
  if (key === undefined) return withCertification(unsigned, UNSIGNED, gate);
  const signer = expectedSigner(unsigned, key, keyId);
  return signReport(withCertification(unsigned, signer, gate), key, keyId);
}

function expectedSigner(unsigned: EvalGateReport, key: KeyObject, keyId?: string): Signer {
  if (keyId === undefined) return { state: 'unverified', why: NO_KEY_ID };
  const published = capturedKey(unsigned, keyId);
  if (!published.found) return { state: 'unverified', why: published.why };
  if (published.publicKey !== rawPublicKey(key)) {
    return {
      state: 'unverified',
      why: `signature.value: does not verify with published key ${keyId}`,
    };
  }
  return { state: 'verified', keyId };
}

function missing(why: string): KeyLookup {
  return { found: false, why };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
