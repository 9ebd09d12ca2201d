// Canonical JSON, SHA-256, and the redaction applied before anything is written. Digests in the
// report are computed over canonical JSON so that a verifier can re-derive them from the parsed
// document whatever whitespace or key order a tool used when it saved the file.

import { isContentKey } from '../eval-gate-witness.ts';
import { REDACTED } from '../secrets.ts';

// Canonical JSON and the digests over it are shared ground: a generated case records its fixture's
// digest where the pack is decided, before any report is built.
export {
  canonicalDigest,
  canonicalJson,
  fixtureDigest,
  sameCanonicalJson,
  sha256Hex,
} from '../canonical-json.ts';

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
 * an own `__proto__` member set as the copy's prototype, which JSON does not write. A plain object
 * or array is copied only from its first changed member on, since almost none has one: a report's
 * observations hold tens of thousands of members and content in none of them.
 * Recursive: a document nested deeper than the call stack throws a RangeError, which the report
 * builder turns into a refusal to write.
 */
function mapJson(value: unknown, onMember: (key: string, item: unknown) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return mapItems(value as readonly unknown[], onMember);
  // Keys, not entries: an entry is an array made for each member.
  const record = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(record);
  let out: Record<string, unknown> | undefined =
    Object.getPrototypeOf(value) === Object.prototype ? undefined : {};
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    const item = record[key];
    const replaced = onMember(key, item);
    const mapped = replaced === item ? mapJson(item, onMember) : replaced;
    if (out === undefined) {
      if (mapped === item && key !== '__proto__') continue;
      // Every member before this one was kept as it is.
      out = {};
      for (const kept of keys.slice(0, i)) out[kept] = record[kept];
    }
    out[key] = mapped;
  }
  return out ?? value;
}

/** An array rebuilt item by item, copied only from its first changed item on; a hole stays one. */
function mapItems(
  items: readonly unknown[],
  onMember: (key: string, item: unknown) => unknown,
): unknown {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i += 1) {
    if (!(i in items)) continue;
    const item = items[i];
    const mapped = mapJson(item, onMember);
    if (out === undefined) {
      if (mapped === item) continue;
      out = items.slice();
    }
    out[i] = mapped;
  }
  return out ?? items;
}
