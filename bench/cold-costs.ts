// "Where the fixed cost goes": runs bench/floor/cold-start.mjs in fresh processes and reports each
// once-per-process cost it times. It has no target; it explains figures 2 and 4.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Section } from './report.ts';
import { fmtSummary, summarize } from './stats.ts';

const PROBE = fileURLToPath(new URL('./floor/cold-start.mjs', import.meta.url));

/** One fresh `node` process run to its end: what it printed, and its wall time from spawn. */
function nodeOnce(args: readonly string[]): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve({ stdout, ms: performance.now() - started });
    });
  });
}

const NODE_ITSELF = 'a process that runs nothing (`node -e 0`), spawn to exit';

export async function measureColdCosts(rounds: number): Promise<Section> {
  const samples = new Map<string, number[]>();
  for (let round = 0; round < rounds; round += 1) {
    const { ms: empty } = await nodeOnce(['-e', '0']);
    samples.set(NODE_ITSELF, [...(samples.get(NODE_ITSELF) ?? []), empty]);
    const { stdout } = await nodeOnce([PROBE]);
    for (const [name, ms] of Object.entries(JSON.parse(stdout) as Record<string, number>)) {
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
      'The first row is Node alone, which every run pays before any module of its own (figure ' +
        "2's quiet wall − T includes it). " +
        (process.env.NODE_EXTRA_CA_CERTS === undefined
          ? 'NODE_EXTRA_CA_CERTS was not set for this bench; where it is, Node reads those ' +
            'certificates at every start.'
          : 'NODE_EXTRA_CA_CERTS was set for this bench, so Node read those certificates at ' +
            'every start, and the first row includes that.'),
      'The bins run JavaScript compiled by `npm run build`, so no process pays a TypeScript ' +
        'loader. The JSON Schemas are compiled by Ajv at build time into lib/generated/ ' +
        '(`npm run schemas:compile`; a test fails while it is stale), so no process loads Ajv or ' +
        "compiles a schema. The fixture's validator is a file of its own: a run needs it before " +
        'it creates its runs, and the file holding the others (about a megabyte) loads once ' +
        'they are created, while the host works; both load with the V8 code cache the build ' +
        'writes for their very text (lib/code-cache.ts), so neither is parsed nor compiled ' +
        "again. The host client uses Node's own " +
        "`node:http` (the second row). It used undici's package root before, whose import took " +
        '130 to 140 ms in a fresh process on the 2-core machine, loading fetch, WebSocket, ' +
        "cookie and cache modules the suite never calls; before that, two of undici's internal " +
        'modules, which are not its public API.',
    ],
  };
}
