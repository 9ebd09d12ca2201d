// The tool calls of generated suites: the expected calls of a trajectory, and the scripted calls
// bent from them one way at a time. Every bend is one every documented trajectory reading
// ([0244-assumed], contract §4) judges the same way; the exclusions are in
// docs/generated-suites.md.

import fc from 'fast-check';
import type { Json, ToolCall } from '../types.ts';

/** Tools every task that records answers has a canned answer for. */
export const ANSWERED_TOOLS = ['crm:lookup', 'crm:update', 'billing:refund', 'kb:search'] as const;
/** Tools a trajectory may forbid; they are answered too, so a hit is never also a miss. */
export const FORBIDDEN_TOOLS = ['billing:void', 'crm:delete'] as const;
/** A tool no task has an answer for: calling it where answers are recorded is a fixture miss. */
export const UNANSWERED_TOOL = 'net:fetch';

/** Argument values with letters, so a value can also differ from another by case alone. */
const ARG_VALUES = ['A', 'B', 'Acct-7'] as const;

/**
 * How a scripted path departs from the expected calls. `wrong-value` and `wrong-case` change one
 * argument's value (to another value, or to the same letters in another case); `superset` adds an
 * argument to one call's args (deep equality refuses it where args are expected, a subset reading
 * would not); `collapse` makes a repeated expected call once; `repeat` makes one expected call
 * twice. `members-reordered` sends every call's args with their members, at every depth, in the
 * other order: deep JSON equality still matches, a comparison of JSON texts does not.
 * `array-reordered` sends every array in every call's args with its items in the other order:
 * deep JSON equality keeps array order, so it is a miss wherever an expected call has an array.
 */
export const PATH_KINDS = [
  'match',
  'drop',
  'reorder',
  'extra',
  'forbidden',
  'unanswered',
  'wrong-value',
  'wrong-case',
  'superset',
  'collapse',
  'repeat',
  'members-reordered',
  'array-reordered',
] as const;
export type PathKind = (typeof PATH_KINDS)[number];

type ArgsShape = 'none' | 'empty' | 'value' | 'several' | 'nested';

/**
 * The args of an expected call. `several` holds members of every JSON type but an object;
 * `nested` an object and an array of two different items; every number is an integer, so its
 * JSON text is the same in every language.
 */
function argsOf(shape: Exclude<ArgsShape, 'none'>, id: string): { readonly [k: string]: Json } {
  switch (shape) {
    case 'empty':
      return {};
    case 'value':
      return { id };
    case 'several':
      return { id, limit: 2, notify: true, note: null };
    case 'nested':
      return { id, filter: { tier: 'gold', since: 2024 }, tags: [id, 'vip'] };
  }
}

/**
 * An expected call: without args (any args match), with `args: {}` (only a call without args or
 * with `{}` matches), with one argument, with several, or with an object and an array in them.
 */
export const callArb: fc.Arbitrary<ToolCall> = fc
  .record({
    tool: fc.constantFrom(...ANSWERED_TOOLS),
    args: fc.constantFrom<ArgsShape>('none', 'none', 'empty', 'value', 'several', 'nested'),
    id: fc.constantFrom(...ARG_VALUES),
  })
  .map(({ tool, args, id }) => (args === 'none' ? { tool } : { tool, args: argsOf(args, id) }));

/**
 * Expected calls, some with a repeated call: a repeat is what `collapse` and `repeat` bend, and
 * what a reading that lets one observed call meet two expected ones gets wrong.
 */
export const expectedCallsArb: fc.Arbitrary<ToolCall[]> = fc
  .record({ calls: fc.array(callArb, { maxLength: 3 }), repeatAt: fc.option(fc.nat({ max: 2 })) })
  .map(({ calls, repeatAt }) => {
    const repeated = repeatAt === null ? undefined : calls[repeatAt % Math.max(calls.length, 1)];
    return repeated === undefined ? calls : [...calls, repeated];
  });

/** Swaps the case of every letter: 'Acct-7' becomes 'aCCT-7'. */
function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The call with its `id` argument changed; a call without that argument is kept as it is. */
function withChangedArg(call: ToolCall, kind: 'wrong-value' | 'wrong-case'): ToolCall {
  const id: Json | undefined = call.args?.['id'];
  if (typeof id !== 'string') return call;
  return { ...call, args: { ...call.args, id: kind === 'wrong-case' ? swapCase(id) : 'Zed-9' } };
}

const sameCall = (a: ToolCall, b: ToolCall): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The value with the members of every object in it in the other order, or its arrays' items. */
function reordered(value: Json, what: 'members' | 'items'): Json {
  if (Array.isArray(value)) {
    const items = value.map((v: Json) => reordered(v, what));
    return what === 'items' ? items.reverse() : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]): [string, Json] => [k, reordered(v, what)]);
  return Object.fromEntries(what === 'members' ? entries.reverse() : entries);
}

/** Every call with its args reordered as `what` says; a call without args is kept. */
function withArgsReordered(base: readonly ToolCall[], what: 'members' | 'items'): ToolCall[] {
  return base.map((call) =>
    call.args === undefined
      ? call
      : { ...call, args: reordered(call.args, what) as { readonly [k: string]: Json } },
  );
}

/** The calls a scripted trial makes: `base` bent the way `kind` says, at a place `pick` chooses. */
export function scriptedCalls(kind: PathKind, base: readonly ToolCall[], pick: number): ToolCall[] {
  const at = pick % (base.length + 1);
  const one = pick % Math.max(base.length, 1);
  const insert = (call: ToolCall): ToolCall[] => [...base.slice(0, at), call, ...base.slice(at)];
  switch (kind) {
    case 'match':
      // Contract §4 reads a call without args as `args: {}`, so on odd picks an expected
      // `args: {}` is met by a call that sends none.
      return pick % 2 === 1
        ? base.map((call) =>
            call.args !== undefined && Object.keys(call.args).length === 0
              ? { tool: call.tool }
              : call,
          )
        : [...base];
    case 'drop':
      return base.filter((_, i) => i !== one);
    case 'reorder':
      return [...base].reverse();
    case 'extra':
      return insert({ tool: ANSWERED_TOOLS[pick % ANSWERED_TOOLS.length] ?? 'kb:search' });
    case 'forbidden':
      return insert({ tool: FORBIDDEN_TOOLS[pick % FORBIDDEN_TOOLS.length] ?? 'billing:void' });
    case 'unanswered':
      return insert({ tool: UNANSWERED_TOOL });
    case 'wrong-value':
    case 'wrong-case':
      return base.map((call, i) => (i === one ? withChangedArg(call, kind) : call));
    case 'superset':
      return base.map((call, i) =>
        i === one ? { ...call, args: { ...call.args, verbose: true } } : call,
      );
    case 'collapse':
      // The second of two equal adjacent-or-not calls is left out; without a repeat, one call is.
      return base.filter((_, i) => i !== (repeatIndex(base) ?? one));
    case 'repeat': {
      const call = base[one];
      return call === undefined ? [] : [...base.slice(0, one + 1), call, ...base.slice(one + 1)];
    }
    case 'members-reordered':
      return withArgsReordered(base, 'members');
    case 'array-reordered':
      return withArgsReordered(base, 'items');
  }
}

/** Where a call repeats an earlier one, if anywhere. */
function repeatIndex(calls: readonly ToolCall[]): number | undefined {
  const i = calls.findIndex((call, j) => calls.slice(0, j).some((c) => sameCall(c, call)));
  return i < 0 ? undefined : i;
}
