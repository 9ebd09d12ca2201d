// The differential test at scale, outside vitest: `npx tsx tests/generate/run-differential.ts
// COUNT SEED` checks COUNT generated suites in chunks of 1,000, chunk k drawn from seed SEED + k,
// printing a line per chunk so a long run shows its progress, and on a disagreement the shrunk
// fixture. docs/generated-suites.md records the last long run.

import fc from 'fast-check';
import { fixtureArb } from '../../lib/generate/suite.ts';
import { named } from '../../lib/generate/pack.ts';
import { disagreement } from './disagreement.ts';

const CHUNK = 1_000;
const count = Number(process.argv[2] ?? '100000');
const first = Number(process.argv[3] ?? '1');
const began = performance.now();
const elapsed = (): string => ((performance.now() - began) / 1000).toFixed(1);
const property = fc.asyncProperty(
  fixtureArb(),
  async (fixture) => (await disagreement(fixture)) === null,
);

let checked = 0;
for (let seed = first; checked < count; seed += 1) {
  const numRuns = Math.min(CHUNK, count - checked);
  const result = await fc.check(property, { seed, numRuns });
  const shrunk = result.counterexample?.[0];
  if (result.failed && shrunk !== undefined) {
    const file = named(shrunk, seed, 0);
    process.stdout.write(
      `seed ${seed}: DISAGREEMENT after ${checked + result.numRuns} suites (${elapsed()} s)\n`,
    );
    process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(await disagreement(file), null, 2)}\n`);
    process.exit(1);
  }
  checked += numRuns;
  process.stdout.write(`${checked} suites (seeds ${first}..${seed}) agree (${elapsed()} s)\n`);
}
process.stdout.write(
  `${checked} suites: the reference host and the witness agree on every one (${elapsed()} s)\n`,
);
