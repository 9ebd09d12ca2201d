// The requirement set each suite version shipped, frozen once released, so a host that pins a
// version (`run --requirements VERSION`) runs exactly the legs it was green on and an upgrade
// never adds a red leg by surprise. A leg added after a release goes into the next version's set;
// tests/cli/requirement-sets.test.ts holds the newest set to every leg and the package version.

import { REQUIREMENT_PREFIX } from './legs.ts';

export interface RequirementSet {
  /** The suite version that shipped the set. */
  readonly version: string;
  /** Full requirement ids, in the order of the legs. */
  readonly requirements: readonly string[];
  /**
   * The generated pack a certification under this set drives as the `generated` requirement:
   * `run --generate COUNT --seed SEED`, the same cases for every host of the version.
   */
  readonly pack: { readonly count: number; readonly seed: number };
}

const full = (ids: readonly string[]): readonly string[] =>
  ids.map((id) => REQUIREMENT_PREFIX + id);

/** Oldest first. 0.1.0 is the first release: CHANGELOG.md records no earlier version. */
export const REQUIREMENT_SETS: readonly RequirementSet[] = [
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
    ]),
    // Forty cases cost about a second against the embedded host, and at seed 1 show every
    // reference-host defect a pack of 200 shows but one (p95-over-task-means, first seen in case
    // 114), which the hand fixtures' latency-limit-kept catches (docs/generated-suites.md).
    pack: { count: 40, seed: 1 },
  },
];

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
