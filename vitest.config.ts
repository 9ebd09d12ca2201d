import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own tests. The legs file is run by `npm run conformance` (cli/), which
// points it at a host; here it is left out because it needs a target.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The bins run dist/; tests that spawn them need it built from these sources.
    globalSetup: ['tests/support/build-dist.ts'],
    exclude: ['tests/v2-eval-trajectory-trials.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
