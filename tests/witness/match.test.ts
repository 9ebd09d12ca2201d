// The two matchers on their own, case by case: each case a pair the matcher must tell apart (or
// must not), where expected.test.ts reaches them through a graded fixture.

import { describe, expect, it } from 'vitest';
import type { ExpectedTrajectory, Json, ToolCall } from '../../lib/types.ts';
import { goldenMatches, jsonEqual, matchTrajectory, missedTool } from '../../lib/witness/match.ts';

const a: ToolCall = { tool: 's:a' };
const b: ToolCall = { tool: 's:b' };
const c: ToolCall = { tool: 's:c' };

const trajectory = (
  match: ExpectedTrajectory['match'],
  calls: ToolCall[],
  forbidden?: string[],
): ExpectedTrajectory => ({ match, calls, ...(forbidden === undefined ? {} : { forbidden }) });

const matches = (t: ExpectedTrajectory, observed: ToolCall[]) => matchTrajectory(t, observed);

describe('jsonEqual', () => {
  it('holds for equal primitives and null, and not across types', () => {
    expect([
      jsonEqual(42, 42),
      jsonEqual('x', 'x'),
      jsonEqual(null, null),
      jsonEqual(true, true),
    ]).toEqual([true, true, true, true]);
    expect([
      jsonEqual(null, {}),
      jsonEqual({}, null),
      jsonEqual(1, '1'),
      jsonEqual(0, false),
    ]).toEqual([false, false, false, false]);
  });

  it('tells a primitive from an object, either way round', () => {
    expect([jsonEqual(0, {}), jsonEqual({}, 0), jsonEqual('', []), jsonEqual([], '')]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('tells an array from an object with the same indices, either way round', () => {
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual({ 0: 1 }, [1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual([], { length: 0 })).toBe(false);
    expect(jsonEqual([1], { 0: 1, length: 1 })).toBe(false);
  });

  it('needs arrays of the same length and objects of the same members', () => {
    expect([jsonEqual([1, 2], [1, 2, 3]), jsonEqual([1, 2, 3], [1, 2])]).toEqual([false, false]);
    expect([jsonEqual([[1]], [[1]]), jsonEqual([[1]], [[2]])]).toEqual([true, false]);
    expect(jsonEqual([1, 2], [1, 3])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual({ a: { b: 1 } }, { a: { b: 1 } })).toBe(true);
  });

  it('reads only own members: a parsed "__proto__" member is not the prototype', () => {
    const own = JSON.parse('{"__proto__": {}}') as Json;
    expect(jsonEqual(own, { x: 1 })).toBe(false);
  });
});

describe('goldenMatches', () => {
  it('exact, contains and json-match each judge by their own comparison', () => {
    expect(goldenMatches({ strategy: 'exact', value: 'a' }, 'a')).toBe(true);
    expect(goldenMatches({ strategy: 'exact', value: 'a' }, 'ab')).toBe(false);
    expect(goldenMatches({ strategy: 'contains', value: 'b' }, 'abc')).toBe(true);
    expect(goldenMatches({ strategy: 'contains', value: 'd' }, 'abc')).toBe(false);
    expect(goldenMatches({ strategy: 'contains', value: 2 }, [1, 2])).toBe(true);
    expect(goldenMatches({ strategy: 'json-match', value: 1 }, '1')).toBe(false);
    expect(goldenMatches({ strategy: 'json-match', value: null }, null)).toBe(true);
  });
});

describe('missedTool', () => {
  it('names the first unrecorded call, and none when every call is recorded', () => {
    expect(missedTool([{ tool: 's:a' }], [a, b, c])).toBe('s:b');
    expect(missedTool([{ tool: 's:a' }, { tool: 's:b' }], [b, a])).toBeNull();
    expect(missedTool(undefined, [a])).toBeNull();
  });
});

describe('matchTrajectory', () => {
  it('exact fails on fewer calls, and on a call with other args', () => {
    expect(matches(trajectory('exact', [a, b]), [a]).matched).toBe(false);
    expect(
      matches(trajectory('exact', [{ tool: 's:a', args: { id: 1 } }]), [
        { tool: 's:a', args: { id: 2 } },
      ]).matched,
    ).toBe(false);
    expect(matches(trajectory('exact', []), []).matched).toBe(true);
  });

  it('in-order uses each observed call once', () => {
    expect(matches(trajectory('in-order', [a, a]), [c, a]).matched).toBe(false);
    expect(matches(trajectory('in-order', [a, a]), [a, c, a]).matched).toBe(true);
    expect(matches(trajectory('in-order', [a, b]), [a]).matched).toBe(false);
    expect(matches(trajectory('in-order', [b]), [a, b]).matched).toBe(true);
  });

  it('any-order accepts any order, needs every call, and reassigns a call an earlier pick took', () => {
    expect(matches(trajectory('any-order', [a, b]), [b, a]).matched).toBe(true);
    expect(matches(trajectory('any-order', [a, b]), [a, c]).matched).toBe(false);
    expect(matches(trajectory('any-order', [a, b]), []).matched).toBe(false);
    const withArgs: ToolCall = { tool: 's:a', args: { id: 1 } };
    // The args-free expectation first takes the only call the args expectation fits.
    expect(
      matches(trajectory('any-order', [a, withArgs]), [withArgs, { tool: 's:a' }]).matched,
    ).toBe(true);
    expect(
      matches(trajectory('any-order', [a, withArgs, b]), [b, withArgs, { tool: 's:a' }]).matched,
    ).toBe(true);
    expect(matches(trajectory('any-order', [withArgs, a]), [withArgs, a]).matched).toBe(true);
  });

  it('names the first forbidden call, fails every mode on it, and has no hit without forbidden tools', () => {
    for (const mode of ['exact', 'in-order', 'any-order'] as const) {
      expect(
        matches(trajectory(mode, [a], ['s:x', 's:y']), [a, { tool: 's:y' }, { tool: 's:x' }]),
      ).toEqual({
        matched: false,
        forbiddenHit: 's:y',
      });
      expect(matches(trajectory(mode, [a], ['s:x']), [a]), mode).toEqual({
        matched: true,
        forbiddenHit: null,
      });
      expect(matches(trajectory(mode, [a]), [a]), mode).toEqual({
        matched: true,
        forbiddenHit: null,
      });
      expect(matches(trajectory(mode, [a], ['s:x']), [b]), mode).toEqual({
        matched: false,
        forbiddenHit: null,
      });
    }
  });
});

describe('matchTrajectory: the readings the host guide fixes [0244-assumed]', () => {
  const withId = (id: number): ToolCall => ({ tool: 's:a', args: { id } });

  it('an observed call without args is a call with args {}, and {} is not any args', () => {
    for (const mode of ['exact', 'in-order', 'any-order'] as const) {
      const t = trajectory(mode, [{ tool: 's:a', args: {} }]);
      expect(matches(t, [a]).matched, mode).toBe(true);
      expect(matches(t, [withId(1)]).matched, mode).toBe(false);
    }
  });

  it('an expected call without args constrains no args; one with args needs a deep-equal value', () => {
    for (const mode of ['exact', 'in-order', 'any-order'] as const) {
      expect(matches(trajectory(mode, [a]), [withId(7)]).matched, mode).toBe(true);
      expect(matches(trajectory(mode, [withId(1)]), [withId(2)]).matched, mode).toBe(false);
    }
  });

  it('a repeated expected call needs its own observed call under every mode', () => {
    for (const mode of ['exact', 'in-order', 'any-order'] as const) {
      expect(matches(trajectory(mode, [a, a, b]), [a, b]).matched, mode).toBe(false);
      expect(matches(trajectory(mode, [a, a, b]), [a, a, b]).matched, mode).toBe(true);
    }
    expect(matches(trajectory('any-order', [a, a, b]), [b, a]).matched).toBe(false);
  });

  it('an extra call fails exact only; a swap fails exact and in-order only', () => {
    expect(matches(trajectory('exact', [a, b]), [a, c, b]).matched).toBe(false);
    expect(matches(trajectory('in-order', [a, b]), [a, c, b]).matched).toBe(true);
    expect(matches(trajectory('any-order', [a, b]), [a, c, b]).matched).toBe(true);
    expect(matches(trajectory('exact', [a, b]), [b, a]).matched).toBe(false);
    expect(matches(trajectory('in-order', [a, b]), [b, a]).matched).toBe(false);
    expect(matches(trajectory('any-order', [a, b]), [b, a]).matched).toBe(true);
  });

  it('a forbidden hit inside an otherwise matching path fails in-order and any-order', () => {
    for (const mode of ['in-order', 'any-order'] as const) {
      expect(matches(trajectory(mode, [a, b], ['s:c']), [a, c, b]), mode).toEqual({
        matched: false,
        forbiddenHit: 's:c',
      });
    }
  });
});
