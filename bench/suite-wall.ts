// Measurement 2: the whole suite (every leg, through vitest, as `npm run conformance` runs it)
// against a host whose runs each take T, compared with T itself. The legs are concurrent and their
// runs are created before vitest starts, so the floor is T plus a few round trips; the empty
// vitest run is timed alongside to show how much harness the host's run time hides.

import { randomBytes } from 'node:crypto';
import type { SuiteConfig } from '../lib/env.ts';
import { readConfig } from '../lib/env.ts';
import { runSuite } from '../lib/decide/run-suite.ts';
import { LEGS } from '../lib/legs.ts';
import { startReferenceHost } from '../reference-host/index.ts';
import type { Section } from './report.ts';
import { fmt, fmtSummary, pairedRatios, summarize } from './stats.ts';
import { timeEmptyVitestRun } from './vitest-floor.ts';

export const SLOW_RUN_MS = 2_000;
const TARGET_RATIO = 1.3;

export async function measureSuiteWall(rounds: number, reportDir: string): Promise<Section> {
  const apiKey = randomBytes(24).toString('base64url');
  const host = await startReferenceHost({ apiKey, runDelayMs: SLOW_RUN_MS });
  const config: SuiteConfig = readConfig(
    { OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: apiKey, OPENWOP_REPORT_DIR: reportDir },
    { envFile: false },
  );
  const wall: number[] = [];
  const floor: number[] = [];
  const longest: number[] = [];
  const summed: number[] = [];
  const suite = async (): Promise<void> => {
    const started = performance.now();
    const run = await runSuite(config);
    wall.push(performance.now() - started);
    const bad = run.outcomes.filter((o) => o.disposition !== 'executed-pass');
    if (bad.length > 0) {
      throw new Error(`suite-wall: ${bad[0]?.requirement ?? ''} ${bad[0]?.reason ?? ''}`);
    }
    const hostLegs = run.outcomes.filter((o) => o.fixtureId !== undefined).map((o) => o.durationMs);
    longest.push(Math.max(...hostLegs));
    summed.push(hostLegs.reduce((a, b) => a + b, 0));
  };
  const empty = async (): Promise<void> => {
    floor.push(await timeEmptyVitestRun());
  };
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const step of round % 2 === 0 ? [suite, empty] : [empty, suite]) await step();
    }
  } finally {
    await host.close();
  }

  const w = summarize(wall);
  const ratio = w.median / SLOW_RUN_MS;
  const overlap = summarize(pairedRatios(summed, longest));
  const legsOverT = summarize(longest.map((l) => l / SLOW_RUN_MS));
  const beyondT = summarize(wall.map((x) => x - SLOW_RUN_MS));
  const floorMedian = summarize(floor).median;
  const met = ratio <= TARGET_RATIO;
  const hostLegs = LEGS.filter((leg) => leg.fixtureId !== undefined).length;
  const serverFree = LEGS.length - hostLegs;
  return {
    title: `2. Whole-suite wall time against a host whose runs take T = ${SLOW_RUN_MS / 1000} s`,
    method:
      `cli/run-suite.ts (vitest from code, the legs file with describe.concurrent, one worker ` +
      `thread) against the reference host with runDelayMs ${SLOW_RUN_MS}: ${hostLegs} host legs, ` +
      `each driving its own run, and ${serverFree} server-free leg${serverFree === 1 ? '' : 's'}. ` +
      `${rounds} rounds, each also timing the empty vitest run (bench/floor/), in alternating ` +
      `order. A leg's time is its own durationMs (gates, fixture, drive, judge), counted from ` +
      `when its run was created.`,
    headers: ['series', 'min / median / max'],
    rows: [
      ['suite wall (ms)', fmtSummary(w)],
      ['suite wall / T (×)', fmtSummary(summarize(wall.map((x) => x / SLOW_RUN_MS)))],
      ['longest leg / T (×)', fmtSummary(legsOverT)],
      [
        `sum of host leg times / longest leg (overlap, ${hostLegs} = fully concurrent)`,
        fmtSummary(overlap),
      ],
      ['suite wall − T (ms)', fmtSummary(beyondT)],
      ['empty vitest run (ms)', fmtSummary(summarize(floor))],
    ],
    judged: {
      ratio: `median wall / T = ${fmt(ratio)}×`,
      target: `≤ ${TARGET_RATIO} × T`,
      met,
      verdict:
        (met
          ? `${fmt(ratio)}× T. `
          : `Over by ${fmt(ratio - TARGET_RATIO)} × T ` +
            `(${fmt(w.median - TARGET_RATIO * SLOW_RUN_MS)} ms). `) +
        `The legs overlap (${fmt(overlap.median)} of ${hostLegs} legs' time in one wall), and the ` +
        `fixed costs overlap the host's run time instead of preceding it: before vitest starts, ` +
        `the calling process reads discovery and creates every host leg's run ` +
        `(lib/decide/head-start.ts), so loading vitest, starting its worker and importing the suite ` +
        `there (the empty vitest run alone is ${fmt(floorMedian)} ms) happen while the host runs. ` +
        `What is left beyond T (median ${fmt(beyondT.median)} ms) is creating the runs, the last ` +
        `poll, status and summary reads, judging, and closing vitest` +
        (met
          ? '.'
          : `; the excess is that part, stretched by a busy machine (see the load average).`),
    },
  };
}
