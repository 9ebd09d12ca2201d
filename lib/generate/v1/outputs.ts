// Golden values and scripted outputs under each match strategy (RFC 0081, contract §4), each
// output one that matches or one that misses under every documented reading. Strings only under
// `exact` and `contains` (the JSON text of an object is not fixed across languages), objects only
// under `json-match`, and never a string holding JSON text there (a host may parse it).

import fc from 'fast-check';
import type { GoldenMatch, Json } from '../../types.ts';

export const GOLDEN_MATCHES: readonly GoldenMatch[] = ['exact', 'contains', 'json-match'];

/**
 * How an output stands to the golden value: `right` matches (under `json-match` with its members
 * in another order), `near` misses by an added character, `case` misses by the case of one
 * letter, `wrong` misses outright.
 */
export const ANSWERS = ['right', 'near', 'case', 'wrong'] as const;
export type Answer = (typeof ANSWERS)[number];

const textArb = fc.constantFrom('refund issued', 'Gold tier', 'ticket Closed', 'answer 3');

const objectArb: fc.Arbitrary<{ readonly [k: string]: Json }> = fc.record({
  answer: fc.integer({ min: 0, max: 3 }),
  label: textArb,
  final: fc.boolean(),
  steps: fc.constantFrom(['lookup', 'refund'], ['search']),
});

/** A golden value for the strategy: a string, or an object for `json-match`. */
export function goldenArb(strategy: GoldenMatch): fc.Arbitrary<Json> {
  return strategy === 'json-match' ? objectArb : textArb;
}

/** Flips the case of the first letter; every generated value has one. */
function recased(text: string): string {
  const at = text.search(/[a-z]/i);
  const letter = text.charAt(at);
  const other = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
  return `${text.slice(0, at)}${other}${text.slice(at + 1)}`;
}

function stringOutput(strategy: GoldenMatch, golden: string, answer: Answer): string {
  switch (answer) {
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
  switch (answer) {
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

/** What the scripted agent answers, standing to `golden` as `answer` says. */
export function scriptedOutput(strategy: GoldenMatch, golden: Json, answer: Answer): Json {
  if (typeof golden === 'string') return stringOutput(strategy, golden, answer);
  if (typeof golden === 'object' && golden !== null && !Array.isArray(golden)) {
    return objectOutput(golden as { readonly [k: string]: Json }, answer);
  }
  return answer === 'right' ? golden : 'no answer';
}
