// The entry of the CLI bundle (dist/bundle/main.cjs) that `openwop-eval-gate` runs: the command
// shell, and the warm-up the build runs on this very bundle so that the V8 code cache it writes
// holds the functions a run and a `verify` compile (bin/build.mjs). Nothing runs on load.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { main } from './main.ts';

/**
 * What the build runs before it writes the code cache: an embedded run, a two-case generated
 * pack, and `verify` of each report. It reads no setting from the environment or .env, prints
 * nothing, and writes only to a folder of its own, removed after.
 */
export async function warmUp(): Promise<void> {
  const { runConformance, verifyReport } = await import('./api.ts');
  const work = await mkdtemp(join(tmpdir(), 'openwop-warm-up-'));
  try {
    for (const [name, pack] of [
      ['embedded', undefined],
      ['generated', { count: 2, seed: 1 }],
    ] as const) {
      const reportDir = join(work, name);
      await runConformance({ env: false, reportDir, ...(pack === undefined ? {} : { pack }) });
      await verifyReport(join(reportDir, 'eval-gate-report.json'));
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
