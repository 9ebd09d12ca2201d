// Times an empty vitest run: the one trivial file in bench/floor/, started the way cli/run-suite.ts
// starts the legs (from code, no config file, one worker thread, silent reporters).

import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FLOOR_FILE = 'bench/floor/harness-floor.test.ts';

/** Milliseconds from start to close; throws unless the one test passed. */
export async function timeEmptyVitestRun(): Promise<number> {
  const started = performance.now();
  const vitest = await startVitest(
    'test',
    [],
    {
      root: ROOT,
      config: false,
      watch: false,
      include: [FLOOR_FILE],
      // An empty list would mean vitest's default reporter; one that does nothing is silent.
      reporters: [{}],
      maxWorkers: 1,
      pool: 'threads',
      passWithNoTests: false,
    },
    { logLevel: 'error' },
  );
  await vitest.close();
  const elapsed = performance.now() - started;
  const states = vitest.state.getFiles().map((f) => f.result?.state);
  if (states.length !== 1 || states[0] !== 'pass') {
    throw new Error(`the harness-floor run did not pass: ${JSON.stringify(states)}`);
  }
  return elapsed;
}
