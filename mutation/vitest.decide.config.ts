import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant of the decision modules and the verdict module
// (`npm run mutation:decide`): literal findings, discovery documents, report rows and reports,
// judged in milliseconds. tests/cli/verify.test.ts is left out: it drives whole runs against the
// reference host, seconds per mutant, and tests/report/recompute.test.ts pins the same
// recomputation on literal rows. tests/channels/verdict-table.test.ts is left out too: it builds
// its reports while vitest collects it, outside any test, so every verdict mutant it reaches
// would be run against every test; the literal verdict tests below pin the same lines.
// `npm test` (vitest.config.ts) still runs all of them.
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
      'tests/report/verdict-words.test.ts',
      'tests/report/verdict-causes.test.ts',
      'tests/report/verdict-lines.test.ts',
      'tests/report/certification-reasons.test.ts',
      'tests/report/baseline-resolution.test.ts',
      'tests/report/gate-counts.test.ts',
      'tests/report/ci-verdict.test.ts',
      'tests/report/severity.test.ts',
      'tests/report/causes-order.test.ts',
      'tests/report/unexercised-output.test.ts',
      'tests/report/outputs.test.ts',
      'tests/channels/fail-on-none.test.ts',
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
