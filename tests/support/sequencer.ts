// The order vitest starts test files in. Its own order, with no timings cached (a fresh clone, a CI
// job), starts the largest files first; the defect matrix's part files are a few lines each yet
// run longest (about 100 s each, against seconds for most files), so they started last and ran
// alone at the end. Here they start first, and every other file keeps vitest's order: the longest
// jobs first is what keeps every worker busy to the end.

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files known to run longest, each matched by the end of its path. */
export const LONGEST = [/\/tests\/matrix\/matrix-[^/]*\.test\.ts$/];

/** `files` with the longest-running first, each group in the order it was given. */
export function longestFirst<T extends { readonly moduleId: string }>(files: readonly T[]): T[] {
  const long = (file: T): boolean => LONGEST.some((pattern) => pattern.test(file.moduleId));
  return [...files.filter(long), ...files.filter((file) => !long(file))];
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(await super.sort(files));
  }
}
