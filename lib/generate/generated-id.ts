// A generated case's id: its seed and its place in the pack, so that a file name alone replays it.
// Kept apart from the generator, so that a reader of ids (the page) loads no fast-check.

export const GENERATED_ID_PREFIX = 'generated';

/** `generated-s7-n0042`: the 42nd fixture of seed 7. */
export function generatedId(seed: number, index: number): string {
  return `${GENERATED_ID_PREFIX}-s${seed}-n${String(index).padStart(4, '0')}`;
}

/** Reads a generated id back into its seed and place; null for any other id. */
export function parseGeneratedId(id: string): { seed: number; index: number } | null {
  const match = /^generated-s(\d+)-n(\d{4,})$/.exec(id);
  if (match === null) return null;
  return { seed: Number(match[1]), index: Number(match[2]) };
}

/**
 * A generated case's 0-based place in its pack, read from its id (a streamed pack's cases are
 * found on the page by it); -1 for an id no pack draws.
 */
export function placeInPack(id: string): number {
  return (parseGeneratedId(id)?.index ?? 0) - 1;
}
