// The one comparer of `verify` (lib/report/verify/json-diff.ts) on literal values: every differing leaf
// named by its path, absent and undefined alike, lists of named elements compared by name.

import { describe, expect, it } from 'vitest';
import { describeDifference, jsonDifferences } from '../../lib/report/verify/json-diff.ts';

const lines = (a: unknown, b: unknown): string[] => jsonDifferences(a, b).map(describeDifference);

describe('jsonDifferences', () => {
  it('finds nothing between equal documents, whatever the order of their members', () => {
    expect(lines({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toEqual([]);
  });

  it('names each differing leaf by its path, in document order', () => {
    expect(
      lines(
        { a: 1, b: { c: true, d: 'x' }, e: [1, 2] },
        { a: 2, b: { c: false, d: 'x' }, e: [1, 3] },
      ),
    ).toEqual([
      'a: recorded 1, rebuilt 2',
      'b.c: recorded true, rebuilt false',
      'e[1]: recorded 2, rebuilt 3',
    ]);
  });

  it('reads an absent member and an undefined one as the same, and names one on one side only', () => {
    expect(lines({ a: undefined }, {})).toEqual([]);
    expect(lines({ a: 1 }, {})).toEqual(['a: recorded 1, rebuilt nothing']);
    expect(lines({}, { a: null })).toEqual(['a: recorded nothing, rebuilt null']);
  });

  it('names a member that is a container on one side and a leaf on the other where they part', () => {
    expect(lines({ a: { b: 1 } }, { a: [1] })).toEqual(['a: recorded {"b":1}, rebuilt [1]']);
    expect(lines({ a: '1' }, { a: 1 })).toEqual(['a: recorded "1", rebuilt 1']);
  });

  it('names an element added to or dropped from a list by its position', () => {
    expect(lines({ a: [1, 2] }, { a: [1] })).toEqual(['a[1]: recorded 2, rebuilt nothing']);
  });

  it('compares a list whose elements carry unique ids by id, so a dropped row is one difference', () => {
    const rows = [
      { id: 'x', v: 1 },
      { id: 'y', v: 2 },
      { id: 'z', v: 3 },
    ];
    expect(lines({ rows }, { rows: [rows[0], { id: 'z', v: 4 }] })).toEqual([
      'rows[id=y]: recorded {"id":"y","v":2}, rebuilt nothing',
      'rows[id=z].v: recorded 3, rebuilt 4',
    ]);
  });

  it('names a row added to a list of named elements as one difference, not a change of order', () => {
    const x = { id: 'x', v: 1 };
    const y = { id: 'y', v: 2 };
    const z = { id: 'z', v: 3 };
    expect(lines({ rows: [x, z] }, { rows: [x, y, z] })).toEqual([
      'rows[id=y]: recorded nothing, rebuilt {"id":"y","v":2}',
    ]);
  });

  it('compares by position a list in which only some elements carry a name', () => {
    expect(
      lines({ r: [{ id: 'a', v: 1 }, { v: 2 }] }, { r: [{ id: 'a', v: 1 }, { v: 3 }] }),
    ).toEqual(['r[1].v: recorded 2, rebuilt 3']);
  });

  it('reads null as a leaf: null beside an object is one difference there, and null equals null', () => {
    expect(lines({ a: null }, { a: { b: 1 } })).toEqual(['a: recorded null, rebuilt {"b":1}']);
    expect(lines({ a: null }, { a: null })).toEqual([]);
  });

  it('names a list of named elements put in another order', () => {
    const reasons = [{ code: 'failed' }, { code: 'unsigned' }];
    expect(lines({ reasons }, { reasons: [...reasons].reverse() })).toEqual([
      'reasons(order of code): recorded ["failed","unsigned"], rebuilt ["unsigned","failed"]',
    ]);
  });

  it('compares reasons by code, and falls back to positions when a name repeats', () => {
    const reasons = [{ code: 'failed' }, { code: 'unsigned' }];
    expect(lines({ reasons }, { reasons: [{ code: 'unsigned' }] })).toEqual([
      'reasons[code=failed]: recorded {"code":"failed"}, rebuilt nothing',
    ]);
    expect(lines({ r: [{ id: 'a' }, { id: 'a' }] }, { r: [{ id: 'a' }, { id: 'b' }] })).toEqual([
      'r[1].id: recorded "a", rebuilt "b"',
    ]);
  });

  it('quotes a member name that is not an identifier', () => {
    expect(lines({ totals: { 'executed-pass': 1 } }, { totals: { 'executed-pass': 2 } })).toEqual([
      'totals["executed-pass"]: recorded 1, rebuilt 2',
    ]);
  });

  it('cuts a long value short so one difference stays one readable line', () => {
    const [line] = lines({ a: 'x'.repeat(500) }, { a: 'y' });
    expect(line).toBe(`a: recorded "${'x'.repeat(199)}…, rebuilt "y"`);
  });

  it('shows a value of 200 characters of JSON whole', () => {
    const [line] = lines({ a: 'x'.repeat(198) }, { a: 'y' });
    expect(line).toBe(`a: recorded "${'x'.repeat(198)}", rebuilt "y"`);
  });

  it('compares numbers as JSON writes them, as the recorded side was read', () => {
    expect(lines({ a: 0 }, { a: -0 })).toEqual([]);
    expect(lines({ a: null }, { a: Number.NaN })).toEqual([]);
    expect(lines({ a: 0 }, { a: 1e-7 })).toEqual(['a: recorded 0, rebuilt 1e-7']);
  });
});
