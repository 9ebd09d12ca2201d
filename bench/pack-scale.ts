// Figure 6: what a generated pack costs as it grows. Each size is one fresh, cold
// `node bin/openwop-eval-gate.mjs run --generate N` process against the reference host started as
// its own process (seeded with the largest pack's files, which hold every smaller pack: packs are
// prefix-stable), then `verify` of the largest report, also a fresh process. Peak RSS is the
// child's own `process.resourceUsage().maxRSS`, written at exit by a preloaded probe
// (bench/rss-probe.mjs), so no sampling interval can miss the peak.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childEnv, runTimed } from './process-timer.ts';
import type { Judgement, Section } from './report.ts';
import { fmt } from './stats.ts';

const CLI = fileURLToPath(new URL('../bin/openwop-eval-gate.mjs', import.meta.url));
const HOST = fileURLToPath(new URL('../bin/openwop-eval-gate-host.mjs', import.meta.url));
const PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
export const PACK_SIZES = [200, 1000, 10_000] as const;
const SEED = 1;
/** The largest pack takes minutes on two loaded cores; a run that outlives this is a failure. */
const CHILD_DEADLINE_MS = 30 * 60_000;
const RSS_GROWTH_TARGET = 1.3;
const RSS_CEILING_MB = 300;
const PER_CASE_GROWTH_TARGET = 1.2;
const BYTES_PER_CASE_TARGET = 10 * 1024;

interface Measured {
  readonly wallMs: number;
  readonly peakRssMb: number;
}

interface PackSample extends Measured {
  readonly count: number;
  readonly reportBytes: number;
  readonly sidecarBytes: number;
  readonly exitCode: number;
}

/** One fresh child: wall from spawn to exit, and its own peak RSS. */
async function measure(
  args: readonly string[],
  cwd: string,
  settings: Record<string, string>,
): Promise<Measured & { exitCode: number }> {
  const rssFile = join(cwd, `rss-${randomBytes(4).toString('hex')}.txt`);
  const { elapsedMs, exitCode } = await runTimed({
    args: ['--import', PROBE, ...args],
    cwd,
    settings: { ...settings, BENCH_RSS_FILE: rssFile },
    // Exit 1 is a verdict (a failing host), not a failed measurement; 2 and signals are.
    exits: [0, 1],
    deadlineMs: CHILD_DEADLINE_MS,
  });
  const kb = await readFile(rssFile, 'utf8');
  return { wallMs: elapsedMs, peakRssMb: Number(kb) / 1024, exitCode };
}

/** The reference host as its own process, seeded with `fixturesDir`; resolves with its URL. */
async function startHostProcess(
  apiKey: string,
  fixturesDir: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [HOST, '--port', '0', '--api-key', apiKey, '--fixtures-dir', fixturesDir],
    { env: childEnv({}), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the host did not start in 60 s')), 60_000);
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the host exited ${code}`)));
  });
  return { url, child };
}

export interface PackScale {
  readonly samples: readonly PackSample[];
  readonly verify: Measured & { readonly count: number; readonly exitCode: number };
}

export async function samplePackScale(
  workDir: string,
  say: (line: string) => void,
  sizes: readonly number[] = PACK_SIZES,
): Promise<PackScale> {
  const largest = Math.max(...sizes);
  const fixturesDir = join(workDir, 'pack');
  const seeded = await measure(
    [CLI, 'fixtures', '--out', fixturesDir, '--generate', String(largest), '--seed', String(SEED)],
    workDir,
    {},
  );
  say(`wrote the pack of ${largest} in ${fmt(seeded.wallMs / 1000)} s`);
  const apiKey = randomBytes(24).toString('base64url');
  const host = await startHostProcess(apiKey, fixturesDir);
  const samples: PackSample[] = [];
  try {
    for (const count of sizes) {
      const reportDir = join(workDir, `report-${count}`);
      await mkdir(reportDir, { recursive: true });
      const run = await measure(
        [CLI, 'run', '--generate', String(count), '--seed', String(SEED)],
        workDir,
        { OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: apiKey, OPENWOP_REPORT_DIR: reportDir },
      );
      const files = await readdir(reportDir);
      const sizeOf = async (name: string): Promise<number> =>
        files.includes(name) ? (await stat(join(reportDir, name))).size : 0;
      const sidecars = files.filter((f) => f.endsWith('.jsonl.gz'));
      const sidecarBytes = (await Promise.all(sidecars.map(sizeOf))).reduce((a, b) => a + b, 0);
      samples.push({
        count,
        ...run,
        reportBytes: await sizeOf('eval-gate-report.json'),
        sidecarBytes,
      });
      say(`run --generate ${count}: ${fmt(run.wallMs / 1000)} s, ${fmt(run.peakRssMb)} MB`);
    }
  } finally {
    host.child.kill('SIGTERM');
  }
  const verify = await measure(
    [CLI, 'verify', join(workDir, `report-${largest}`, 'eval-gate-report.json')],
    workDir,
    {},
  );
  say(`verify of ${largest}: ${fmt(verify.wallMs / 1000)} s, ${fmt(verify.peakRssMb)} MB`);
  return { samples, verify: { ...verify, count: largest } };
}

const kb = (bytes: number): string => fmt(bytes / 1024);

/** When and under what load the figure was taken: it may be measured apart from the page. */
export interface Taken {
  readonly date: string;
  readonly loadAverage: number;
}

export function packScaleSection(scale: PackScale, taken: Taken): Section {
  const { samples, verify } = scale;
  const at = (n: number): PackSample | undefined => samples.find((s) => s.count === n);
  const smallest = samples[0];
  const largest = samples.at(-1);
  const middle = samples.at(-2);
  const perCase = (s: PackSample): number => s.wallMs / s.count;
  const bytesPerCase = (s: PackSample): number => (s.reportBytes + s.sidecarBytes) / s.count;
  const rssGrowth =
    smallest === undefined || largest === undefined ? NaN : largest.peakRssMb / smallest.peakRssMb;
  const perCaseGrowth =
    middle === undefined || largest === undefined ? NaN : perCase(largest) / perCase(middle);
  const worstBytes = Math.max(...samples.map(bytesPerCase));
  const checks: readonly [string, boolean][] = [
    [`every run completed`, samples.every((s) => s.exitCode === 0) && verify.exitCode === 0],
    [
      `peak RSS at ${largest?.count} within ${RSS_GROWTH_TARGET}× the peak at ${smallest?.count} (${fmt(rssGrowth)}×)`,
      rssGrowth <= RSS_GROWTH_TARGET,
    ],
    [
      `peak RSS at ${largest?.count} below ${RSS_CEILING_MB} MB (${fmt(largest?.peakRssMb ?? NaN)} MB)`,
      (largest?.peakRssMb ?? Infinity) < RSS_CEILING_MB,
    ],
    [
      `time per case at ${largest?.count} within ${PER_CASE_GROWTH_TARGET}× that at ${middle?.count} (${fmt(perCaseGrowth)}×)`,
      perCaseGrowth <= PER_CASE_GROWTH_TARGET,
    ],
    [
      `report plus sidecar at most ${BYTES_PER_CASE_TARGET / 1024} KB a case (worst ${kb(worstBytes)} KB)`,
      worstBytes <= BYTES_PER_CASE_TARGET,
    ],
    [
      `verify of ${verify.count} below ${RSS_CEILING_MB} MB and within ${RSS_GROWTH_TARGET}× the run's peak at ${smallest?.count} (${fmt(verify.peakRssMb)} MB)`,
      verify.peakRssMb < RSS_CEILING_MB &&
        verify.peakRssMb <= RSS_GROWTH_TARGET * (smallest?.peakRssMb ?? 0),
    ],
  ];
  const missed = checks.filter(([, ok]) => !ok).map(([what]) => what);
  const judged: Judgement = {
    ratio: `RSS ${fmt(rssGrowth)}×, per case ${fmt(perCaseGrowth)}×`,
    target: `RSS ≤ ${RSS_GROWTH_TARGET}× and < ${RSS_CEILING_MB} MB, per case ≤ ${PER_CASE_GROWTH_TARGET}×, ≤ 10 KB a case`,
    met: missed.length === 0,
    verdict: missed.length === 0 ? 'Every target met.' : `Missed: ${missed.join('; ')}.`,
  };
  return {
    title: '6. Generated packs at 200, 1,000 and 10,000 cases',
    method:
      'Each size is one fresh, cold `node bin/openwop-eval-gate.mjs run --generate N --seed 1` ' +
      'process against the reference host started as its own process (`openwop-eval-gate-host ' +
      '--fixtures-dir`, seeded with the 10,000-case pack, which holds the smaller ones), in ' +
      'the default mode; then one fresh `verify` of the 10,000-case report. Peak RSS is the ' +
      "child's own `process.resourceUsage().maxRSS`, written at exit by a preloaded probe. " +
      'Bytes are the report file plus its gzip JSON Lines sidecar. One run per size: the ' +
      'largest takes minutes. Run this section alone with `BENCH_ONLY=pack-scale npm run bench`. ' +
      `Taken ${taken.date}, load average (1 min) ${taken.loadAverage.toFixed(2)} at its start.`,
    headers: [
      'run',
      'wall (s)',
      'per case (ms)',
      'peak RSS (MB)',
      'report (KB)',
      'sidecar (KB)',
      'KB a case',
    ],
    rows: [
      ...samples.map((s) => [
        `run --generate ${s.count}`,
        fmt(s.wallMs / 1000),
        fmt(perCase(s)),
        fmt(s.peakRssMb),
        kb(s.reportBytes),
        kb(s.sidecarBytes),
        kb(s.reportBytes + s.sidecarBytes === 0 ? 0 : bytesPerCase(s)),
      ]),
      [
        `verify of ${verify.count}`,
        fmt(verify.wallMs / 1000),
        fmt(verify.wallMs / verify.count),
        fmt(verify.peakRssMb),
        kb(at(verify.count)?.reportBytes ?? 0),
        kb(at(verify.count)?.sidecarBytes ?? 0),
        '',
      ],
      ['before: run --generate 200 (before the sidecar)', '6.0', '30', '341', '16,000', '—', '80'],
      [
        'before: run --generate 1000 (before the sidecar)',
        '22.4',
        '22',
        '1,200',
        '85,000',
        '—',
        '85',
      ],
      [
        'before: run --generate 10000 (before the sidecar)',
        'failed after 147 s',
        '—',
        '—',
        '—',
        '—',
        '—',
      ],
    ],
    judged,
    notes: [
      checks.map(([what, ok]) => `- ${ok ? 'met' : '**missed**'}: ${what}`).join('\n'),
      'The report is the same size at every size: its pack record is a tally, and most of it is ' +
        'the discovery text, which lists the 10,000 fixtures the host was seeded with.',
    ],
  };
}
