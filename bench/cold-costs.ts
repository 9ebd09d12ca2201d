// "Where the fixed cost goes": runs bench/floor/cold-start.mjs in fresh processes and reports each
// once-per-process cost it times. It has no target; it explains figures 2 and 4.

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
      `Each once-per-process cost, timed in a fresh plain \`node\` process importing the compiled ` +
      `modules under dist/ (bench/floor/cold-start.mjs), in the order a run meets them, ${rounds} ` +
      `processes.`,
    headers: ['once per process', 'ms: min / median / max'],
    rows: [...samples].map(([name, ms]) => [name, fmtSummary(summarize(ms))]),
    notes: [
      'The bins run JavaScript compiled by `npm run build`, so no process pays a TypeScript ' +
        'loader. The JSON Schemas are compiled by Ajv at build time into lib/generated/ ' +
        '(`npm run schemas:compile`; a test fails while it is stale), so no process loads Ajv or ' +
        "compiles a schema. The fixture's validator is a file of its own: a run needs it before " +
        'it creates its runs, and the file holding the others (about a megabyte) loads once ' +
        "they are created, while the host works. The host client uses Node's own " +
        "`node:http` (the first row). It used undici's package root before, whose import took " +
        '130 to 140 ms in a fresh process on the 2-core machine, loading fetch, WebSocket, ' +
        "cookie and cache modules the suite never calls; before that, two of undici's internal " +
        'modules, which are not its public API.',
    ],
  };
}
