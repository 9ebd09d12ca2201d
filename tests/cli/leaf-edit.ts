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

/** A copy of `value` with the leaf at `at` changed: a number raised, a boolean flipped. */
export function withLeafChanged(
  value: unknown,
  at: LeafPath,
  changeString: (text: string) => string = another,
): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = at.at(-1) as string | number;
  const leaf = parent[last];
  parent[last] =
    typeof leaf === 'number'
      ? leaf + 1
      : typeof leaf === 'boolean'
        ? !leaf
        : typeof leaf === 'string'
          ? changeString(leaf)
          : 0;
  return copy;
}
