// The keys the reference host publishes in discovery `signingKeys`, from its flags: one or more
// public keys, each under its id, and any of them marked retired at a time, so a rotation can be
// rehearsed end to end (publish the new key beside the old one, retire the old one). Pure apart
// from the injected reader of key files, so a refusal is tested without a process.

import { createPublicKey, type KeyObject } from 'node:crypto';
import type { PublishedSigningKey } from './discovery.ts';

/** The id a lone key is published under when no `--key-id` names it. */
export const DEFAULT_KEY_ID = 'reference-host-key';

export interface SigningKeyFlags {
  /** `--signing-key PEM`, in order. */
  readonly files: readonly string[];
  /** `--key-id ID`, the i-th naming the i-th file. */
  readonly ids: readonly string[];
  /** `--retire ID=TIME`: the key published under ID stopped vouching at TIME. */
  readonly retirements: readonly string[];
}

/** An ISO 8601 UTC time to the second or finer, such as 2026-06-01T00:00:00Z. */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/**
 * The published keys the flags name, or the one-line reason they cannot be published (thrown as
 * an Error whose message the command prints).
 */
export function publishedKeys(
  flags: SigningKeyFlags,
  readKey: (path: string) => string,
): PublishedSigningKey[] {
  const { files, ids, retirements } = flags;
  if (files.length === 0) {
    if (ids.length > 0 || retirements.length > 0) {
      throw new Error('--key-id and --retire name keys given with --signing-key; none was given');
    }
    return [];
  }
  // One key may go unnamed; several are told apart only by the ids given in the same order.
  if (!(files.length === 1 && ids.length === 0) && ids.length !== files.length) {
    throw new Error(
      `${files.length} --signing-key and ${ids.length} --key-id: give one --key-id per key, in the same order`,
    );
  }
  const named = files.map((file, i) => ({ file, keyId: ids[i] ?? DEFAULT_KEY_ID }));
  const repeated = named.find((k, i) => named.findIndex((o) => o.keyId === k.keyId) !== i);
  if (repeated !== undefined) throw new Error(`--key-id ${repeated.keyId} is given twice`);
  const retiredAt = new Map<string, string>();
  for (const retirement of retirements) {
    const cut = retirement.indexOf('=');
    const keyId = cut < 0 ? '' : retirement.slice(0, cut);
    const at = cut < 0 ? '' : retirement.slice(cut + 1);
    if (!named.some((k) => k.keyId === keyId)) {
      throw new Error(
        `--retire ${retirement}: give ID=TIME with the id of a published key (${named.map((k) => k.keyId).join(', ')})`,
      );
    }
    if (!UTC_TIME.test(at) || Number.isNaN(Date.parse(at))) {
      throw new Error(
        `--retire ${retirement}: the time must be UTC in ISO 8601, such as 2026-06-01T00:00:00Z`,
      );
    }
    if (retiredAt.has(keyId)) throw new Error(`--retire names key ${keyId} twice`);
    retiredAt.set(keyId, at);
  }
  return named.map(({ file, keyId }) => {
    const retired = retiredAt.get(keyId);
    return {
      keyId,
      publicKey: rawPublicKey(file, readKey),
      ...(retired === undefined ? {} : { retiredAt: retired }),
    };
  });
}

/** The raw public key of a PEM file (public, or private whose public half is taken), base64url. */
function rawPublicKey(path: string, readKey: (path: string) => string): string {
  let key: KeyObject;
  try {
    key = createPublicKey(readKey(path));
  } catch (err) {
    throw new Error(
      `--signing-key ${path}: ${(err as NodeJS.ErrnoException).code ?? 'not a PEM key'}`,
      { cause: err },
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`--signing-key ${path}: not an ed25519 key`);
  const x = key.export({ format: 'jwk' }).x;
  if (typeof x !== 'string') throw new Error(`--signing-key ${path}: no public key`);
  return x;
}
