// The requirement set each suite version shipped, frozen once released, so a host that pins a
// version (`run --requirements VERSION`) runs exactly the legs it was green on and an upgrade
// never adds a red leg by surprise. The newest set is the one this version ships, every leg of
// `LEGS`; tests/cli/requirement-sets.test.ts holds it to the package version.

import { LEGS, REQUIREMENT_PREFIX } from './legs.ts';

export interface RequirementSet {
  /** The suite version that shipped the set. */
  readonly version: string;
  /** Full requirement ids, in the order of the legs. */
  readonly requirements: readonly string[];
  /**
   * The generated pack a certification under this set drives as the `generated` requirement:
   * `run --generate COUNT --seed SEED`, the same cases for every host of the version. A set that
   * names its generator version (lib/generate/versions.ts) has it drawn by that generator in every
   * later release; 0.1.0 named none, and its pack is drawn by the current generator.
   */
  readonly pack: { readonly count: number; readonly seed: number; readonly generator?: number };
}

const full = (ids: readonly string[]): readonly string[] =>
  ids.map((id) => REQUIREMENT_PREFIX + id);

/**
 * The sets released versions shipped, oldest first, each written out and never edited again.
 * 0.1.0 is the set as the last 0.1.0 ran it, so a report pinned to it then still replays.
 */
const RELEASED: readonly RequirementSet[] = [
  {
    version: '0.1.0',
    requirements: full([
      'mean-gated',
      'suite-gated',
      'gated-fields-shape',
      'no-trajectory-ungated',
      'mean-partial-inclusive',
      'any-rule-unchanged',
      'all-rule-unchanged',
      'readings-exact',
      'readings-in-order',
      'readings-any-order',
      'cost-limit-kept',
      'latency-limit-kept',
      'limits-hold',
      'miss-gated',
      'outputs-measured',
      'readings-miss',
      'zero-pass-score',
      'readings-args',
      'cost-limit-over-trials',
    ]),
    pack: { count: 40, seed: 1 },
  },
  {
    version: '0.2.0',
    requirements: full([
      'mean-gated',
      'suite-gated',
      'gated-fields-shape',
      'no-trajectory-ungated',
      'mean-partial-inclusive',
      'any-rule-unchanged',
      'all-rule-unchanged',
      'readings-exact',
      'readings-in-order',
      'readings-any-order',
      'cost-limit-kept',
      'latency-limit-kept',
      'limits-hold',
      'miss-gated',
      'outputs-measured',
      'readings-miss',
      'zero-pass-score',
      'readings-args',
      'cost-limit-over-trials',
      'latency-limit-over-trials',
      'readings-exact-empty',
    ]),
    // Drawn by v4, the generator 0.2.0 shipped, so its pack holds the cases its hosts ran.
    pack: { count: 40, seed: 1, generator: 4 },
  },
];

/**
 * The set this version ships: every leg, derived, so a leg added before the release is in it
 * without a second list. The next release writes it out into `RELEASED` under its version.
 */
const UNRELEASED: RequirementSet = {
  version: '0.3.0',
  requirements: LEGS.map((leg) => leg.id),
  // Forty cases cost about a second against the embedded host. Drawn by v5 at seed 1 they show
  // every reference-host defect a pack of 200 shows but four, each first seen later and each
  // caught by a hand leg: cost-over-task-means (case 49, cost-limit-over-trials),
  // empty-exact-matches-any (63, readings-exact-empty), any-order-first-fit (111,
  // readings-any-order) and p95-over-task-means (121, latency-limit-kept); see the
  // smallest-pack table of docs/generated-suites.md.
  // The generator is named by number, so a run that drives no pack never loads fast-check; a
  // test holds it to the current generator.
  pack: { count: 40, seed: 1, generator: 5 },
};

/** Oldest first; the last is the set this version ships. */
export const REQUIREMENT_SETS: readonly RequirementSet[] = [...RELEASED, UNRELEASED];

/** The set a version shipped, or undefined for a version that shipped none. */
export function requirementSetOf(
  version: string,
  sets: readonly RequirementSet[] = REQUIREMENT_SETS,
): RequirementSet | undefined {
  return sets.find((s) => s.version === version.trim().replace(/^v/, ''));
}

/** The newest set: what a run that pins nothing runs. */
export function currentSet(sets: readonly RequirementSet[] = REQUIREMENT_SETS): RequirementSet {
  const newest = sets.at(-1);
  if (newest === undefined) throw new Error('no requirement set is recorded');
  return newest;
}

/** The requirements the newest set holds that `set` does not, in the order of the legs. */
export function addedSince(
  set: RequirementSet,
  sets: readonly RequirementSet[] = REQUIREMENT_SETS,
): readonly string[] {
  return currentSet(sets).requirements.filter((id) => !set.requirements.includes(id));
}
