import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant of the decision modules (`npm run
// mutation:decide`): literal findings, discovery documents and report rows, judged in
// milliseconds. tests/cli/verify.test.ts is left out: it drives whole runs against the reference
// host, seconds per mutant, and tests/report/recompute.test.ts pins the same recomputation
// on literal rows. `npm test` (vitest.config.ts) still runs all of them.
export default defineConfig({
  // The test paths are the repository's, one folder up from this file.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: [
      'tests/decide/**/*.test.ts',
      'tests/report/recompute.test.ts',
      'tests/report/json-diff.test.ts',
      'tests/decide/gates.test.ts',
      'tests/decide/leg-needs.test.ts',
      'tests/report/verdict.test.ts',
    ],
    // The engine's and the legs file's tests run whole suites: seconds per mutant, and the
    // literal tests pin the same decisions.
    exclude: [
      'node_modules/**',
      'tests/decide/run-suite.test.ts',
      'tests/decide/legs-file.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
