// Measurement 4: `npm run conformance` against the embedded host vs. an empty vitest run, each a
// fresh node process started the same way (node + tsx + vitest from code), so both pay the same
// start-up and the difference is what the suite adds: its modules, the embedded host, discovery,
// the legs, the report.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Section } from './report.ts';
import { fmt, fmtSummary, pairedRatios, summarize } from './stats.ts';

const CLI = fileURLToPath(new URL('../bin/openwop-eval-gate.mjs', import.meta.url));
const EMPTY = fileURLToPath(new URL('./floor/empty-run.mjs', import.meta.url));
const TARGET_RATIO = 1.5;
const CHILD_DEADLINE_MS = 60_000;

/** Wall time of one child, from spawn to exit; throws unless it exits 0 within the deadline. */
function timeProcess(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_DEADLINE_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const elapsed = performance.now() - started;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`${args.join(' ')} exited ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}

/**
 * The child gets no OPENWOP_* variable but the report directory, and runs in `workDir`, so no
 * `.env` or shell setting can point it away from the embedded host.
 */
function childEnv(reportDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('OPENWOP_')) env[name] = value;
  }
  return { ...env, OPENWOP_REPORT_DIR: reportDir };
}

export async function measureConformanceFloor(rounds: number, workDir: string): Promise<Section> {
  const env = childEnv(workDir);
  const suite: number[] = [];
  const empty: number[] = [];
  const conformance = async (): Promise<void> => {
    suite.push(await timeProcess([CLI, 'run'], workDir, env));
  };
  const floor = async (): Promise<void> => {
    empty.push(await timeProcess([EMPTY], workDir, env));
  };
  for (let round = 0; round < rounds; round += 1) {
    for (const step of round % 2 === 0 ? [conformance, floor] : [floor, conformance]) await step();
  }
  const s = summarize(suite);
  const e = summarize(empty);
  const ratio = s.median / e.median;
  const met = ratio <= TARGET_RATIO;
  return {
    title: '4. `npm run conformance` (embedded host) vs. an empty vitest run',
    method:
      `Each is a fresh \`node\` process timed from spawn to exit: \`node bin/openwop-eval-gate.mjs ` +
      `run\` (what \`npm run conformance\` runs, without npm's own start-up) with no ` +
      `OPENWOP_BASE_URL, so it starts the embedded reference host; and bench/floor/empty-run.mjs, ` +
      `which loads tsx the same way and runs one trivial test file through startVitest on the ` +
      `same pool (one worker thread). ` +
      `${rounds} rounds, alternating order.`,
    headers: ['series', 'min / median / max'],
    rows: [
      ['npm run conformance (ms)', fmtSummary(s)],
      ['empty vitest run (ms)', fmtSummary(e)],
      ['paired ratio (×)', fmtSummary(summarize(pairedRatios(suite, empty)))],
      ['difference of medians (ms)', fmt(s.median - e.median)],
    ],
    judged: {
      ratio: `median conformance / median empty = ${fmt(ratio)}×`,
      target: `≤ ${TARGET_RATIO}×`,
      met,
      verdict:
        (met
          ? `The suite adds ${fmt(s.median - e.median)} ms to the harness floor, ` +
            `${fmt(TARGET_RATIO * e.median - s.median)} ms under the target; the paired ratios ` +
            `show how much of that margin one busy moment can take. `
          : `Over by ${fmt(ratio - TARGET_RATIO)}× (${fmt(s.median - TARGET_RATIO * e.median)} ms ` +
            `over the target). `) +
        `With the embedded host the runs take milliseconds, so what the suite adds is fixed ` +
        `start-up cost, in two threads: the CLI's own modules (the CLI, undici for discovery and ` +
        `the head start, the reference host) and the report, and the worker importing the suite ` +
        `through vite (transformed ahead of its requests by cli/vitest-warmup.ts; the schema ` +
        `validators are precompiled and load natively). See "Where the fixed cost goes" below.`,
    },
  };
}
