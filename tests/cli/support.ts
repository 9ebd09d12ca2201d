// Shared by the CLI tests: an in-process CLI call that captures every printed line, a scratch
// directory per test, and the report a run wrote, read back or handed to verify.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runCli } from '../../cli/cli.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type {
  GeneratedCaseRecord,
  GeneratedSidecar,
  StreamedGeneratedRecord,
} from '../../lib/types.ts';

/** Recognisable, so a leak anywhere is found by a plain substring search. */
export const LEAKY_KEY = 'sk-test-DO-NOT-LEAK-4242';

export interface CliRun {
  readonly code: number;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

/** Runs the CLI in this process with exactly `env` (no .env file is read). */
export async function cli(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, {
    log: (line) => stdout.push(line),
    error: (line) => stderr.push(line),
    env,
    // verify's progress lines are spaced by a clock; one that stands still prints none, so what a
    // test sees never depends on how fast the machine is.
    progressClock: () => 0,
  });
  return { code, stdout, stderr };
}

/** A verify line without its `, as of DATE, AGE old` clause, for lines a test pins exactly. */
export function dateless(line: string): string {
  return line.replace(
    /, as of \S+, (?:\d+ (?:days|h|min)|under a minute) (?:old|in the future)/g,
    '',
  );
}

export async function scratchDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'eval-gate-cli-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Every file under `dir`, with its text. */
export async function filesIn(dir: string): Promise<ReadonlyMap<string, string>> {
  const out = new Map<string, string>();
  for (const name of await readdir(dir)) out.set(name, await readFile(join(dir, name), 'utf8'));
  return out;
}

/** The counts clause of a closing line: it follows the result and its cause. */
const COUNTS = /(?:^|; )(\d+) passed, (\d+) failed, (\d+) blocked, (\d+) skipped(?:;|$)/;

/** `N passed, N failed, N blocked, N skipped` parsed from the last stdout line. */
export function closing(run: CliRun): {
  passed: number;
  failed: number;
  blocked: number;
  skipped: number;
} {
  const last = run.stdout.at(-1) ?? '';
  const match = COUNTS.exec(last);
  if (match === null) throw new Error(`the last line is not a closing line: ${last}`);
  return {
    passed: Number(match[1]),
    failed: Number(match[2]),
    blocked: Number(match[3]),
    skipped: Number(match[4]),
  };
}

/**
 * A closing line without its verdict clauses, the result with its cause before the counts and the
 * embedded host and the certification after, which tests/channels/verdict-table.test.ts holds:
 * the counts and the run's limits are left.
 */
export function withoutVerdict(line: string | undefined): string {
  const text = line ?? '';
  const counts = COUNTS.exec(text);
  const rest = counts === null ? text : text.slice(counts.index).replace(/^; /, '');
  return rest
    .split('; ')
    .filter((part) => !/^(embedded reference host$|certified|not certified)/.test(part))
    .join('; ');
}

let cacheDir: string | undefined;
/** The caller's npm cache, asked of npm once per process: each `npm config` costs a third of a second. */
function npmCache(): string {
  cacheDir ??= spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  return cacheDir;
}

/**
 * The environment of a child process that must not see the caller's: no OPENWOP_* setting, no
 * npm lifecycle state (a `npm test` parent exports its project's prefix). It holds only a PATH
 * that finds this node and the npm beside it, HOME, and the npm cache the caller's npm uses.
 */
export function isolatedEnv(): Record<string, string> {
  const cache = npmCache();
  return {
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
    HOME: homedir(),
    ...(cache === '' ? {} : { npm_config_cache: cache }),
  };
}

/** The JSON report a run wrote into `reportDir`. */
export async function readReport(reportDir: string): Promise<EvalGateReport> {
  return JSON.parse(
    await readFile(join(reportDir, 'eval-gate-report.json'), 'utf8'),
  ) as EvalGateReport;
}

/** Writes `report` as a fresh file in `dir` and verifies it; every line it printed, stdout first. */
export async function verifyWritten(
  dir: string,
  report: unknown,
  extra: readonly string[] = [],
): Promise<{ code: number; lines: readonly string[] }> {
  const path = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify(report));
  const run = await cli(['verify', path, ...extra]);
  return { code: run.code, lines: [...run.stdout, ...run.stderr] };
}

/**
 * `verify` of the report at `path`, its stdout without the date clause and with the path read as
 * REPORT: what a copy of a report published elsewhere must say alike to the report it copies.
 */
export async function verifiedAt(path: string, extra: readonly string[] = []): Promise<CliRun> {
  const run = await cli(['verify', path, ...extra]);
  return { ...run, stdout: run.stdout.map((line) => dateless(line).replace(path, 'REPORT')) };
}

/** The report's generated row. */
export function generatedRow(report: EvalGateReport): ReportRow {
  const row = report.requirements.find((r) => r.id === GENERATED_REQUIREMENT);
  if (row === undefined) throw new Error('the report has no generated row');
  return row;
}

/** The row's pack record, which a run streams to a sidecar. */
export function streamedPack(row: ReportRow): StreamedGeneratedRecord {
  const pack = row.generated;
  if (pack === undefined || 'cases' in pack) throw new Error('the row records no sidecar');
  return pack;
}

/** The lines of a pack's sidecar in `dir`, as the run wrote them. */
export async function readSidecarLines(dir: string, file: string): Promise<string[]> {
  const text = gunzipSync(await readFile(join(dir, file))).toString('utf8');
  return text.split('\n').filter((line) => line !== '');
}

/** The case records a run streamed to a pack's sidecar, a parsed line each. */
export async function readSidecar(dir: string, file: string): Promise<GeneratedCaseRecord[]> {
  return (await readSidecarLines(dir, file)).map((line) => JSON.parse(line) as GeneratedCaseRecord);
}

/** The cases a row drove, from its sidecar in `dir` (or inline, as older reports hold them). */
export async function casesOf(row: ReportRow, dir: string): Promise<GeneratedCaseRecord[]> {
  const pack = row.generated;
  if (pack === undefined) return [];
  return 'cases' in pack ? [...pack.cases] : readSidecar(dir, pack.sidecar.file);
}

/**
 * Writes `lines` as a sidecar (gzip, a line each) and returns what a report records of it, so a
 * test can edit the lines and leave the report's digest matching them.
 */
export async function writeSidecar(
  dir: string,
  file: string,
  lines: readonly string[],
): Promise<GeneratedSidecar> {
  const bytes = gzipSync(lines.map((line) => `${line}\n`).join(''));
  await writeFile(join(dir, file), bytes);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
