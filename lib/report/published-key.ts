// The host's own signing key, as its discovery published it (`signingKeys[]` in
// openwop/openwop schemas/v2/capabilities.schema.json). A
// report signed with `run --sign KEY.pem --key-id ID` names the key; `verify` without `--key`
// looks that id up in the discovery document the report captured. That document came from the
// host during the run, but it is inside the report: whoever can rewrite the report can rewrite it
// too. A verified signature therefore says the report is whole and was signed with the key the
// captured discovery names; comparing that key with the host's live discovery is the certifier's.

import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { EvalGateReport } from './report.ts';

/** `keyId` of openwop/openwop schemas/v2/ids.schema.json. */
export const KEY_ID = /^[A-Za-z0-9._~-]{1,128}$/;
/** An ed25519 public key: 32 bytes, base64url without padding. */
const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

export type PublishedKey =
  | { readonly usable: true; readonly keyId: string; readonly key: KeyObject }
  /** No key to check the signature with; `why` says which link is missing. */
  | { readonly usable: false; readonly why: string };

/** Resolves the key a signed report names in the discovery it captured. Never throws. */
export function publishedKeyFor(report: EvalGateReport): PublishedKey {
  const signature = report.signature;
  if (signature === undefined) return none('the report is unsigned');
  const keyId = signature.keyId;
  if (keyId === undefined) {
    return none('the signature names no key id (sign with --key-id), so no published key applies');
  }
  if (!report.discovery.ok) {
    return none(
      `the report captured no discovery (${report.discovery.reason}) to find key ${keyId} in`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(report.discovery.text);
  } catch {
    return none('the captured discovery is not JSON');
  }
  const keys = isRecord(document) ? document.signingKeys : undefined;
  if (!Array.isArray(keys)) return none('the captured discovery publishes no signingKeys');
  const entry: unknown = keys.find((k: unknown) => isRecord(k) && k.keyId === keyId);
  if (!isRecord(entry)) {
    const ids = keys.flatMap((k: unknown) =>
      isRecord(k) && typeof k.keyId === 'string' ? [k.keyId] : [],
    );
    return none(
      `key ${keyId} is not among the captured discovery's signingKeys (${ids.length === 0 ? 'none has a keyId' : ids.join(', ')})`,
    );
  }
  if (entry.alg !== 'ed25519') {
    return none(`signingKeys entry ${keyId} has alg ${JSON.stringify(entry.alg)}, not ed25519`);
  }
  const raw = entry.publicKey;
  if (typeof raw !== 'string' || !RAW_KEY.test(raw)) {
    return none(`signingKeys entry ${keyId} has no publicKey of 43 base64url characters`);
  }
  const retired = entry.retiredAt;
  if (retired !== undefined) {
    const at = typeof retired === 'string' ? Date.parse(retired) : Number.NaN;
    if (Number.isNaN(at)) return none(`signingKeys entry ${keyId} has an unreadable retiredAt`);
    // A key retired after the report was signed still vouches for it; one retired before does not.
    if (at <= Date.parse(report.finishedAt)) {
      return none(
        `key ${keyId} was retired at ${retired}, before this report was signed (finishedAt ${report.finishedAt})`,
      );
    }
  }
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
    return { usable: true, keyId, key };
  } catch {
    return none(`signingKeys entry ${keyId} is not a valid ed25519 public key`);
  }
}

function none(why: string): PublishedKey {
  return { usable: false, why };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
