import { defineConfig } from 'vitest/config';

// The browser lane (`npm run test:browser`): pages opened in the system's Chromium. Its files end
// in `.browser.ts`, so `npm test` (vitest.config.ts collects `*.test.ts`) never starts a browser.
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.browser.ts'],
    // One browser at a time: each is a handful of processes on a shared two-core machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
