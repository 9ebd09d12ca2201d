// One leaf of a recorded JSON value changed to another of the same type, for the tests that ask
// `verify` to notice every kind of edit (of the report, and of its sidecar's lines).

export type LeafPath = readonly (string | number)[];

/**
 * Another string of the same form, so the schema still accepts it: the last digit turned (a
 * digest stays hex, a time stays a time), or a character added to a string without digits.
 */
export function another(text: string): string {
  const i = text.search(/\d(?=\D*$)/);
  if (i < 0) return `${text}~`;
  return `${text.slice(0, i)}${(Number(text[i]) + 1) % 10}${text.slice(i + 1)}`;
}

/**
 * A copy of `value` with the leaf at `at` changed: a number raised, a boolean flipped. Only the
 * arrays and objects on the path are copied, so an edit costs the path's depth rather than the
 * size of a whole report; every member off the path is shared with `value`, so neither `value`
 * nor what is returned may be changed in place.
 */
export function withLeafChanged(
  value: unknown,
  at: LeafPath,
  changeString: (text: string) => string = another,
): unknown {
  const [key, ...rest] = at;
  if (key === undefined) {
    return typeof value === 'number'
      ? value + 1
      : typeof value === 'boolean'
        ? !value
        : typeof value === 'string'
          ? changeString(value)
          : 0;
  }
  const container = value as Record<string | number, unknown>;
  // An array is copied as an array, so the edited report keeps its shape; indexed the same way.
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...container }) as Record<
    string | number,
    unknown
  >;
  copy[key] = withLeafChanged(container[key], rest, changeString);
  return copy;
}
