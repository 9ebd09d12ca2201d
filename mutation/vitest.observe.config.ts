import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant of the observe layer (`npm run mutation:observe`):
// the driver, discovery, the probes and the host client against scripted loopback servers (port
// 0, torn down in each test), a fraction of a second each, and the log reader alone against a
// scripted client (tests/support/scripted-log.ts), in milliseconds. Left out: the hostile-host
// tests (tests/hostile), which drive the same code through whole legs at seconds per run, and the
// reference-host tests. `npm test` (vitest.config.ts) still runs all of them.
export default defineConfig({
  // The test paths are the repository's, one folder up from this file.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: [
      'tests/observe/driver.test.ts',
      'tests/observe/driver-endings.test.ts',
      'tests/observe/drive-clock.test.ts',
      'tests/observe/log-terminal-page.test.ts',
      'tests/observe/log-pacing.test.ts',
      'tests/observe/replay-cursors.test.ts',
      'tests/observe/log-events.test.ts',
      'tests/observe/discovery.test.ts',
      'tests/observe/discovery-edges.test.ts',
      'tests/observe/probes.test.ts',
      'tests/observe/host-client.test.ts',
      'tests/observe/host-client-edges.test.ts',
      'tests/observe/host-client-transport.test.ts',
      'tests/observe/host-client-json.test.ts',
    ],
    exclude: ['node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
