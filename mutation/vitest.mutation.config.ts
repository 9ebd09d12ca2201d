import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant of the witness (`npm run mutation`): the witness's
// own literal-observation tests, which judge in milliseconds. Left out: the property tests
// (tests/property), which cover nearly every mutant at seconds per run, and the end-to-end matrix
// and reference-host tests, which pin the same rules through a server. `npm test`
// (vitest.config.ts) still runs all of them. tests/witness/hostile-scale.test.ts is left out too:
// it bounds the CPU time of uninstrumented code, which instrumented code cannot meet, and
// StrykerJS needs every test green before it starts.
export default defineConfig({
  // The test paths are the repository's, one folder up from this file.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['tests/witness/**/*.test.ts', 'tests/cli/judge.test.ts'],
    exclude: ['tests/witness/hostile-scale.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
