// Canonical JSON, SHA-256, and the redaction applied before anything is written. Digests in the
// report are computed over canonical JSON so that a verifier can re-derive them from the parsed
// document whatever whitespace or key order a tool used when it saved the file.

import { isContentKey } from '../eval-gate-witness.ts';
import { REDACTED } from '../secrets.ts';

// Canonical JSON and the digests over it are shared ground: a generated case records its fixture's
// digest where the pack is decided, before any report is built.
export { canonicalDigest, canonicalJson, fixtureDigest, sha256Hex } from '../canonical-json.ts';

/**
 * The value with the value of every content deny-list key (contract §5), at any depth, replaced by
 * REDACTED: a copy of each object or array on the way to a replaced member, the rest shared. The
 * key stays, so the witness's content-free rule, which looks only for the key, judges the copy
 * exactly as it judged the original. What is shared is what verify's comparer passes over by
 * identity, so a report's largest members are not walked leaf by leaf.
 */
export function redactContent<T>(value: T): T {
  return mapJson(value, (key, item) => (isContentKey(key) ? REDACTED : item)) as T;
}

/**
 * Rebuilds a JSON value. `onMember` may replace an object member's value before it is walked. A
 * plain object or array none of whose members changed is returned as it is, which JSON writes as
 * it would write a copy; anything else is copied as JSON sees it: its own enumerable members, and
 * an own `__proto__` member set as the copy's prototype, which JSON does not write.
 * Recursive: a document nested deeper than the call stack throws a RangeError, which the report
 * builder turns into a refusal to write.
 */
function mapJson(value: unknown, onMember: (key: string, item: unknown) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = value.map((item: unknown) => mapJson(item, onMember));
    return out.every((item, i) => item === value[i]) ? value : out;
  }
  // Keys, not entries: a report's observations hold tens of thousands of members, and an entry
  // is an array made for each.
  const record = value as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  let same = Object.getPrototypeOf(value) === Object.prototype;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const replaced = onMember(key, item);
    const mapped = replaced === item ? mapJson(item, onMember) : replaced;
    if (mapped !== item || key === '__proto__') same = false;
    out[key] = mapped;
  }
  return same ? value : out;
}
