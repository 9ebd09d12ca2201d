// Differential testing: on every generated suite the reference host (an independent second
// implementation of the grading rules) and the witness agree on the full summary, every
// eval.scored and every verdict, and both agree with the property tests' oracle on the summary.
// Fixed seeds make the run reproducible; one rotating seed explores further on every run and is
// printed when it finds something. A disagreement is shrunk by fast-check to its smallest suite
// and printed as a fixture file, ready to drop into fixtures/ or a host's own tests.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { named } from '../../lib/generate/pack.ts';
import { fixtureArb } from '../../lib/generate/suite.ts';
import type { Fixture } from '../../lib/types.ts';
import type { DefectName } from '../../reference-host/defects.ts';
import { disagreement } from './disagreement.ts';

/** Four fixed seeds of 250 suites each: the 1,000 every run checks. */
const FIXED_SEEDS = [1, 2, 3, 4] as const;
const RUNS_PER_SEED = 250;
const ROTATING_SEED = Date.now() % 0x7fffffff;

const agreeing = (defect?: DefectName) =>
  fc.asyncProperty(fixtureArb(), async (fixture) => (await disagreement(fixture, defect)) === null);

/** The shrunk counterexample as a fixture file, and what the two sides said about it. */
async function report(seed: number, fixture: Fixture): Promise<string> {
  const file = named(fixture, seed, 0);
  const found = await disagreement(file);
  return [
    `seed ${seed}: the reference host and the witness disagree on this fixture (shrunk):`,
    JSON.stringify(file, null, 2),
    `witness findings that failed: ${JSON.stringify(found?.failing ?? [], null, 2)}`,
    `summary equals the oracle's: ${String(found?.summaryMatchesOracle ?? true)}`,
  ].join('\n');
}

async function checkSeed(seed: number): Promise<void> {
  const result = await fc.check(agreeing(), { seed, numRuns: RUNS_PER_SEED });
  const counterexample = result.counterexample?.[0];
  if (result.failed && counterexample !== undefined) {
    expect.fail(await report(seed, counterexample));
  }
  expect(result.failed, `seed ${seed}: ${String(result.errorInstance ?? '')}`).toBe(false);
  expect(result.numRuns).toBe(RUNS_PER_SEED);
}

describe('the reference host and the witness agree on every generated suite', () => {
  // Wide margins: a few seconds each on an idle machine, several times that under load.
  it.each(FIXED_SEEDS)('%i: 250 suites from a fixed seed', { timeout: 120_000 }, async (seed) => {
    await checkSeed(seed);
  });

  it(`250 suites from the rotating seed ${ROTATING_SEED}`, { timeout: 120_000 }, async () => {
    await checkSeed(ROTATING_SEED);
  });
});

describe('the differential test can fail', () => {
  it.each<DefectName>(['strict-greater-than', 'args-ignored', 'miss-not-failed-closed'])(
    'a reference host with the one-clause defect %s disagrees, shrunk to at most two tasks',
    { timeout: 120_000 },
    async (defect) => {
      const result = await fc.check(agreeing(defect), { seed: 1, numRuns: 400 });
      expect(result.failed).toBe(true);
      const shrunk = result.counterexample?.[0];
      if (shrunk === undefined) throw new Error('a failed check carries its counterexample');
      expect(shrunk.suite.tasks.length).toBeLessThanOrEqual(2);
      expect(await disagreement(shrunk, defect)).not.toBeNull();
      expect(await disagreement(shrunk)).toBeNull();
    },
  );
});
