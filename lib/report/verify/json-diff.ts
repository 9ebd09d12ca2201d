// The one comparer `verify` has: a recorded JSON value against the value the replay rebuilt, walked
// member by member, naming the path of every leaf that differs. Nothing here knows what a report
// holds, so a member added to the report is compared the day it is added, without a comparer.

export interface JsonDifference {
  /** Where the values part, as a JSON path: `requirements[3](…mean-gated).findings[2].ok`. */
  readonly path: string;
  /** The recorded value, undefined where the recorded document has no such member. */
  readonly recorded: unknown;
  /** The rebuilt value, undefined where the rebuild has no such member. */
  readonly rebuilt: unknown;
}

/**
 * Every place `recorded` and `rebuilt` differ, in document order. Objects are compared by member
 * name (an absent member and one set to undefined are the same, as in JSON), arrays by position;
 * where one side has an object or array and the other does not, the difference is reported at
 * that path rather than below it.
 */
export function jsonDifferences(recorded: unknown, rebuilt: unknown, path = ''): JsonDifference[] {
  // A report that verifies has no difference at all, and walking it naming every path costs more
  // than the rest of the comparison: the paths are built only once the values are seen to part.
  if (sameJson(recorded, rebuilt)) return [];
  const out: JsonDifference[] = [];
  walk(recorded, rebuilt, path, out);
  return out;
}

/**
 * Whether walk would find no difference, without naming paths. Arrays are compared by position
 * only: two lists equal element by element are equal element by name and in the same order too,
 * and any other pair is left to walk, which may still match them by name.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    for (const name of Object.keys(a)) if (!sameJson(a[name], b[name])) return false;
    for (const name of Object.keys(b)) {
      if (!Object.hasOwn(a, name) && !sameJson(a[name], b[name])) return false;
    }
    return true;
  }
  return sameLeaf(a, b);
}

function walk(a: unknown, b: unknown, path: string, out: JsonDifference[]): void {
  // A value holds no difference from itself; the replay shares a row's recorded observation with
  // the rebuilt row wherever nothing in it is redacted, so the largest members are passed over.
  // Stryker disable next-line ConditionalExpression: walking a value against itself finds nothing, only later
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = KEY_MEMBERS.find((k) => isKeyedBy(a, k) && isKeyedBy(b, k));
    if (key === undefined) {
      const length = Math.max(a.length, b.length);
      // Stryker disable next-line EqualityOperator: one past both ends, both sides are undefined, the same leaf
      for (let i = 0; i < length; i += 1) walk(a[i], b[i], `${path}[${i}]`, out);
      return;
    }
    walkNamed(a, b, key, path, out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    const names = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const name of names) walk(a[name], b[name], memberPath(path, name), out);
    return;
  }
  if (!sameLeaf(a, b)) out.push({ path, recorded: a, rebuilt: b });
}

/** Two lists of named elements, element by name, then the order of the names both hold. */
function walkNamed(
  a: readonly unknown[],
  b: readonly unknown[],
  key: string,
  path: string,
  out: JsonDifference[],
): void {
  const byName = (list: readonly unknown[]) =>
    new Map(list.map((item) => [String((item as Record<string, unknown>)[key]), item] as const));
  const [left, right] = [byName(a), byName(b)];
  for (const name of new Set([...left.keys(), ...right.keys()])) {
    walk(left.get(name), right.get(name), `${path}[${key}=${name}]`, out);
  }
  const order = [...left.keys()].filter((n) => right.has(n));
  const orderAgain = [...right.keys()].filter((n) => left.has(n));
  if (order.join('\n') !== orderAgain.join('\n')) {
    out.push({
      path: `${path}(order of ${key})`,
      recorded: [...left.keys()],
      rebuilt: [...right.keys()],
    });
  }
}

/**
 * The members that name an element of a list: a report's rows by `id`, a certification's reasons
 * by `code`, a pack's cases by `fixtureId`. A list whose elements all carry one of them, each value
 * once, is compared element by name, so one element added or dropped is one difference and not a
 * shift of every later one; the order of the names both sides hold is compared as well.
 */
const KEY_MEMBERS = ['id', 'code', 'fixtureId'] as const;

function isKeyedBy(list: readonly unknown[], key: string): boolean {
  const names = list.map((item) => (isObject(item) ? item[key] : undefined));
  return names.every((n) => typeof n === 'string') && new Set(names).size === names.length;
}

function memberPath(path: string, name: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return `${path}[${JSON.stringify(name)}]`;
  return path === '' ? name : `${path}.${name}`;
}

/**
 * Two leaves, or a leaf beside a container, are the same when their JSON is: the recorded side
 * was read from JSON, so the rebuilt side is compared as the run would have written it.
 */
function sameLeaf(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One difference as a line: the path, then both values, each cut to a readable length. */
export function describeDifference(d: JsonDifference): string {
  return `${d.path}: recorded ${shown(d.recorded)}, rebuilt ${shown(d.rebuilt)}`;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}
