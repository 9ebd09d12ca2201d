// Canonical JSON and SHA-256 over it: how the report, the fixture manifest and a generated case
// name a document by its content, whatever whitespace or key order a tool used to save it.

import { createHash } from 'node:crypto';
import type { Fixture } from './types.ts';

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit (JavaScript's default sort), no
 * whitespace, strings and numbers exactly as JSON.stringify writes them, members whose value is
 * undefined left out. Non-finite numbers cannot be written as JSON, so they are refused.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const record = value as Readonly<Record<string, unknown>>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the canonical JSON of `value`, as lowercase hex. */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * The digest of a fixture the report records and `openwop-eval-gate fixtures` lists: of its
 * canonical JSON, so a host that re-indents a fixture it seeded still holds the same one.
 */
export function fixtureDigest(fixture: Fixture): string {
  return canonicalDigest(fixture);
}
