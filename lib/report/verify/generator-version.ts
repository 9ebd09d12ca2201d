// Which generator drew a recorded pack. A report names the version (lib/generate/versions.ts) and
// each case's fixture digest, and a verifier draws the pack again with that version: a version it
// does not have, or a case whose recorded digest is not the fixture that version draws there, was
// drawn by another referee, which withholds this verifier's certification and says nothing of the
// host. A report written before versions were recorded names none: its pack is the draw of the
// newest released generator under which every recorded case decides again as recorded
// (docs/generated-suites.md#generator-versions).

import type { PackRecomputation } from '../../decide/generated-leg.ts';
import { CURRENT_GENERATOR, generatorOf, GENERATOR_VERSIONS } from '../../generate/versions.ts';
import type { GeneratedRecord } from '../../types.ts';
import { sameCanonicalJson } from '../canonical.ts';

/** A row this verifier cannot decide again because another referee drew what it recorded. */
export interface DifferentReferee {
  readonly differentReferee: string;
}

/** The recomputation under the generator that drew the pack, with a note when it was identified. */
export interface DrawnPack {
  readonly again: PackRecomputation;
  /** Which generator drew a pack whose report names none. */
  readonly drawnBy?: string;
}

/** How many cases another referee drew a message names before it counts the rest. */
const NAMED_CASES = 3;

const versions = (): string => GENERATOR_VERSIONS.map((v) => `v${v}`).join(', ');

/**
 * How far a recomputation is from the record: its problems, and each inline case (or a streamed
 * pack's tally and smallest cases, its lines being among the problems) it rebuilds otherwise.
 */
function distance(record: GeneratedRecord, again: PackRecomputation): number {
  const rebuilt = again.record;
  const cases =
    'cases' in record && 'cases' in rebuilt
      ? record.cases.filter((c, i) => !sameCanonicalJson(c, rebuilt.cases[i])).length
      : Number(!sameCanonicalJson(record, rebuilt));
  return again.problems.length + cases;
}

export async function packDrawnBy(
  record: GeneratedRecord,
  replayWith: (generator: number) => PackRecomputation | Promise<PackRecomputation>,
): Promise<DrawnPack | DifferentReferee> {
  const recorded = record.generator;
  if (recorded !== undefined) {
    if (generatorOf(recorded) === undefined) {
      return {
        differentReferee: `generated: drawn by generator v${recorded}, which this verifier does not have (it has ${versions()}), so its cases cannot be drawn again`,
      };
    }
    const again = await replayWith(recorded);
    const other = again.differentReferee;
    // A record that contradicts itself (a line or file edited) says so before any draw is judged.
    if (other.length === 0 || again.problems.length > 0) return { again };
    const more = other.length > NAMED_CASES ? `; and ${other.length - NAMED_CASES} more` : '';
    return {
      differentReferee: `generated: ${other.length} case(s) recorded another fixture than generator v${recorded} draws, so another referee drew them: ${other.slice(0, NAMED_CASES).join('; ')}${more}`,
    };
  }
  let closest:
    | { readonly again: PackRecomputation; readonly version: number; readonly off: number }
    | undefined;
  for (const version of [...GENERATOR_VERSIONS].reverse()) {
    const again = await replayWith(version);
    const off = distance(record, again);
    if (off === 0) {
      return {
        again,
        drawnBy: `generated: the report names no generator version; its cases decide again as recorded with generator v${version}'s draw, the newest that does`,
      };
    }
    if (closest === undefined || off < closest.off) closest = { again, version, off };
  }
  // GENERATOR_VERSIONS is never empty, so the loop set `closest`; the fallback is for the types.
  const shown = closest ?? {
    again: await replayWith(CURRENT_GENERATOR),
    version: CURRENT_GENERATOR,
  };
  return {
    again: shown.again,
    drawnBy: `generated: the report names no generator version and no released generator draws its cases as recorded; compared with generator v${shown.version}'s draw, the closest`,
  };
}
