// The default job: pick the target (the configured host, or the embedded reference host), run
// every leg, build the report, check it against its schema, write it with its JUnit and Markdown
// renderings, and return the exit status of contract §10. The closing line is always printed last.

import type { KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PackRequest } from '../lib/decide/generated-pack.ts';
import type { SuiteRun } from '../lib/decide/run-suite.ts';
import { runSuite } from '../lib/decide/run-suite.ts';
import type { SuiteConfig } from '../lib/env.ts';
import { scrubText } from '../lib/secrets.ts';
import { MARKDOWN_FILE } from '../lib/report/render/markdown.ts';
import type { EvalGateReport, ReportRow } from '../lib/report/report.ts';
import { preparePublishing, publishRun } from '../lib/report/publish.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { errorAnnotations } from '../lib/report/render/annotations.ts';
import type { RunVerdict } from '../lib/report/verdict/run-verdict.ts';
import { closingLineOf } from '../lib/report/verdict/run-verdict.ts';
import type { RunOptions } from '../lib/report/run-record.ts';
import { isSelected, NOT_SELECTED } from '../lib/report/run-options.ts';
import { shortId } from '../lib/report/verdict/lead.ts';
import { unexercisedLine, unexercisedTally } from '../lib/report/verdict/unexercised.ts';
import { hostCheckSummary, warningSummary } from '../lib/report/verdict/warnings.ts';
import { writePackFiles } from './fixture-set.ts';
import { reproducibleReason } from '../lib/report/render/reproduce-case.ts';
import { removeEarlierSidecars, sidecarSinks } from '../lib/report/generated-sidecar.ts';
import { announceStartFailure } from './start-failure.ts';
import { checkHost, checkReportDir, checkStepFiles } from './preflight.ts';
import { costLineOf, PackProgress, showPackProgress } from '../lib/decide/pack-progress.ts';
import { PROGRESS_INTERVAL_MS } from '../lib/decide/progress.ts';
import { budgetSpent, startBudget } from '../lib/decide/run-budget.ts';

export interface ConformanceResult {
  /** Absent when the suite failed to produce a valid report (exit 2, nothing written). */
  readonly report?: EvalGateReport;
  /** Present with the report: what every channel rendered. */
  readonly verdict?: RunVerdict;
  readonly exitCode: number;
  readonly files: readonly string[];
}

export interface ConformanceOptions {
  /** Every line the run prints; the API key is scrubbed from each before it gets here. */
  readonly log: (line: string) => void;
  readonly signingKey?: KeyObject;
  /** Recorded in the signature: the key's id among the host's discovery signingKeys. */
  readonly keyId?: string;
  /** Where a CI system wants the Markdown appended (GITHUB_STEP_SUMMARY). */
  readonly stepSummaryPath?: string;
  /** Where a CI system reads the step's outputs (GITHUB_OUTPUT): the verdict's result and certification. */
  readonly stepOutputPath?: string;
  /** GitHub Actions (GITHUB_ACTIONS=true): print an `::error` line per failing requirement. */
  readonly annotate?: boolean;
  /** `--wait-for-host`: how long discovery may take to answer before the run gives up. */
  readonly waitForHostS?: number;
  /** The selection, baseline and severity gate a CI job chose; recorded in the report. */
  readonly runOptions?: RunOptions;
  /** A generated pack to drive as one more requirement; the embedded host is seeded with it. */
  readonly pack?: PackRequest;
  /** `--silent`: print the closing line alone (and the ::error lines, when annotating). */
  readonly silent?: boolean;
  /** Rewrites one live line in place; given only when the output is a terminal. */
  readonly live?: (line: string) => void;
}

export async function runConformance(
  config: SuiteConfig,
  options: ConformanceOptions,
): Promise<ConformanceResult> {
  const print = options.silent === true ? () => undefined : options.log;
  const discovery = await preflight(config, options, print);
  // The run goes ahead: what an earlier run's packs left in the folder is not this run's.
  await removeEarlierSidecars(config.reportDir);
  const target = await startTarget(config, options.pack);
  const { apiKey } = target.config;
  const log = (line: string): void => print(scrubText(line, apiKey));
  const closing = (line: string): void => options.log(scrubText(line, apiKey));
  const { progress, stopProgress } = packProgress(options, log);
  // One budget for the whole run, every --repeat included.
  const timed = startBudget(config.budgetMs);
  const sayBudgetSpent = (): void =>
    log(`${budgetSpent(timed.budget)}: every leg and case not yet decided is blocked`);
  timed.budget.signal.addEventListener('abort', sayBudgetSpent, { once: true });
  try {
    const baseUrl = target.config.baseUrl ?? '';
    log(targetLine(target.embedded, baseUrl));
    const selection = options.runOptions?.selection;
    const { run, later } = await driveRuns(target.config, options.runOptions?.repeat ?? 1, log, {
      ...(selection === undefined ? {} : { selected: (id: string) => isSelected(selection, id) }),
      ...(options.pack === undefined
        ? {}
        : { pack: options.pack, packSink: sidecarSinks(config.reportDir, apiKey) }),
      ...(discovery === undefined ? {} : { discovery }),
      onProgress: log,
      ...(progress === undefined ? {} : { packWatch: progress.watch }),
      whileHostWorks: preparePublishing,
      budget: timed.budget,
    });
    stopProgress();
    const finishedAt = later.at(-1)?.finishedAt ?? run.finishedAt;
    const published = await publishRun({ ...run, finishedAt }, config, {
      ...(later.length === 0 ? {} : { repetitions: later.map((r) => r.outcomes) }),
      baseUrl,
      embedded: target.embedded,
      apiKey,
      ...publishingChoices(options),
    });
    if (!published.ok) return await unpublished(published.problem, apiKey, options, closing);
    const { report, verdict, files } = published;
    printRows(report, log);
    if (progress !== undefined && progress.standing().total > 0) {
      log(packCostLine(progress, options.pack, target.embedded));
    }
    printClosing(published, options.annotate === true, log, closing);
    return { report, verdict, exitCode: verdict.exitCode, files };
  } finally {
    timed.stop();
    timed.budget.signal.removeEventListener('abort', sayBudgetSpent);
    stopProgress();
    await target.close();
  }
}

/** The run's first line: what it is evidence about. */
function targetLine(embedded: boolean, baseUrl: string): string {
  return embedded
    ? `target: the embedded reference host at ${baseUrl} (no OPENWOP_BASE_URL given; this is not evidence about any other host)`
    : `target: ${baseUrl}`;
}

/** A pack's progress, shown every interval on a live line unless the run is silent. */
function packProgress(
  options: ConformanceOptions,
  log: (line: string) => void,
): { readonly progress: PackProgress | undefined; readonly stopProgress: () => void } {
  const progress = options.pack === undefined ? undefined : new PackProgress();
  const stopProgress =
    progress === undefined || options.silent === true
      ? () => undefined
      : showPackProgress(progress, {
          ...(options.live === undefined ? {} : { live: options.live }),
          log,
          intervalMs: PROGRESS_INTERVAL_MS,
        });
  return { progress, stopProgress };
}

/** A report that failed its own checks is a suite bug: one line, exit 2, nothing written. */
async function unpublished(
  problem: string,
  apiKey: string | undefined,
  options: ConformanceOptions,
  closing: (line: string) => void,
): Promise<ConformanceResult> {
  const cause = `${problem}; this is a suite bug and nothing was written`;
  closing(`openwop-eval-gate: ${cause}`);
  await announceStartFailure(scrubText(cause, apiKey), {
    log: closing,
    annotate: options.annotate === true,
    command: 'run',
    stepSummaryPath: options.stepSummaryPath,
    stepOutputPath: options.stepOutputPath,
  });
  return { exitCode: EXIT.badConfiguration, files: [] };
}

/**
 * Configuration errors end the run here, in one line with exit 2, before any leg or host starts;
 * a remote host's discovery, read to check it, is handed on so the run reads it once.
 */
async function preflight(
  config: SuiteConfig,
  options: ConformanceOptions,
  print: (line: string) => void,
): Promise<Awaited<ReturnType<typeof checkHost>>> {
  await checkReportDir(config.reportDir);
  await checkStepFiles({
    GITHUB_STEP_SUMMARY: options.stepSummaryPath,
    GITHUB_OUTPUT: options.stepOutputPath,
  });
  return checkHost(config, {
    log: (line) => print(scrubText(line, config.apiKey)),
    ...(options.waitForHostS === undefined ? {} : { waitForHostS: options.waitForHostS }),
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
  });
}

/** The host a run drives: the configured one, or the embedded host started for this run. */
interface RunTarget {
  /** The configuration the legs see: the embedded host's address and key when it is the target. */
  readonly config: SuiteConfig;
  readonly embedded: boolean;
  /** Stops the embedded host and removes the pack files it was seeded with. */
  readonly close: () => Promise<void>;
}

async function startTarget(config: SuiteConfig, pack: PackRequest | undefined): Promise<RunTarget> {
  if (config.baseUrl !== undefined) {
    return { config, embedded: false, close: () => Promise.resolve() };
  }
  // The embedded host seeds the pack the way any host would: from the files `fixtures --out` writes.
  const packDir =
    pack === undefined ? undefined : await mkdtemp(join(tmpdir(), 'openwop-eval-gate-pack-'));
  const removePack = async (): Promise<void> => {
    if (packDir !== undefined) await rm(packDir, { recursive: true, force: true });
  };
  if (packDir !== undefined && pack !== undefined) {
    // Only the case a --case run drives: the embedded host needs no other.
    const { selectedFixtures } = await import('../lib/generate/pack.ts');
    await writePackFiles(packDir, selectedFixtures(pack)).catch(async (error: unknown) => {
      await removePack();
      throw error;
    });
  }
  // Loaded only here: a run against a host of its own never needs the reference host's code.
  const host = await import('./embedded-host.ts')
    .then(({ startEmbeddedHost }) => startEmbeddedHost(config.apiKey, packDir))
    .catch(async (error: unknown) => {
      await removePack();
      throw error;
    });
  return {
    config: { ...config, baseUrl: host.url, apiKey: host.apiKey },
    embedded: true,
    close: async () => {
      await host.close();
      await removePack();
    },
  };
}

/**
 * The suite run, and under --repeat every requirement driven again, one whole suite run after
 * another, so a repetition sees the host as the first did; the report keeps the first run's
 * discovery and host checks, and each later run's outcomes on the rows.
 */
async function driveRuns(
  config: SuiteConfig,
  repeat: number,
  log: (line: string) => void,
  suiteOptions: Parameters<typeof runSuite>[1],
): Promise<{ readonly run: SuiteRun; readonly later: readonly SuiteRun[] }> {
  const run = await runSuite(config, suiteOptions);
  const later: SuiteRun[] = [];
  for (let i = 2; i <= repeat; i += 1) {
    log(`repeat ${i} of ${repeat}`);
    later.push(await runSuite(config, suiteOptions));
  }
  return { run, later };
}

/** What the job chose that the published run records or writes to: signing, options, CI files. */
function publishingChoices(options: ConformanceOptions) {
  return {
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.runOptions === undefined ? {} : { runOptions: options.runOptions }),
    ...(options.stepSummaryPath === undefined ? {} : { stepSummaryPath: options.stepSummaryPath }),
    ...(options.stepOutputPath === undefined ? {} : { stepOutputPath: options.stepOutputPath }),
  };
}

/**
 * A line a requirement, then the host checks' summary. Rows a selection left out say nothing
 * about the host: one line names them all.
 */
function printRows(report: EvalGateReport, log: (line: string) => void): void {
  const unselected = report.requirements.filter(isUnselected);
  for (const row of report.requirements.filter((r) => !isUnselected(r))) {
    const reason = reproducibleReason(report, row);
    const warned = warningSummary(row);
    const flaky = report.repeat?.rows.find(
      (r) => r.requirement === row.id && r.stability === 'flaky',
    );
    log(
      `${row.disposition.padEnd(13)} ${row.id}${reason === undefined ? '' : `: ${reason}`}` +
        (warned === undefined ? '' : ` (${warned}; see ${MARKDOWN_FILE})`) +
        (flaky === undefined ? '' : ` [flaky: ${flaky.outcomes.join(', ')}]`),
    );
  }
  if (unselected.length > 0) log(unselectedLine(unselected));
  if (report.hostChecks !== undefined) {
    log(`${hostCheckSummary(report.hostChecks)} (see ${MARKDOWN_FILE})`);
  }
}

function isUnselected(row: ReportRow): boolean {
  return row.disposition === 'skipped' && row.reason === NOT_SELECTED;
}

/** `18 requirements not selected: mean-gated, suite-gated, …`, ids without their shared prefix. */
export function unselectedLine(rows: readonly ReportRow[]): string {
  const n = rows.length;
  return `${n} requirement${n === 1 ? '' : 's'} not selected: ${rows.map((r) => shortId(r.id)).join(', ')}`;
}

/** The files written, the verdict's problems and annotations, and the closing line, last. */
function printClosing(
  {
    report,
    verdict,
    files,
  }: {
    readonly report: EvalGateReport;
    readonly verdict: RunVerdict;
    readonly files: readonly string[];
  },
  annotate: boolean,
  log: (line: string) => void,
  closing: (line: string) => void,
): void {
  for (const file of files) log(`wrote ${file}`);
  for (const problem of verdict.problems) log(problem);
  // Workflow commands, not text for a reader: GitHub reads them even from a silent run.
  if (annotate) {
    for (const line of errorAnnotations(report, verdict)) closing(line);
  }
  // The closing line stays the last: CI reads it. It leads with the result and its one cause,
  // so the summary's first line is not printed again above it.
  const quiet = unexercisedTally(report).rules;
  log(unexercisedLine(report) + (quiet === 0 ? '' : ` (why: ${MARKDOWN_FILE})`));
  closing(closingLineOf(verdict));
}

/** The pack's cost for the closing part; a case driven alone says which case of which pack. */
function packCostLine(
  progress: PackProgress,
  pack: PackRequest | undefined,
  embedded: boolean,
): string {
  const cost = costLineOf(progress.standing(), embedded);
  if (pack?.case === undefined) return cost;
  return `${cost}; ${pack.case} of the pack of ${pack.count} at seed ${pack.seed}, driven alone`;
}
