// Small helpers every rule module shares: making a finding from a rule id, reading host values
// without trusting their shape, comparing numbers, and naming a host value in a message.

import type { Finding } from '../types.ts';
import { EPSILON } from './expected.ts';
import { ruleById, type RuleId } from './rules.ts';

export function finding(id: RuleId, ok: boolean, message: string): Finding {
  const rule = ruleById(id);
  return { rule: rule.id, ok, severity: rule.severity, ref: rule.ref, message };
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is { readonly [k: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own member of a host object, or undefined for anything else; never reads the prototype. */
export function member(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A finite number within the 1e-9 tolerance of `expected`; strings and Infinity never are. */
export function sameNumber(value: unknown, expected: number): boolean {
  return (
    typeof value === 'number' && Number.isFinite(value) && Math.abs(value - expected) <= EPSILON
  );
}

/** A number for a message, rounded to 12 significant digits only when it is long. */
export function num(n: number): string {
  const plain = String(n);
  return plain.length <= 14 || !Number.isFinite(n) ? plain : String(Number(n.toPrecision(12)));
}

const QUOTE_LIMIT = 40;

/** Names a host value in a message, briefly: never the whole of a large or hostile value. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return num(value);
    case 'boolean':
      return String(value);
    case 'string':
      return `the string ${quoted(value)}`;
    default:
      return Array.isArray(value) ? `an array of ${value.length}` : 'an object';
  }
}

/** A host string in JSON quotes, cut when long. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT)}…` : value);
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** "does not" or "do not", agreeing with a count: "1 of 15 events does not". */
export function doesNot(count: number): string {
  return count === 1 ? 'does not' : 'do not';
}

/**
 * How a message names one event of the log: by the sequence the host gave it, which is what a
 * reader can look up in the host's own log; by its place in the observed log only when the
 * sequence is unusable (`position` is 0-based).
 */
export function eventAt(event: unknown, position: number): string {
  return `the event ${whereIs(event, position)}`;
}

/** Where an event stands in the log: "at sequence 7", or its position when its sequence is bad. */
export function whereIs(event: unknown, position: number): string {
  const sequence = member(event, 'sequence');
  return typeof sequence === 'number' && Number.isSafeInteger(sequence) && sequence >= 0
    ? `at sequence ${sequence}`
    : `at log position ${position + 1} (sequence ${describe(sequence)})`;
}

/**
 * The subject of a sentence about every one of `count` things, with its verb agreeing:
 * "all 3 events carry", but "the 1 event carries".
 */
export function allOf(count: number, noun: string, verb: { one: string; many: string }): string {
  return count === 1 ? `the 1 ${noun} ${verb.one}` : `all ${count} ${noun}s ${verb.many}`;
}
