// The differential test at scale, outside vitest: `npx tsx tests/generate/run-differential.ts
// 100000 1` checks that many generated suites from the seed and prints the outcome, the time and,
// on a disagreement, the shrunk fixture. docs/generated-suites.md records the last long run.

import fc from 'fast-check';
import { fixtureArb } from '../../lib/generate/suite.ts';
import { named } from '../../lib/generate/pack.ts';
import { disagreement } from './disagreement.ts';

const count = Number(process.argv[2] ?? '100000');
const seed = Number(process.argv[3] ?? '1');
const began = performance.now();
const result = await fc.check(
  fc.asyncProperty(fixtureArb(), async (fixture) => (await disagreement(fixture)) === null),
  { seed, numRuns: count },
);
const seconds = ((performance.now() - began) / 1000).toFixed(1);
const shrunk = result.counterexample?.[0];
if (result.failed && shrunk !== undefined) {
  const file = named(shrunk, seed, 0);
  process.stdout.write(
    `${count} suites at seed ${seed}: DISAGREEMENT after ${result.numRuns} (${seconds} s)\n`,
  );
  process.stdout.write(
    `${JSON.stringify(file, null, 2)}\n${JSON.stringify(await disagreement(file), null, 2)}\n`,
  );
  process.exitCode = 1;
} else {
  process.stdout.write(
    `${result.numRuns} suites at seed ${seed}: the reference host and the witness agree on every one (${seconds} s)\n`,
  );
}
