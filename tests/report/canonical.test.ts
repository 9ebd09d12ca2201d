// Canonical JSON, digests and redaction: the definitions docs/report.md gives, pinned.

import { describe, expect, it } from 'vitest';
import { canonicalDigest, canonicalJson, redactContent } from '../../lib/report/canonical.ts';
import { REDACTED } from '../../lib/secrets.ts';
import { findContentKey } from '../../lib/witness/content.ts';

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
