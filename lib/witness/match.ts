// The two matchers a trial is graded with: the golden match of an output (RFC 0081, contract §4)
// and the trajectory match of its tool calls ([0244-assumed], contract §4). Pure functions of
// fixture data; nothing here reads host input.

import type { ExpectedTrajectory, GoldenMatch, Json, ToolCall } from '../types.ts';

/** Deep JSON equality: same type, same array order, same object members whatever their order. */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: Json, i: number) => jsonEqual(item, b[i] as Json));
  }
  const objA = a as { readonly [k: string]: Json };
  const objB = b as { readonly [k: string]: Json };
  const keys = Object.keys(objA);
  if (keys.length !== Object.keys(objB).length) return false;
  return keys.every((k) => Object.hasOwn(objB, k) && jsonEqual(objA[k], objB[k]));
}

/** A string stands for itself; any other value for its JSON text (contract §4). */
export function stringify(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether an output matches the golden value under the task's match mode. */
export function goldenMatches(mode: GoldenMatch, output: Json, golden: Json): boolean {
  switch (mode) {
    case 'exact':
      return stringify(output) === stringify(golden);
    case 'contains':
      return stringify(output).includes(stringify(golden));
    case 'json-match':
      return jsonEqual(output, golden);
  }
}

// A call without `args` is taken as a call with no arguments, so `{}` and an absent member agree.
const NO_ARGS: { readonly [k: string]: Json } = {};

/** An expected call matches an observed one by tool, and by deep-equal args when it names args. */
function callMatches(expected: ToolCall, observed: ToolCall): boolean {
  if (expected.tool !== observed.tool) return false;
  return expected.args === undefined || jsonEqual(expected.args, observed.args ?? NO_ARGS);
}

export interface TrajectoryVerdict {
  readonly matched: boolean;
  /** The first observed call to a forbidden tool, if any. */
  readonly forbiddenHit: string | null;
}

/** Judges observed calls against an expected trajectory; a forbidden hit fails every mode. */
export function matchTrajectory(
  expected: ExpectedTrajectory,
  observed: readonly ToolCall[],
): TrajectoryVerdict {
  const forbidden = new Set(expected.forbidden ?? []);
  const hit = observed.find((call) => forbidden.has(call.tool));
  const forbiddenHit = hit === undefined ? null : hit.tool;
  const modeMatched = matchesMode(expected, observed);
  return { matched: modeMatched && forbiddenHit === null, forbiddenHit };
}

function matchesMode(expected: ExpectedTrajectory, observed: readonly ToolCall[]): boolean {
  const calls = expected.calls;
  switch (expected.match) {
    case 'exact':
      return (
        calls.length === observed.length &&
        calls.every((call, i) => callMatches(call, observed[i] as ToolCall))
      );
    case 'in-order':
      return inOrder(calls, observed);
    case 'any-order':
      return anyOrder(calls, observed);
  }
}

/** Expected calls appear as a subsequence; taking the earliest fit at each step is optimal. */
function inOrder(calls: readonly ToolCall[], observed: readonly ToolCall[]): boolean {
  let next = 0;
  for (const call of calls) {
    while (next < observed.length && !callMatches(call, observed[next] as ToolCall)) next += 1;
    if (next === observed.length) return false;
    next += 1;
  }
  return true;
}

/**
 * Every expected call is met by a distinct observed call, in any order. A greedy pick can fail
 * when an args-free expectation takes the one call an args expectation needed, so this finds a
 * full bipartite matching (augmenting paths; trajectories are a handful of calls).
 */
function anyOrder(calls: readonly ToolCall[], observed: readonly ToolCall[]): boolean {
  const owner: (number | undefined)[] = new Array<number | undefined>(observed.length);
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let o = 0; o < observed.length; o += 1) {
      if (seen[o] === true || !callMatches(calls[e] as ToolCall, observed[o] as ToolCall)) continue;
      seen[o] = true;
      const current = owner[o];
      if (current === undefined || tryAssign(current, seen)) {
        owner[o] = e;
        return true;
      }
    }
    return false;
  };
  return calls.every((_, e) => tryAssign(e, []));
}
