// Golden values and scripted outputs under each match strategy (RFC 0081, contract §4), each
// output one that matches or one that misses by the host guide's golden table (section 6): the
// text of a non-string is its compact JSON text, members in their own order, and a string output
// is never parsed. So besides plain matches and misses the outputs reach the readings hosts got
// wrong: trailing whitespace and letter case under `exact`, an object against the JSON text it
// spells or reorders under `exact` and `contains`, a string spelling the value and an array in
// another order under `json-match`. Under `exact` the golden value may also be a number, a
// boolean, null, an object or an array: its text is its JSON text, so the string spelling it
// matches and the same members in another order miss.

import fc from 'fast-check';
import type { GoldenMatch, Json } from '../types.ts';

export const GOLDEN_MATCHES: readonly GoldenMatch[] = ['exact', 'contains', 'json-match'];

/**
 * How an output stands to the golden value: `right` matches (under `json-match` with its members
 * in another order), `near` misses by an added character, `case` misses by the case of one
 * letter, `wrong` misses outright. `spaced` adds trailing whitespace (a miss under `exact`);
 * `written` is an object where the value is text (its JSON text is the `exact` value, or holds
 * the `contains` one: both match) and under `json-match` a string spelling the value (a miss);
 * `shuffled` reorders: an object's members against the JSON text of an `exact` value (a miss),
 * an array's items under `json-match` (a miss). Where a value has no such form the output is the
 * `near` one.
 */
export const ANSWERS = ['right', 'near', 'case', 'wrong', 'spaced', 'written', 'shuffled'] as const;
export type Answer = (typeof ANSWERS)[number];

/** The JSON text of an object, as a golden string: `exact` and `contains` compare it as text. */
const JSON_TEXT = '{"answer":3,"label":"Gold tier"}';

const textArb = fc.constantFrom(
  'refund issued',
  'Gold tier',
  'ticket Closed',
  'answer 3',
  JSON_TEXT,
);

const objectArb: fc.Arbitrary<{ readonly [k: string]: Json }> = fc.record({
  answer: fc.integer({ min: 0, max: 3 }),
  label: textArb,
  final: fc.boolean(),
  steps: fc.constantFrom(['lookup', 'refund'], ['search']),
});

/**
 * Non-string `exact` values: each has one JSON text in every language (integers only), and the
 * object's members are not in key order, so a reading that sorts them is seen.
 */
const nonStringArb: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  42,
  0,
  true,
  false,
  null,
  { tier: 'gold', answer: 3 },
  ['lookup', 'refund'],
);

/** A golden value for the strategy: a string or, under `exact`, another JSON value; an object for `json-match`. */
export function goldenArb(strategy: GoldenMatch): fc.Arbitrary<Json> {
  if (strategy === 'json-match') return objectArb;
  return strategy === 'exact' ? fc.oneof(textArb, nonStringArb) : textArb;
}

/** Flips the case of the first letter; every generated value has one. */
function recased(text: string): string {
  const at = text.search(/[a-z]/i);
  const letter = text.charAt(at);
  const other = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
  return `${text.slice(0, at)}${other}${text.slice(at + 1)}`;
}

/** The object a golden string is the JSON text of, or undefined for plain text. */
function spelled(golden: string): { readonly [k: string]: Json } | undefined {
  if (!golden.startsWith('{')) return undefined;
  return JSON.parse(golden) as { readonly [k: string]: Json };
}

function stringOutput(strategy: GoldenMatch, golden: string, answer: Answer): Json {
  const object = spelled(golden);
  switch (answer) {
    case 'spaced':
      return strategy === 'contains' ? `so: ${golden} ` : `${golden} `;
    case 'written':
      // Its JSON text is the value itself, or holds it.
      return object ?? (strategy === 'contains' ? { note: golden } : golden);
    case 'shuffled':
      return object === undefined || strategy === 'contains'
        ? stringOutput(strategy, golden, 'near')
        : Object.fromEntries(Object.entries(object).reverse());
    case 'right':
      return strategy === 'contains' ? `so: ${golden}, final` : golden;
    case 'near':
      return strategy === 'contains' ? `so: ${golden.slice(0, -1)}` : `${golden}!`;
    case 'case':
      return strategy === 'contains' ? `so: ${recased(golden)}, final` : recased(golden);
    case 'wrong':
      return 'no answer';
  }
}

function objectOutput(golden: { readonly [k: string]: Json }, answer: Answer): Json {
  // Same members in another order: deep JSON equality ignores member order, not array order.
  const reordered = Object.fromEntries(Object.entries(golden).reverse());
  const label = golden['label'];
  const steps = golden['steps'];
  switch (answer) {
    case 'spaced':
      return { ...reordered, label: `${typeof label === 'string' ? label : 'x'} ` };
    case 'written':
      return JSON.stringify(golden);
    case 'shuffled':
      return Array.isArray(steps) && steps.length > 1
        ? { ...reordered, steps: [...steps].reverse() }
        : objectOutput(golden, 'near');
    case 'right':
      return reordered;
    case 'near':
      return { ...reordered, answer: Number(golden['answer']) + 1 };
    case 'case':
      return { ...reordered, label: typeof label === 'string' ? recased(label) : 'x' };
    case 'wrong':
      return 'no answer';
  }
}

/**
 * An output for a non-string `exact` value, compared by its JSON text: `right` is the value
 * itself, `written` the string of its JSON text (both match); `shuffled` reorders an object's
 * members or an array's items, `case` writes a literal with a capital letter, `spaced` adds a
 * space to its text, `near` changes it (all miss).
 */
function exactValueOutput(golden: Json, answer: Answer): Json {
  const text = JSON.stringify(golden);
  switch (answer) {
    case 'right':
      return golden;
    case 'written':
      return text;
    case 'spaced':
      return `${text} `;
    case 'case':
      return /^[a-z]/.test(text) ? recased(text) : exactValueOutput(golden, 'near');
    case 'shuffled':
      if (Array.isArray(golden) && golden.length > 1) return [...golden].reverse();
      if (typeof golden === 'object' && golden !== null && !Array.isArray(golden)) {
        return Object.fromEntries(Object.entries(golden).reverse());
      }
      return exactValueOutput(golden, 'near');
    case 'near':
      if (typeof golden === 'number') return golden + 1;
      if (typeof golden === 'boolean') return !golden;
      if (golden === null) return 0;
      if (Array.isArray(golden)) return [...golden, 'extra'];
      return typeof golden === 'object' ? { ...golden, extra: true } : `${text}!`;
    case 'wrong':
      return 'no answer';
  }
}

/** What the scripted agent answers, standing to `golden` as `answer` says. */
export function scriptedOutput(strategy: GoldenMatch, golden: Json, answer: Answer): Json {
  if (typeof golden === 'string') return stringOutput(strategy, golden, answer);
  if (strategy === 'exact') return exactValueOutput(golden, answer);
  if (typeof golden === 'object' && golden !== null && !Array.isArray(golden)) {
    return objectOutput(golden as { readonly [k: string]: Json }, answer);
  }
  return answer === 'right' ? golden : 'no answer';
}
