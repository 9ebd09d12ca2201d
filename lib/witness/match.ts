// The two matchers a trial is graded with: the golden match of an output (RFC 0081, contract §4)
// and the trajectory match of its tool calls ([0244-assumed], contract §4). Pure functions of
// fixture data; nothing here reads host input.

import type {
  EvalTask,
  ExpectedTrajectory,
  GoldenExpectation,
  Json,
  ToolCall,
  ToolResponse,
} from '../types.ts';

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

/** Whether an output matches the golden value under the task's strategy (`expected.match`). */
export function goldenMatches(match: GoldenExpectation, output: Json): boolean {
  const golden = match.value;
  switch (match.strategy) {
    case 'exact':
      return stringify(output) === stringify(golden);
    case 'contains':
      return stringify(output).includes(stringify(golden));
    case 'json-match':
      return jsonEqual(output, golden);
  }
}

/**
 * The golden comparison the suite grades a task by. The suite predicts only golden matches: a
 * task without `match`, or one a host grades by rubric, has no score the fixture fixes, so a
 * fixture holding one is the suite's fault and nothing is judged with it.
 */
export function gradableMatch(task: EvalTask, fixtureId: string): GoldenExpectation {
  const { kind, match } = task.expected;
  if (kind !== 'golden' || match === undefined) {
    throw new Error(
      `suite fault: fixture "${fixtureId}" task "${task.taskId}" cannot be graded by the suite: ` +
        `it needs expected.kind "golden" and expected.match {strategy, value}, ` +
        `has kind ${JSON.stringify(kind)} and ${match === undefined ? 'no match' : 'a match'}`,
    );
  }
  return match;
}

/**
 * The first called tool with no recorded answer, or null. Only a task that lists
 * `fixtures.toolResponses` can miss ([0244-assumed], contract §4); the first entry for a tool
 * answers it, and an entry without `response` still counts as recorded.
 */
export function missedTool(
  responses: readonly ToolResponse[] | undefined,
  calls: readonly ToolCall[],
): string | null {
  if (responses === undefined) return null;
  const recorded = new Set(responses.map((r) => r.tool));
  const miss = calls.find((c) => !recorded.has(c.tool));
  return miss === undefined ? null : miss.tool;
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
  // Stryker disable next-line ArrayDeclaration: no tool is named "Stryker was here"
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
  // Stryker disable next-line ArrayDeclaration: an unsized array reads undefined at every index, as the sized one does
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
  // Stryker disable next-line ArrayDeclaration: only `true` marks a call seen, and a string is not `true`
  return calls.every((_, e) => tryAssign(e, []));
}
