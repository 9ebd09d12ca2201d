// Schema errors as a reader wants them in a finding: one line per member at fault, quoting the
// value the host sent. Ajv reports a value outside an enum-or-pattern union as three errors (the
// enum with every member, the pattern, the union), which for an event type is a thousand
// characters that never show the value; here that is one line naming what the value is not.
// The lists themselves stay in the schema files, whose digests every report records.

import type { SchemaError } from '../schemas.ts';
import { describe, isRecord, num, quoted } from './finding.ts';

/** What a value failing a union of an enum and a pattern is not, for unions worth naming. */
const UNION_NAMES: ReadonlyMap<string, { readonly enum: string; readonly pattern: string }> =
  new Map([['run-event#/type', { enum: 'a registered v2 type', pattern: 'a vendor type' }]]);

/** Patterns longer than this are named, not printed: they would bury the value. */
const PATTERN_SHOWN = 64;
/** Enums with more members than this are counted, not listed. */
const ENUM_SHOWN = 5;

/** Keywords that judge a value itself, so the value is what the reader needs to see. */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'format',
  'minItems',
  'maxItems',
]);

/** Keywords that only say "a branch failed"; the branch's own errors say how. */
const WRAPPERS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'if', 'not']);

/**
 * `errors` as `; `-separated lines, one per member and keyword (members an object lacks or has
 * in excess are listed together), at most `max` of them, then `(+N more)`. `instance` is the
 * document the errors are about, read to quote each value.
 */
export function schemaProblems(errors: readonly SchemaError[], instance: unknown, max = 2): string {
  const lines = groupByPath(errors).flatMap((group) => pathLines(group, instance));
  const shown = lines.slice(0, max);
  if (lines.length > max) shown.push(`(+${lines.length - max} more)`);
  return shown.join('; ');
}

function groupByPath(errors: readonly SchemaError[]): SchemaError[][] {
  const byPath = new Map<string, SchemaError[]>();
  for (const e of errors) {
    const key = `${e.schema}#${e.instancePath}`;
    const group = byPath.get(key);
    if (group === undefined) byPath.set(key, [e]);
    else group.push(e);
  }
  return [...byPath.values()].map((group) => {
    const specific = group.filter((e) => !WRAPPERS.has(e.keyword));
    return specific.length > 0 ? specific : group;
  });
}

function pathLines(group: readonly SchemaError[], instance: unknown): string[] {
  const first = group[0] as SchemaError;
  const where = `${first.schema}#${first.instancePath}`;
  const value = valueAt(instance, first.instancePath);
  const enumError = group.find((e) => e.keyword === 'enum' || e.keyword === 'const');
  const patternError = group.find((e) => e.keyword === 'pattern');
  if (enumError !== undefined || patternError !== undefined) {
    return [`${where} ${quote(value)} is not ${notWhat(where, enumError, patternError)}`];
  }
  const byKeyword = new Map<string, SchemaError[]>();
  for (const e of group) byKeyword.set(e.keyword, [...(byKeyword.get(e.keyword) ?? []), e]);
  return [...byKeyword.values()].map((same) => errorLine(where, same, value));
}

function notWhat(
  where: string,
  enumError: SchemaError | undefined,
  patternError: SchemaError | undefined,
): string {
  const named = UNION_NAMES.get(where);
  // A value of the wrong JSON type fails only some branches' keywords; a named union is both.
  if (named !== undefined) return `${named.enum}, nor ${named.pattern}`;
  const allowed = enumError === undefined ? undefined : allowedValues(enumError);
  const pattern = patternError === undefined ? undefined : patternText(patternError);
  if (allowed !== undefined && pattern !== undefined) return `${allowed}, nor ${pattern}`;
  return allowed ?? (pattern as string);
}

function allowedValues(e: SchemaError): string {
  const params = e.params ?? {};
  if (e.keyword === 'const') return `the allowed ${JSON.stringify(params.allowedValue)}`;
  const values = Array.isArray(params.allowedValues) ? params.allowedValues : [];
  if (values.length > ENUM_SHOWN) return `one of the ${values.length} allowed values`;
  return `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

function patternText(e: SchemaError): string {
  const pattern = e.params?.pattern;
  return typeof pattern === 'string' && pattern.length <= PATTERN_SHOWN
    ? `a match for ${pattern}`
    : 'a match for its pattern';
}

/** One keyword's errors at one member: the first message, every member they name. */
function errorLine(where: string, same: readonly SchemaError[], value: unknown): string {
  const e = same[0] as SchemaError;
  const members = same.map(memberNamed).filter((m) => m !== '');
  const named = members.length === 0 ? '' : ` (${members.join(', ')})`;
  const message =
    e.keyword === 'required' && members.length > 1 ? 'must have required properties' : e.message;
  const seen = VALUE_KEYWORDS.has(e.keyword) ? `, host sent ${describe(value)}` : '';
  return `${where} ${e.keyword}: ${message}${named}${seen}`;
}

/** The member an object-level error is about: the one added, missing or misnamed. */
function memberNamed(e: SchemaError): string {
  const p = e.params ?? {};
  const named =
    e.keyword === 'additionalProperties'
      ? p.additionalProperty
      : e.keyword === 'required'
        ? p.missingProperty
        : e.keyword === 'propertyNames'
          ? p.propertyName
          : undefined;
  return typeof named === 'string' ? named : '';
}

/** A value in a message: strings quoted (cut when long), numbers as numbers. */
function quote(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  return typeof value === 'number' ? num(value) : describe(value);
}

/** The value a JSON pointer names in `instance`, or undefined when nothing is there. */
export function valueAt(instance: unknown, pointer: string): unknown {
  if (pointer === '') return instance;
  let at: unknown = instance;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = /^\d+$/.test(key) ? at[Number(key)] : undefined;
    else if (isRecord(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}
