// The run engine: configuration in, a SuiteRun out, in this process. It reads discovery once,
// starts every leg at once (each creates and follows its own run), sends the host checks beside
// them once the runs are created, and returns every leg's outcome with what the host said. The
// CLI and the legs file both call it, so a run decides each leg the same way however it was
// started.

import { setMaxListeners } from 'node:events';
import type { DiscoveryResult } from '../observe/discovery.ts';
import type { SuiteConfig } from '../env.ts';
import type { HostChecks, LegOutcome } from '../types.ts';
import type { LegDefinition } from '../legs.ts';
import type { LegTarget } from './leg-target.ts';
import type { PackRequest } from './pack-request.ts';
import type { PackWatch } from './generated-pack.ts';
import type { CaseSink } from './generated-leg.ts';
import { GENERATED_REQUIREMENT, LEGS, REQUIREMENT_PREFIX } from '../legs.ts';
import { describeError } from '../observe/errors.ts';
import { preloadValidators } from '../schemas.ts';
import { blocked } from './decide.ts';
import { checkHost } from './host-checks.ts';
import { PROGRESS_INTERVAL_MS, ProgressBoard, reportProgress } from './progress.ts';
import { runLeg } from './run-leg.ts';
import { openTarget } from './target.ts';
import { cutByBudget, startBudget, withinBudget, type RunBudget } from './run-budget.ts';

export interface SuiteRun {
  readonly outcomes: readonly LegOutcome[];
  /** What this run read from the host; undefined when there was no base URL to read. */
  readonly discovery: DiscoveryResult | undefined;
  /** Discovery judged and the refusals provoked, once; undefined when there was no host. */
  readonly hostChecks: HostChecks | undefined;
  readonly startedAt: string;
  readonly finishedAt: string;
}

export interface RunSuiteOptions {
  /** Whether --only/--skip select a requirement; absent: every one. Others are skipped. */
  readonly selected?: (requirement: string) => boolean;
  /** The host's discovery as the caller read it before the run; absent: the run reads it. */
  readonly discovery?: DiscoveryResult;
  /** A generated pack to drive as one more requirement (`run --generate N --seed S`). */
  readonly pack?: PackRequest;
  /** Told how the generated pack advances, case by case. */
  readonly packWatch?: PackWatch;
  /** Where each pack case's record goes as it finishes; absent: the records are held inline. */
  readonly packSink?: () => Promise<CaseSink>;
  /** Told a line per waiting leg every `progressIntervalMs` while any leg still waits. */
  readonly onProgress?: (line: string) => void;
  readonly progressIntervalMs?: number;
  /**
   * Called once every leg has created its run, beside the validators' load: work the caller
   * will need at the end (the report's renderers, say) is done while the host works.
   */
  readonly whileHostWorks?: () => void;
  /**
   * The run budget; absent: one of `config.budgetMs` started with the run. When it is spent, the
   * legs and cases not yet decided are blocked and the host client is closed.
   */
  readonly budget?: RunBudget;
}

export async function runSuite(
  config: SuiteConfig,
  options: RunSuiteOptions = {},
): Promise<SuiteRun> {
  const startedAt = new Date().toISOString();
  const timed =
    options.budget === undefined
      ? startBudget(config.budgetMs)
      : { budget: options.budget, stop: () => undefined };
  const { budget } = timed;
  // Every leg and case in flight listens on the one signal, far more than Node's default of 10;
  // each removes its listener when it ends.
  setMaxListeners(Infinity, budget.signal);
  const target = await openTarget(config, options.discovery);
  // Closing the client ends every request in flight, so the drives the budget cut short stop
  // asking the host; their endings are dropped (withinBudget).
  const closeClient = (): void => void target?.client.close();
  budget.signal.addEventListener('abort', closeClient, { once: true });
  const board = new ProgressBoard(config.bounds.runTimeoutMs);
  const stopProgress =
    options.onProgress === undefined
      ? () => undefined
      : reportProgress(
          board,
          options.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
          options.onProgress,
        );
  // Every leg that drives a run starts at once, and nothing else is sent or loaded until each
  // has created its run or ended without one. Then, while the host works: the host checks go out
  // (the unknown-run probe looks a run up in the tenant of the first run created, or none when no
  // leg created one), the validators the legs judge with load (about a megabyte of generated
  // code, a wait of its own on a busy machine, paid while the process would otherwise sit idle),
  // and the legs that only judge the shipped schemas are decided.
  const awaitingRun = new Set(LEGS.flatMap((leg) => (leg.fixtureId === undefined ? [] : [leg.id])));
  let firstRunId: string | undefined;
  let allCreated: () => void = () => undefined;
  const runsCreated = new Promise<void>((resolve) => (allCreated = resolve));
  const runSent = (requirement: string, runId?: string): void => {
    firstRunId ??= runId;
    if (awaitingRun.delete(requirement) && awaitingRun.size === 0) allCreated();
  };
  if (awaitingRun.size === 0) allCreated();
  const validatorsLoaded = runsCreated.then(loadValidators);
  if (options.whileHostWorks !== undefined) void validatorsLoaded.then(options.whileHostWorks);
  try {
    const legs = Promise.all(
      LEGS.map((leg) => {
        const selected = options.selected?.(leg.id) ?? true;
        const started = Date.now();
        const cut = (spent: RunBudget): LegOutcome => ({
          requirement: leg.id,
          ...cutByBudget(spent, 'leg'),
          durationMs: Date.now() - started,
        });
        if (leg.fixtureId === undefined) {
          const judged = validatorsLoaded.then(() => runLeg(leg, target, { selected }));
          return settled(leg.id, withinBudget(judged, budget, cut));
        }
        const watch = board.watch(shortName(leg), {
          created: (runId) => runSent(leg.id, runId),
        });
        const driven = runLeg(leg, target, { selected, watch }).finally(() => {
          watch.done();
          runSent(leg.id);
        });
        return settled(leg.id, withinBudget(driven, budget, cut));
      }),
    );
    const pack =
      options.pack === undefined
        ? undefined
        : settled(
            GENERATED_REQUIREMENT,
            runPack(options.pack, target, options.packSink, options.packWatch, budget),
          );
    const checks =
      target === undefined
        ? undefined
        : runsCreated.then(() => checkHostBeside(config, target, firstRunId));
    // Held until the legs end, so a failure while they run is not an unhandled rejection; the
    // await below still throws it.
    checks?.catch(() => undefined);
    const outcomes = [...(await legs), ...(pack === undefined ? [] : [await pack])];
    const hostChecks = await checks;
    return {
      outcomes,
      discovery: target?.discovery,
      hostChecks,
      startedAt,
      finishedAt: new Date().toISOString(),
    };
  } finally {
    timed.stop();
    budget.signal.removeEventListener('abort', closeClient);
    stopProgress();
    await target?.client.close();
  }
}

/**
 * Loads the validators on the next turn of the event loop, once the requests already written have
 * gone. A load that fails is left to the first check that needs them, which reports it.
 */
async function loadValidators(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  try {
    preloadValidators();
  } catch {
    // Reported by the check that needs them.
  }
}

/** The host checks, sent once every leg has created its run or ended, beside the legs. */
function checkHostBeside(
  config: SuiteConfig,
  target: LegTarget,
  knownRunId: string | undefined,
): Promise<HostChecks> {
  return checkHost({
    client: target.client,
    discovery: target.discovery,
    keyConfigured: config.apiKey !== undefined,
    knownRunId,
    timeoutMs: config.bounds.requestTimeoutMs,
  });
}

/** The generated pack's row; the generator (and fast-check) load only when a pack is asked for. */
async function runPack(
  request: PackRequest,
  target: LegTarget | undefined,
  sink: (() => Promise<CaseSink>) | undefined,
  watch: PackWatch | undefined,
  budget: RunBudget,
): Promise<LegOutcome> {
  const { runGeneratedLeg } = await import('./generated-leg.ts');
  return runGeneratedLeg(request, target, sink, Date.now, watch, budget);
}

/**
 * A leg that throws (a suite bug, not a host's answer) is blocked with what it threw: a fact
 * about the suite, never a verdict, and the other legs still report.
 */
async function settled(requirement: string, leg: Promise<LegOutcome>): Promise<LegOutcome> {
  try {
    return await leg;
  } catch (error) {
    return {
      requirement,
      ...blocked(`the leg ended in a suite error: ${describeError(error)}`),
      durationMs: 0,
    };
  }
}

function shortName(leg: LegDefinition): string {
  return leg.id.startsWith(REQUIREMENT_PREFIX) ? leg.id.slice(REQUIREMENT_PREFIX.length) : leg.id;
}
