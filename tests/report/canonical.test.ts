// Canonical JSON, digests and redaction: the definitions docs/report.md gives, pinned.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalDigest,
  canonicalJson,
  redactContent,
  sameCanonicalJson,
} from '../../lib/report/canonical.ts';
import { REDACTED } from '../../lib/secrets.ts';
import { findContentKey } from '../../lib/witness/content.ts';

/** The definition docs/report.md gives, written out plainly: the oracle for the fast path. */
function byDefinition(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : byDefinition(item))).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const members = keys.filter((key) => record[key] !== undefined);
    return `{${members.map((key) => `${JSON.stringify(key)}:${byDefinition(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ z: true, y: null }, 'x'], c: undefined })).toBe(
      '{"a":[{"y":null,"z":true},"x"],"b":1}',
    );
  });

  it('gives the same digest for the same value whatever the key order or spacing of its source', () => {
    const one = JSON.parse('{ "x": 1, "y": { "b": 2, "a": 0.5 } }') as unknown;
    const two = JSON.parse('{"y":{"a":0.5,"b":2},"x":1}') as unknown;
    expect(canonicalDigest(one)).toBe(canonicalDigest(two));
    expect(canonicalDigest(one)).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalDigest({ x: 1 })).not.toBe(canonicalDigest({ x: 2 }));
  });

  it('refuses a number JSON cannot hold', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/cannot hold NaN/);
  });

  it('writes what the definition writes for any JSON value, whatever its key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(byDefinition(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes an own "__proto__" member as the definition does, never as a prototype', () => {
    const parsed: unknown = JSON.parse('{"b":1,"__proto__":{"x":[1]}}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":[1]},"b":1}');
    expect(canonicalJson(parsed)).toBe(byDefinition(parsed));
    expect(canonicalJson({ list: [parsed] })).toBe('{"list":[{"__proto__":{"x":[1]},"b":1}]}');
  });

  it('writes an integer-like key in sorted order, not the order an object enumerates it', () => {
    expect(canonicalJson({ b: { 10: 'x', 2: 'y', $k: 0 }, a: 1 })).toBe(
      '{"a":1,"b":{"$k":0,"10":"x","2":"y"}}',
    );
  });

  it('writes what the definition writes where JSON.stringify alone would differ', () => {
    const dated = { at: new Date(0), boxed: [Object('s') as unknown, Object(1) as unknown] };
    expect(canonicalJson(dated)).toBe(byDefinition(dated));
    expect(canonicalJson({ list: [1, undefined, 2] })).toBe('{"list":[1,null,2]}');
    expect(() => canonicalJson({ deep: [{ n: Number.POSITIVE_INFINITY }] })).toThrow(
      /cannot hold Infinity/,
    );
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/cannot hold a function/);
    expect(() => canonicalJson([10n])).toThrow(/cannot hold a bigint/);
  });
});

/** `value` with every object's keys in reverse order: the same canonical JSON, other objects. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .reverse()
      .map((key) => [key, reordered(record[key])]),
  );
}

describe('sameCanonicalJson', () => {
  const same = (a: unknown, b: unknown): void => {
    expect(sameCanonicalJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
  };

  it('answers as comparing the canonical JSON of any two JSON values does', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), same), { numRuns: 300 });
  });

  it('finds a value the same as its copy in another key order, and not once one leaf differs', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(sameCanonicalJson(value, reordered(value))).toBe(true);
        const changed = { wrapped: reordered(value), extra: 0 };
        expect(sameCanonicalJson({ wrapped: value }, changed)).toBe(false);
        expect(sameCanonicalJson([value, 1], [reordered(value), 2])).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('reads undefined as canonical JSON does: a member left out, an item written as null', () => {
    expect(sameCanonicalJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameCanonicalJson({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameCanonicalJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameCanonicalJson([undefined], [null])).toBe(true);
    expect(sameCanonicalJson({ a: 0 }, { a: -0 })).toBe(true);
    expect(sameCanonicalJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameCanonicalJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameCanonicalJson({ a: [] }, { a: {} })).toBe(false);
  });

  it('leaves what the fast path does not write to canonicalJson itself, refusals included', () => {
    same({ at: new Date(0) }, {});
    same({ 10: 'x', 2: 'y' }, { 2: 'y', 10: 'x' });
    same({ k: { 10: 'x' } }, { k: { 10: 'y' } });
    same(JSON.parse('{"__proto__": {"p": 1}, "b": 2}'), { b: 2 });
    same(Object.assign(Object.create(null) as object, { n: 1 }), { n: 1 });
    // eslint-disable-next-line no-sparse-arrays
    same([1, , 2], [1, null, 2]);
    expect(() => sameCanonicalJson({ n: Number.NaN }, { n: 1 })).toThrow(/cannot hold NaN/);
    expect(() => sameCanonicalJson([1], [() => 1])).toThrow(/cannot hold a function/);
    expect(() => sameCanonicalJson(undefined, undefined)).toThrow(/cannot hold a undefined/);
  });
});

describe('redactContent', () => {
  const leaked = {
    taskId: 't',
    score: 1,
    output: 'the answer',
    nested: [{ prompt: { text: 'secret prompt' }, keep: 'kept' }],
  };

  it('replaces the value of every deny-list key at any depth and keeps the key', () => {
    expect(redactContent(leaked)).toEqual({
      taskId: 't',
      score: 1,
      output: REDACTED,
      nested: [{ prompt: REDACTED, keep: 'kept' }],
    });
    expect(leaked.output).toBe('the answer');
  });

  it('redacts content under vendor or differently cased names, exactly as the witness flags them', () => {
    const leaked = {
      'x-Prompt': 'say the secret',
      'vendor.acme.completion': 'done',
      outputFormat: 'json',
    };
    expect(redactContent(leaked)).toEqual({
      'x-Prompt': REDACTED,
      'vendor.acme.completion': REDACTED,
      outputFormat: 'json',
    });
  });

  it('keeps the key the content-free rule looks for, so the redacted copy still fails it', () => {
    expect(findContentKey(redactContent(leaked))).toBe('.output');
  });
});
