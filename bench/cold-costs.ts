// "Where the fixed cost goes": runs bench/cold-start-probe.ts in fresh processes and reports each
// once-per-process cost it times. It has no target; it explains the misses of measurements 2 and 4.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Section } from './report.ts';
import { fmtSummary, summarize } from './stats.ts';

const PROBE = fileURLToPath(new URL('./floor/cold-start.mjs', import.meta.url));

function probeOnce(): Promise<Readonly<Record<string, number>>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PROBE], { timeout: 60_000 }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(JSON.parse(stdout) as Record<string, number>);
    });
  });
}

export async function measureColdCosts(rounds: number): Promise<Section> {
  const samples = new Map<string, number[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, ms] of Object.entries(await probeOnce())) {
      samples.set(name, [...(samples.get(name) ?? []), ms]);
    }
  }
  return {
    title: 'Where the fixed cost goes',
    method:
      `Each once-per-process cost, timed in a fresh \`node\` + tsx process (bench/cold-start-probe.ts) ` +
      `in the order a run meets them, ${rounds} processes. The CLI process pays undici, part of ` +
      `lib/ (discovery, gates, fixtures, the head start, the report schema), the reference host ` +
      `and vitest; the worker pays undici and all of lib/, through vite rather than tsx.`,
    headers: ['once per process', 'ms: min / median / max'],
    rows: [...samples].map(([name, ms]) => [name, fmtSummary(summarize(ms))]),
    notes: [
      'Already done: the JSON Schemas are compiled by Ajv at build time into ' +
        'lib/generated/validators.js (`npx tsx cli/compile-schemas.ts`; a test fails while it is ' +
        'stale), so no process loads Ajv or compiles a schema, and the worker loads that module ' +
        'natively; the CLI loads the witness for the host checks only once the legs run, beside them; the worker finds its ' +
        "modules' transforms done (cli/vitest-warmup.ts); and the host client loads only undici's " +
        'pool and `request` modules (lib/observe/undici-pool.ts), not the package root, which also ' +
        'loads every other dispatcher, the mocks and fetch: about 180 ms less in each process. ' +
        '`experimental.fsModuleCache` would help only repeat runs on one checkout, not the fresh ' +
        'clone a CI job starts from, and so is left off.',
    ],
  };
}
