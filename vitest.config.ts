import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own tests. The legs file is run by `npm run conformance` (cli/), which
// points it at a host; here it is left out because it needs a target.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/v2-eval-trajectory-trials.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
