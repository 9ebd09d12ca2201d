// Canonical JSON and SHA-256 over it: how the report, the fixture manifest and a generated case
// name a document by its content, whatever whitespace or key order a tool used to save it.

import { createHash } from 'node:crypto';
import type { Fixture } from './types.ts';

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit (JavaScript's default sort), no
 * whitespace, strings and numbers exactly as JSON.stringify writes them, members whose value is
 * undefined left out. Non-finite numbers cannot be written as JSON, so they are refused.
 *
 * A report's canonical form is taken on every run and several times by `verify`, and most of its
 * objects arrive in the key order a host chose, so the native serializer does the writing, handed
 * a copy whose objects hold their keys in sorted order. Where it would write something else (an
 * integer-like key, which an object always enumerates first; anything but a plain object, an
 * array or a JSON value), the value is written by the definition itself.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedCopy(value);
  return sorted === NOT_PLAIN ? canonicalByDefinition(value) : JSON.stringify(sorted);
}

const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;
const NOT_PLAIN = Symbol('not plain JSON');

/** `value` with every object's keys in sorted order and undefined members left out. */
function sortedCopy(value: unknown): unknown {
  const kind = kindOf(value);
  if (kind === NOT_PLAIN) return NOT_PLAIN;
  if (kind === 'leaf') return value;
  if (kind === 'array') {
    const items = value as readonly unknown[];
    const copy: unknown[] = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i += 1) {
      // A hole: the definition's map leaves it empty where the serializer writes null.
      if (!(i in items)) return NOT_PLAIN;
      const item = items[i];
      const sorted = item === undefined ? null : sortedCopy(item);
      if (sorted === NOT_PLAIN) return NOT_PLAIN;
      copy[i] = sorted;
    }
    return copy;
  }
  const record = value as Readonly<Record<string, unknown>>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    if (unplainKey(key)) return NOT_PLAIN;
    const sorted = sortedCopy(member);
    if (sorted === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = sorted;
  }
  return copy;
}

function canonicalByDefinition(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalByDefinition(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const record = value as Readonly<Record<string, unknown>>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalByDefinition(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

/**
 * Whether `a` and `b` have the same canonical JSON, found by walking the two side by side: the
 * walk writes nothing, stops at the first difference, and takes a value both share as the same.
 * It answers for values JSON can hold, as a parsed document does; where the walk meets anything
 * else first (a non-finite number, a class instance, an integer-like or `__proto__` key, a hole),
 * the two are written out and compared, so the answer, or the refusal, is canonicalJson's own.
 */
export function sameCanonicalJson(a: unknown, b: unknown): boolean {
  const same = plainlySame(a, b);
  return same === NOT_PLAIN ? canonicalJson(a) === canonicalJson(b) : same;
}

type Kind = 'leaf' | 'array' | 'object';

/** How the fast paths write a value: a leaf as JSON.stringify does, or a container member by member. */
function kindOf(value: unknown): Kind | typeof NOT_PLAIN {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return 'leaf';
    case 'number':
      return Number.isFinite(value) ? 'leaf' : NOT_PLAIN;
    case 'object': {
      if (value === null) return 'leaf';
      if (Array.isArray(value)) return 'array';
      const prototype = Object.getPrototypeOf(value) as unknown;
      return prototype === Object.prototype || prototype === null ? 'object' : NOT_PLAIN;
    }
    default:
      return NOT_PLAIN;
  }
}

function plainlySame(a: unknown, b: unknown): boolean | typeof NOT_PLAIN {
  const kind = kindOf(a);
  const other = kindOf(b);
  if (kind === NOT_PLAIN || other === NOT_PLAIN) return NOT_PLAIN;
  if (a === b) return true;
  // Two leaves JSON.stringify writes alike are the same value (0 and -0 are, by ===).
  if (kind !== other || kind === 'leaf') return false;
  return kind === 'array'
    ? sameItems(a as readonly unknown[], b as readonly unknown[])
    : sameMembers(a as Readonly<Record<string, unknown>>, b as Readonly<Record<string, unknown>>);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean | typeof NOT_PLAIN {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    if (!(i in a) || !(i in b)) return NOT_PLAIN;
    // An undefined item is written as null.
    const same = plainlySame(a[i] ?? null, b[i] ?? null);
    if (same !== true) return same;
  }
  return true;
}

/**
 * A key the fast paths do not write as a plain member: an integer-like key, which an object always
 * enumerates first, and `__proto__`, which JSON.parse makes an own member but which, assigned to a
 * copy, would set the copy's prototype instead and drop the member from the output.
 */
function unplainKey(key: string): boolean {
  if (key === '__proto__') return true;
  // Only a key that starts with a digit can be integer-like; most keys are words.
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && INTEGER_KEY.test(key);
}

function sameMembers(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean | typeof NOT_PLAIN {
  // A member whose value is undefined is not written, so only the others are counted.
  let unmatched = 0;
  for (const key of Object.keys(a)) {
    const item = a[key];
    if (item === undefined) continue;
    if (unplainKey(key)) return NOT_PLAIN;
    unmatched += 1;
    const counterpart = Object.hasOwn(b, key) ? b[key] : undefined;
    if (counterpart === undefined) return false;
    const same = plainlySame(item, counterpart);
    if (same !== true) return same;
  }
  for (const key of Object.keys(b)) {
    if (b[key] === undefined) continue;
    if (unplainKey(key)) return NOT_PLAIN;
    unmatched -= 1;
  }
  return unmatched === 0;
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
