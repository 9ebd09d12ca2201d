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
      `in the order a leg meets them, ${rounds} processes. The vitest worker that runs the legs ` +
      `pays all but the last row before its first verdict, and the CLI process pays them again ` +
      `(it imports lib/ to read discovery and to check the report against its schema); lib/ goes ` +
      `through vite rather than tsx in the worker, at a similar cost.`,
    headers: ['once per process', 'ms: min / median / max'],
    rows: [...samples].map(([name, ms]) => [name, fmtSummary(summarize(ms))]),
    notes: [
      'What would lower it, none of it done here because each is a design choice for the owners ' +
        'of lib/ and cli/: import `Pool` from `undici/lib/dispatcher/pool.js` instead of the ' +
        "package root (about a third of undici's import cost, but an internal path); precompile " +
        "the suite's JSON Schemas with Ajv standalone code at build time instead of compiling them " +
        'at start-up; let the CLI hand its discovery to the worker (it already passes the config ' +
        'through `provide`) instead of importing undici in both processes.',
    ],
  };
}
