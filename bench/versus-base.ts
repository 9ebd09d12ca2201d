// Figure 7: the cold run, the embedded run, `verify`, a passing run's page and `npm test`, each
// against its target and measured side by side with the suite as it stood at commit 954060f,
// before the weight these targets take back. The bench checks that commit out into a temporary
// git worktree beside this one, sharing this checkout's node_modules, builds it, and times both
// versions' bins in the same rounds, alternating which goes first, so a change in the machine's
// load falls on both. Every process is fresh and cold, as a user starts
// it; beside each wall time the process's own CPU time (bench/cpu-probe.mjs) is given, the figure
// that holds still on a shared machine. `npm test` is each checkout's own, run twice each and
// timed whole with /usr/bin/time when it is there (its workers are child processes), each once
// the machine's load has settled from whatever ran before it.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, rm, stat, symlink } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ReferenceHost, ReferenceHostOptions } from '../reference-host/index.ts';
import { childEnv, runTimed } from './process-timer.ts';
import type { Judgement, Section } from './report.ts';
import { fmt, fmtSummary, summarize } from './stats.ts';
import { meanTestTime, testTime, type TestTime, type VitestJson } from './test-time.ts';

export const BASE_COMMIT = '954060f';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CPU_PROBE = fileURLToPath(new URL('./cpu-probe.mjs', import.meta.url));
const SLOW_RUN_MS = 2_000;
const TARGETS = { beyondT: 250, embedded: 300, verify: 400, pageKb: 150, npmTestS: 60 } as const;
/**
 * The figures 954060f took on the machine the targets were set on. A target over its base there,
 * times the base measured here beside this checkout, is the same target on this machine: the
 * `scaled` column. The page is weighed in bytes, which no machine changes.
 */
const TARGETS_BASE = { beyondT: 223, embedded: 270, npmTestS: 46 } as const;
const scaledTarget = (key: keyof typeof TARGETS_BASE, hereBase: number): number =>
  (TARGETS[key] / TARGETS_BASE[key]) * hereBase;
/**
 * `verify` was given no base of its own. It is a fresh process as the cold and the embedded run
 * are, so its target is scaled by how much slower this machine runs those two of 954060f's
 * processes than the targets' machine did: the geometric mean of the two ratios, so neither
 * counts more than the other.
 */
const machineFactor = (baseBeyondT: number, baseEmbedded: number): number =>
  Math.sqrt((baseBeyondT / TARGETS_BASE.beyondT) * (baseEmbedded / TARGETS_BASE.embedded));
/** `verify` is timed on a report of this many rows: the hand legs and one generated pack. */
const VERIFY_ARGS = ['--generate', '2', '--seed', '1'];

interface Version {
  readonly label: string;
  readonly root: string;
  readonly cli: string;
}

interface Timed {
  readonly wallMs: number;
  readonly cpuMs: number;
}

interface VersionSamples {
  readonly beyondT: Timed[];
  readonly embedded: Timed[];
  readonly verify: Timed[];
  pageBytes: number | undefined;
  verifyRows: number;
  /** Each `npm test` of the checkout, in the order they ran; empty when none was run. */
  readonly npmTests: NpmTest[];
}

interface NpmTest {
  readonly wallS: number;
  readonly cpuS?: number;
  readonly status: number | null;
  /** The 1-minute load average when it started, after the wait for the machine to settle. */
  readonly startLoad: number;
  /** Where its time went, from vitest's JSON report; absent when the run wrote none. */
  readonly time?: TestTime;
}

/**
 * The order the two checkouts' `npm test` runs go in: each twice, the base first and last, so a
 * drift in the machine's speed over the quarter hour they take falls on both alike.
 */
const NPM_TEST_ORDER = ['base', 'head', 'head', 'base'] as const;

function git(args: readonly string[]): void {
  const done = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`git ${args.join(' ')}: ${done.stderr.trim()}`);
}

/** The base commit, checked out and built in `dir`; removed again by the returned function. */
async function checkoutBase(dir: string): Promise<{ version: Version; remove: () => void }> {
  git(['worktree', 'add', '--detach', dir, BASE_COMMIT]);
  const remove = (): void => git(['worktree', 'remove', '--force', dir]);
  try {
    await symlink(await realpath(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    const build = spawnSync(process.execPath, [join(dir, 'bin', 'build.mjs')], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`building ${BASE_COMMIT}: ${build.stderr.trim()}`);
  } catch (error) {
    remove();
    throw error;
  }
  const cli = join(dir, 'bin', 'openwop-eval-gate.mjs');
  return { version: { label: BASE_COMMIT, root: dir, cli }, remove };
}

/** One fresh CLI process with the CPU probe preloaded: its wall and CPU milliseconds. */
async function timeCli(
  version: Version,
  args: readonly string[],
  settings: Readonly<Record<string, string>>,
  cwd: string,
  exits: readonly number[] = [0],
): Promise<Timed> {
  const cpuFile = join(cwd, `cpu-${randomBytes(6).toString('hex')}`);
  const { elapsedMs } = await runTimed({
    args: ['--import', CPU_PROBE, version.cli, ...args],
    cwd,
    settings: { ...settings, BENCH_CPU_FILE: cpuFile },
    exits,
  });
  const cpuMs = Number(await readFile(cpuFile, 'utf8'));
  await rm(cpuFile, { force: true });
  return { wallMs: elapsedMs, cpuMs };
}

/**
 * The load a `npm test` may start under: each one saturates both cores for minutes, so the one
 * timed second would otherwise start under the load the first left (about 4 on 2 cores).
 */
const SETTLED_LOAD = 1;
/** How long to wait for the load to settle before timing anyway; the start load is reported. */
const SETTLE_MAX_MS = 180_000;

/** Waits, bounded, until the 1-minute load average is at most SETTLED_LOAD; returns it. */
async function settled(): Promise<number> {
  const until = Date.now() + SETTLE_MAX_MS;
  while ((loadavg()[0] ?? 0) > SETTLED_LOAD && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return loadavg()[0] ?? 0;
}

/**
 * `npm test` of a checkout, whole: wall seconds, CPU seconds of it and its children, and where the
 * time went. Its vitest writes a JSON report to `reportFile` in place of its console lines, which
 * go nowhere here anyway.
 */
async function npmTest(version: Version, reportFile: string): Promise<NpmTest> {
  const startLoad = await settled();
  const timer = existsSync('/usr/bin/time');
  const npm = ['npm', 'test', '--silent', '--', '--reporter=json', `--outputFile=${reportFile}`];
  const [command, ...args] = timer ? ['/usr/bin/time', '-f', 'cpu %U %S', ...npm] : npm;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command ?? 'npm', args, {
      cwd: version.root,
      env: childEnv({}),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let tail = '';
    child.stderr.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-400)));
    child.on('error', reject);
    child.on('exit', (status) => {
      const wallS = (performance.now() - started) / 1000;
      const cpu = /cpu (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)\s*$/.exec(tail);
      void readFile(reportFile, 'utf8')
        .then((text) => testTime(JSON.parse(text) as VitestJson, version.root))
        .catch(() => undefined)
        .then((time) =>
          resolve({
            wallS,
            status,
            startLoad,
            ...(cpu === null ? {} : { cpuS: Number(cpu[1]) + Number(cpu[2]) }),
            ...(time === undefined ? {} : { time }),
          }),
        );
    });
  });
}

export interface VersusSamples {
  readonly rounds: number;
  /** When the rounds began, and the machine's 1-minute load average then. */
  readonly date: string;
  readonly loadAverage: number;
  readonly base: VersionSamples;
  readonly head: VersionSamples;
}

export async function sampleVersusBase(
  rounds: number,
  work: string,
  say: (line: string) => void,
  withNpmTest: boolean,
): Promise<VersusSamples> {
  const { version: base, remove } = await checkoutBase(join(work, 'base'));
  try {
    return await sampleBoth(base, rounds, work, say, withNpmTest);
  } finally {
    remove();
  }
}

/** A version's own reference host, from its dist/: each suite runs against the host it shipped. */
async function startOwnHost(
  version: Version,
  options: ReferenceHostOptions,
): Promise<ReferenceHost> {
  const url = pathToFileURL(join(version.root, 'dist', 'reference-host', 'index.js')).href;
  const { startReferenceHost } = (await import(url)) as {
    startReferenceHost: (o: ReferenceHostOptions) => Promise<ReferenceHost>;
  };
  return startReferenceHost(options);
}

async function sampleBoth(
  base: Version,
  rounds: number,
  work: string,
  say: (line: string) => void,
  withNpmTest: boolean,
): Promise<VersusSamples> {
  const head: Version = {
    label: 'this checkout',
    root: ROOT,
    cli: join(ROOT, 'bin', 'openwop-eval-gate.mjs'),
  };
  const apiKey = randomBytes(24).toString('base64url');
  const date = new Date().toISOString();
  const loadAverage = loadavg()[0] ?? 0;
  const hosts = new Map<Version, ReferenceHost>();
  const samples = new Map<Version, VersionSamples>(
    [base, head].map((v) => [
      v,
      { beyondT: [], embedded: [], verify: [], pageBytes: 0, verifyRows: 0, npmTests: [] },
    ]),
  );
  try {
    for (const version of [base, head]) {
      hosts.set(version, await startOwnHost(version, { apiKey, runDelayMs: SLOW_RUN_MS }));
    }
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? [base, head] : [head, base];
      for (const version of order) {
        const s = samples.get(version);
        const host = hosts.get(version);
        if (s === undefined || host === undefined) continue;
        const dir = join(work, `${round}-${version === base ? 'base' : 'head'}`);
        await mkdir(dir, { recursive: true });
        const vsHost = await timeCli(
          version,
          ['run'],
          {
            OPENWOP_BASE_URL: host.url,
            OPENWOP_API_KEY: apiKey,
            OPENWOP_REPORT_DIR: join(dir, 'host'),
          },
          dir,
        );
        s.beyondT.push({ wallMs: vsHost.wallMs - SLOW_RUN_MS, cpuMs: vsHost.cpuMs });
        s.embedded.push(
          await timeCli(version, ['run'], { OPENWOP_REPORT_DIR: join(dir, 'embedded') }, dir),
        );
        // 954060f wrote no page; its cell says so.
        s.pageBytes = await stat(join(dir, 'embedded', 'eval-gate-report.html')).then(
          (page) => page.size,
          () => undefined,
        );
        const packed = join(dir, 'packed');
        await timeCli(version, ['run', ...VERIFY_ARGS], { OPENWOP_REPORT_DIR: packed }, dir);
        const report = join(packed, 'eval-gate-report.json');
        s.verifyRows = (
          JSON.parse(await readFile(report, 'utf8')) as { requirements: unknown[] }
        ).requirements.length;
        // An embedded host's report verifies but certifies nothing; verify says so in its exit.
        s.verify.push(await timeCli(version, ['verify', report], {}, dir, [0, 1]));
      }
      say(`figure 7: round ${round + 1} of ${rounds}`);
    }
  } finally {
    await Promise.all([...hosts.values()].map((h) => h.close()));
  }
  if (withNpmTest) {
    for (const [i, which] of NPM_TEST_ORDER.entries()) {
      const version = which === 'base' ? base : head;
      say(`figure 7: npm test of ${version.label} (${i + 1} of ${NPM_TEST_ORDER.length})`);
      const s = samples.get(version);
      const reportFile = join(work, `npm-test-${i + 1}-${which}.json`);
      s?.npmTests.push(await npmTest(version, reportFile));
    }
  }
  const of = (v: Version): VersionSamples => samples.get(v) as VersionSamples;
  return { rounds, date, loadAverage, base: of(base), head: of(head) };
}

const wall = (t: readonly Timed[]) => summarize(t.map((x) => x.wallMs));
const cpu = (t: readonly Timed[]) => summarize(t.map((x) => x.cpuMs));

export function versusBaseSection(v: VersusSamples): Section {
  const rows: string[][] = [];
  const checks: { name: string; met: boolean; metScaled: boolean }[] = [];
  const timed = (name: string, key: 'beyondT' | 'embedded' | 'verify', target: number): void => {
    const head = wall(v.head[key]);
    const base = wall(v.base[key]);
    const scaled =
      key === 'verify'
        ? target * machineFactor(wall(v.base.beyondT).median, wall(v.base.embedded).median)
        : scaledTarget(key, base.median);
    rows.push([
      `${name}, wall (ms)`,
      fmtSummary(base),
      fmtSummary(head),
      `≤ ${target}`,
      key === 'verify' ? `≤ ${fmt(scaled)} (by the machine)` : `≤ ${fmt(scaled)}`,
    ]);
    rows.push([
      `${name}, CPU (ms)`,
      fmtSummary(cpu(v.base[key])),
      fmtSummary(cpu(v.head[key])),
      '',
      '',
    ]);
    checks.push({
      name,
      met: head.median <= target,
      metScaled: head.median <= scaled,
    });
  };
  timed(
    `cold run − T against a host whose runs take T = ${SLOW_RUN_MS / 1000} s`,
    'beyondT',
    TARGETS.beyondT,
  );
  timed('`npm run conformance` (embedded host)', 'embedded', TARGETS.embedded);
  timed(
    `\`verify\` of a ${v.head.verifyRows}-row report (${v.base.verifyRows} rows at ${BASE_COMMIT})`,
    'verify',
    TARGETS.verify,
  );
  const kb = (bytes: number | undefined): string =>
    bytes === undefined ? 'no page written' : fmt(bytes / 1024);
  rows.push([
    `a passing run's HTML page (KB)`,
    kb(v.base.pageBytes),
    kb(v.head.pageBytes),
    `≤ ${TARGETS.pageKb}`,
    `≤ ${TARGETS.pageKb} (a size: not scaled)`,
  ]);
  const pageMet = v.head.pageBytes !== undefined && v.head.pageBytes <= TARGETS.pageKb * 1024;
  checks.push({ name: 'passing page', met: pageMet, metScaled: pageMet });
  const [b, h] = [v.base.npmTests, v.head.npmTests];
  const ran = b.length > 0 && h.length > 0;
  if (ran) {
    const scaled = scaledTarget('npmTestS', meanWall(b));
    rows.push([
      '`npm test`',
      npmTestCell(b),
      npmTestCell(h),
      `≤ ${TARGETS.npmTestS} s wall, mean`,
      `≤ ${fmt(scaled)} s wall, mean`,
    ]);
    const passed = h.every((t) => t.status === 0);
    checks.push({
      name: 'npm test',
      met: passed && meanWall(h) <= TARGETS.npmTestS,
      metScaled: passed && meanWall(h) <= scaled,
    });
  }
  const missed = checks.filter((c) => !c.met).map((c) => c.name);
  const missedScaled = checks.filter((c) => !c.metScaled).map((c) => c.name);
  const scaledWords =
    missedScaled.length === 0
      ? 'Every scaled target met.'
      : `Scaled targets missed: ${missedScaled.join('; ')}.`;
  const judged: Judgement = {
    ratio: `${checks.length - missed.length} of ${checks.length} targets met`,
    target: 'every target',
    met: missed.length === 0,
    verdict: `${missed.length === 0 ? 'Every target met.' : `Missed: ${missed.join('; ')}.`} ${scaledWords}`,
  };
  return {
    title: `7. Cold run, embedded run, verify, page and npm test, beside ${BASE_COMMIT}`,
    method:
      `Commit ${BASE_COMMIT} is checked out into a temporary git worktree sharing this checkout's ` +
      `node_modules and built with its own \`npm run build\`; then ${v.rounds} rounds, alternating ` +
      `which version goes first, each a fresh cold \`node bin/openwop-eval-gate.mjs\` process: ` +
      `\`run\` against its own reference host (from its dist/) with runDelayMs ${SLOW_RUN_MS}, \`run\` ` +
      `with the embedded host (its HTML page weighed), \`run ${VERIFY_ARGS.join(' ')}\` and ` +
      `\`verify\` of that report. CPU is user + system of the process itself ` +
      `(bench/cpu-probe.mjs), the figure to read when the machine is shared. This checkout runs ` +
      'as `npm run build` leaves it, with the V8 code caches of its bundle and validator files ' +
      '(lib/code-cache.ts), which a package installed from the registry does not carry. ' +
      (!ran
        ? '`npm test` was not run (BENCH_NPM_TEST=0). '
        : "`npm test` is each checkout's own, twice each in the order " +
          `${NPM_TEST_ORDER.map((w) => (w === 'base' ? BASE_COMMIT : 'this checkout')).join(', ')}, ` +
          'so that a drift in the machine over the runs falls on both alike, and judged on the mean ' +
          'wall time; CPU from /usr/bin/time (its workers included); each started once the ' +
          `1-minute load average is at most ${SETTLED_LOAD} (or after ${SETTLE_MAX_MS / 60_000} min): ` +
          'one saturates both cores for minutes, so the next would otherwise start under the load it left. ') +
      'Run this section alone with `BENCH_ONLY=versus npm run bench` (`BENCH_NPM_TEST=0` leaves ' +
      `out the \`npm test\` runs). Taken ${v.date}, load average (1 min) ` +
      `${v.loadAverage.toFixed(2)} at its start. The targets were set on a machine ` +
      `where ${BASE_COMMIT} measured ${TARGETS_BASE.beyondT} ms, ${TARGETS_BASE.embedded} ms and ` +
      `${TARGETS_BASE.npmTestS} s; the scaled column is each target in the same ratio to ` +
      `${BASE_COMMIT}'s median measured here, the same target on this machine. \`verify\` was ` +
      `given no ${BASE_COMMIT} figure, so its target is scaled "by the machine": by the geometric ` +
      `mean of ${BASE_COMMIT}'s cold − T and embedded medians here over their figures there, both ` +
      'fresh processes as `verify` is. The page is weighed in bytes, which no machine changes.',
    headers: [
      'series (min / median / max)',
      BASE_COMMIT,
      'this checkout',
      'target',
      `target scaled by ${BASE_COMMIT}`,
    ],
    rows,
    judged,
    notes: timeNotes(meanOf(b), meanOf(h)),
  };
}

const meanWall = (runs: readonly NpmTest[]): number =>
  runs.reduce((sum, t) => sum + t.wallS, 0) / runs.length;

/** A checkout's `npm test` runs in one cell: each run, then the mean wall time. */
function npmTestCell(runs: readonly NpmTest[]): string {
  const one = (t: NpmTest): string =>
    `${fmt(t.wallS)} s wall${t.cpuS === undefined ? '' : `, ${fmt(t.cpuS)} s CPU`}, load ${t.startLoad.toFixed(2)} at its start${t.status === 0 ? '' : `, exit ${t.status}`}`;
  return `${runs.map(one).join('; ')}; mean ${fmt(meanWall(runs))} s wall`;
}

/** A checkout's file times over its runs, or undefined when a run wrote no JSON report. */
function meanOf(runs: readonly NpmTest[]): TestTime | undefined {
  const times = runs.map((t) => t.time);
  return times.every((t) => t !== undefined) ? meanTestTime(times) : undefined;
}

/** How many of this checkout's longest files the notes name. */
const LONGEST_FILES = 12;

/**
 * Where each checkout's `npm test` spent its time, folder by folder, and this checkout's longest
 * files beside the same files at the base: the profile the figure's `npm test` row sums up.
 */
function timeNotes(base: TestTime | undefined, head: TestTime | undefined): string[] {
  if (base === undefined || head === undefined) return [];
  const seconds = (t: number | undefined): string => (t === undefined ? '—' : fmt(t));
  const total = (t: TestTime): number => t.byFolder.reduce((sum, f) => sum + f.seconds, 0);
  const files = (t: TestTime): number => t.byFolder.reduce((sum, f) => sum + f.files, 0);
  const folders = [...new Set([...head.byFolder, ...base.byFolder].map((f) => f.folder))];
  const at = (t: TestTime, folder: string) => t.byFolder.find((f) => f.folder === folder);
  const folderRows = folders.map((folder) => {
    const [b, h] = [at(base, folder), at(head, folder)];
    return `| ${folder} | ${b?.files ?? 0} | ${seconds(b?.seconds)} | ${h?.files ?? 0} | ${seconds(h?.seconds)} |`;
  });
  const longest = [...head.byFile].sort((a, b) => b[1] - a[1]).slice(0, LONGEST_FILES);
  return [
    `Where the \`npm test\` runs above spent their time (bench/test-time.ts, from vitest's JSON ` +
      `report of each run): each test file's seconds from its start to its end, the mean of a ` +
      `checkout's runs, summed by folder. A ` +
      `file's time counts its waits as well as its work, and several files run at once, so the ` +
      `sums exceed the wall time; they say where the time goes. ${BASE_COMMIT} ran ` +
      `${base.tests} tests in ${files(base)} files, ${fmt(total(base))} s of file time; this ` +
      `checkout ${head.tests} tests in ${files(head)} files, ${fmt(total(head))} s.`,
    [
      `| folder | ${BASE_COMMIT} files | ${BASE_COMMIT} s | this checkout files | this checkout s |`,
      '| --- | --- | --- | --- | --- |',
      ...folderRows,
    ].join('\n'),
    `This checkout's ${LONGEST_FILES} longest files, beside the same file at ${BASE_COMMIT} ` +
      '(— where it had none):',
    [
      `| file | ${BASE_COMMIT} s | this checkout s |`,
      '| --- | --- | --- |',
      ...longest.map(([file, t]) => `| ${file} | ${seconds(base.byFile.get(file))} | ${fmt(t)} |`),
    ].join('\n'),
  ];
}
