// redactContent shares what it does not redact (lib/report/canonical.ts): verify's comparer passes
// a shared member over by identity, so sharing must write exactly the JSON a copy would.

import { describe, expect, it } from 'vitest';
import { redactContent } from '../../lib/report/canonical.ts';
import { jsonDifferences } from '../../lib/report/verify/json-diff.ts';
import { REDACTED } from '../../lib/secrets.ts';

describe('redactContent shares what it leaves alone', () => {
  it('returns a document with nothing to redact as it is, at every depth', () => {
    const clean = JSON.parse('{"a":[1,{"b":"x"}],"c":{"d":null}}') as unknown;
    expect(redactContent(clean)).toBe(clean);
  });

  it('copies the objects and arrays on the way to a redacted member and shares their siblings', () => {
    const doc = { keep: { n: 1 }, list: [{ output: 'secret' }, { n: 2 }] };
    const out = redactContent(doc);
    expect(out).not.toBe(doc);
    expect(out.list).not.toBe(doc.list);
    expect(out.list[0]).toEqual({ output: REDACTED });
    expect(out.keep).toBe(doc.keep);
    expect(out.list[1]).toBe(doc.list[1]);
    expect(doc.list[0]).toEqual({ output: 'secret' });
  });

  it('copies what JSON reads differently from the original: a class instance, an own __proto__', () => {
    const dated = { at: new Date(0) };
    expect(JSON.stringify(redactContent(dated))).toBe('{"at":{}}');
    const poisoned = JSON.parse('{"__proto__":{"p":1},"b":2}') as unknown;
    expect(JSON.stringify(redactContent(poisoned))).toBe('{"b":2}');
    const bare = Object.assign(Object.create(null) as object, { n: 1 });
    expect(redactContent(bare)).not.toBe(bare);
    expect(redactContent(bare)).toEqual({ n: 1 });
  });

  it('keeps an array whose items are all kept, and copies one that lost an item to a redaction', () => {
    const kept = [1, 'two', { three: 3 }];
    expect(redactContent(kept)).toBe(kept);
    const nested = [[{ prompt: 'p' }]];
    expect(redactContent(nested)).toEqual([[{ prompt: REDACTED }]]);
    expect(nested).toEqual([[{ prompt: 'p' }]]);
  });
});

describe('the comparer passes over a shared value', () => {
  it('finds no difference between a value and itself, and still finds one beside it', () => {
    const shared = { deep: [1, 2, 3] };
    expect(jsonDifferences({ shared, n: 1 }, { shared, n: 2 })).toEqual([
      { path: 'n', recorded: 1, rebuilt: 2 },
    ]);
  });
});
