// Canonical JSON, SHA-256, and the redaction applied before anything is written. Digests in the
// report are computed over canonical JSON so that a verifier can re-derive them from the parsed
// document whatever whitespace or key order a tool used when it saved the file.

import { createHash } from 'node:crypto';
import { isContentKey } from '../eval-gate-witness.ts';
import { REDACTED } from '../secrets.ts';
import type { Fixture } from '../types.ts';

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

/**
 * A deep copy in which the value of every content deny-list key (contract §5), at any depth, is
 * replaced by REDACTED. The key stays, so the witness's content-free rule, which looks only for
 * the key, judges the copy exactly as it judged the original.
 */
export function redactContent<T>(value: T): T {
  return mapJson(value, (key, item) => (isContentKey(key) ? REDACTED : item)) as T;
}

/**
 * Rebuilds a JSON value. `onMember` may replace an object member's value before it is walked.
 * Recursive: a document nested deeper than the call stack throws a RangeError, which the report
 * builder turns into a refusal to write.
 */
function mapJson(value: unknown, onMember: (key: string, item: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => mapJson(item, onMember));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const replaced = onMember(key, item);
      out[key] = replaced === item ? mapJson(item, onMember) : replaced;
    }
    return out;
  }
  return value;
}
