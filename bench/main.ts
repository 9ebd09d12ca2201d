// `npm run bench`: takes every measurement docs/benchmarks.md reports, side by side in this one
// process run, and rewrites that file. The order puts the CPU-bound witness first, before the
// measurements that start child processes and servers.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureColdCosts } from './cold-costs.ts';
import { coldSuiteSections, sampleColdSuite } from './cold-suite.ts';
import { installedSizeSection } from './package-install.ts';
import type { Section } from './report.ts';
import { renderPage, spliceSection } from './report.ts';
import { packScaleSection, samplePackScale } from './pack-scale.ts';
import { measureVerdictLatency } from './verdict-latency.ts';
import { measureWitnessScale } from './witness-scale.ts';
import { sampleVersusBase, versusBaseSection } from './versus-base.ts';

const PAGE = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
/**
 * Witness rounds per size. The figure is a ratio of two medians, so one slow sample in five moved
 * it by half a unit on this shared machine; nine hold it.
 */
const WITNESS_ROUNDS = 9;
const LATENCY_ROUNDS = 9;
/** Cold process runs per series: each figure a user waits for is a median of at least five. */
const PROCESS_ROUNDS = 5;
/** Beside busy processes a run varies more from one to the next, so that median takes more. */
const LOADED_ROUNDS = 9;
/** The fixed-cost breakdown explains figures 2 and 4 and has no target of its own. */
const COLD_ROUNDS = 3;

/** Rounds of figure 7, each version's every process once a round. */
const VERSUS_ROUNDS = 5;
/** `BENCH_NPM_TEST=0` leaves the `npm test` runs out of figure 7. */
const WITH_NPM_TEST = process.env.BENCH_NPM_TEST !== '0';

/**
 * `BENCH_ONLY=pack-scale npm run bench`: figure 6 alone; `BENCH_ONLY=versus`: figure 7 alone;
 * either spliced into the page as it stands.
 */
const ONLY = process.env.BENCH_ONLY;

async function main(): Promise<void> {
  const began = performance.now();
  if (ONLY === 'pack-scale' || ONLY === 'versus') {
    await sectionOnly(ONLY, began);
    return;
  }
  if (ONLY !== undefined) throw new Error(`BENCH_ONLY takes pack-scale or versus, not ${ONLY}`);
  const [loadAverage = 0] = loadavg();
  const work = await mkdtemp(join(tmpdir(), 'openwop-bench-'));
  const say = (line: string): void => {
    process.stdout.write(`bench: ${line} (${((performance.now() - began) / 1000).toFixed(1)} s)\n`);
  };
  const sections: Section[] = [];
  try {
    say('3. witness vs. JSON.parse');
    const witness = measureWitnessScale(WITNESS_ROUNDS);
    say('1. verdict latency');
    sections.push(await measureVerdictLatency(LATENCY_ROUNDS));
    say('2, 4 and 5. cold runs, as fresh processes');
    const cold = coldSuiteSections(
      await sampleColdSuite(PROCESS_ROUNDS, LOADED_ROUNDS, work),
      PROCESS_ROUNDS,
      LOADED_ROUNDS,
    );
    sections.push(cold.coldRun, witness, cold.embedded, cold.firstPoll);
    say('fixed costs');
    sections.push(await measureColdCosts(COLD_ROUNDS));
    sections.push(await installedSizeSection());
    say('6. generated packs at scale');
    sections.push(
      packScaleSection(await samplePackScale(work, say), {
        date: new Date().toISOString(),
        loadAverage: loadavg()[0] ?? 0,
      }),
    );
    say(`7. the targets beside the base commit`);
    sections.push(
      versusBaseSection(await sampleVersusBase(VERSUS_ROUNDS, work, say, WITH_NPM_TEST)),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const cpu = cpus();
  const page = renderPage(
    {
      date: new Date().toISOString(),
      node: process.version,
      cores: cpu.length,
      cpu: cpu[0]?.model.trim() ?? 'unknown',
      platform: `${platform()} ${release()}`,
      memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadAverage,
      benchSeconds: (performance.now() - began) / 1000,
    },
    sections,
  );
  await writeFile(PAGE, page);
  say(`wrote ${PAGE} (free memory ${Math.round(freemem() / 2 ** 20)} MiB)`);
  for (const s of sections) {
    if (s.judged !== undefined)
      say(`${s.judged.met ? 'met   ' : 'MISSED'} ${s.title}: ${s.judged.ratio}`);
  }
}

async function sectionOnly(only: 'pack-scale' | 'versus', began: number): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'openwop-bench-'));
  const say = (line: string): void => {
    process.stdout.write(`bench: ${line} (${((performance.now() - began) / 1000).toFixed(1)} s)\n`);
  };
  try {
    const taken = { date: new Date().toISOString(), loadAverage: loadavg()[0] ?? 0 };
    const section =
      only === 'pack-scale'
        ? packScaleSection(await samplePackScale(work, say), taken)
        : versusBaseSection(await sampleVersusBase(VERSUS_ROUNDS, work, say, WITH_NPM_TEST));
    await writeFile(PAGE, spliceSection(await readFile(PAGE, 'utf8'), section));
    say(`wrote ${PAGE}: ${section.judged?.met === true ? 'met' : 'MISSED'} ${section.title}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
