// Every generator this suite has released, by version. A pack is named by its generator version,
// seed and size: the same three draw the same fixtures in every later release, because a released
// generator is never edited again. A change that alters what any seed draws is a new version: the
// current files in this folder are copied into `vN/` (N the version they were) and the new draw
// takes the next number. An archived module identical to an older archive's is not copied again:
// the later version imports the older archive (never the current files, which keep changing).
// v1 is the generator of the first release with packs; v2 placed a cost
// limit between the costliest trial and the total; v3 drew the golden-table readings, argument
// supersets and per-task latencies; v4 sends no args on odd match picks where `args: {}` is
// expected; v5 draws non-string `exact` goldens, several and nested arguments with paths that
// reorder their members or their arrays, and a tool both expected and forbidden
// (docs/generated-suites.md#generator-versions).

import type fc from 'fast-check';
import type { Fixture } from '../types.ts';
import { fixtureArb, type GeneratorOptions } from './suite.ts';
import { fixtureArb as v1 } from './v1/suite.ts';
import { fixtureArb as v2 } from './v2/suite.ts';
import { fixtureArb as v3 } from './v3/suite.ts';
import { fixtureArb as v4 } from './v4/suite.ts';

export type FixtureArbitrary = (options?: GeneratorOptions) => fc.Arbitrary<Fixture>;

/** Oldest first; the last is the generator a run draws with. */
const GENERATORS: readonly FixtureArbitrary[] = [v1, v2, v3, v4, fixtureArb];

/** The version of the generator a run draws with. */
export const CURRENT_GENERATOR = GENERATORS.length;

/** Every version this suite can draw, oldest first. */
export const GENERATOR_VERSIONS: readonly number[] = GENERATORS.map((_, i) => i + 1);

/** The fixture arbitrary of a released version, or undefined for one this suite never had. */
export function generatorOf(version: number): FixtureArbitrary | undefined {
  return Number.isInteger(version) && version >= 1 ? GENERATORS[version - 1] : undefined;
}
