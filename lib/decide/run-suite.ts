// The run engine: configuration in, a SuiteRun out, in this process. It reads discovery once,
// starts every leg at once (each creates and follows its own run) and the host checks beside them,
// and returns every leg's outcome with what the host said. The CLI and the legs file both call it,
// so a run decides each leg the same way however it was started.

import type { DiscoveryResult } from '../observe/discovery.ts';
import type { SuiteConfig } from '../env.ts';
import type { HostChecks, LegOutcome } from '../types.ts';
import type { LegDefinition } from '../legs.ts';
import type { LegTarget } from './leg-target.ts';
import type { PackRequest } from './pack-request.ts';
import { GENERATED_REQUIREMENT, LEGS, REQUIREMENT_PREFIX } from '../legs.ts';
import { describeError } from '../observe/errors.ts';
import { blocked } from './decide.ts';
import { checkHost } from './host-checks.ts';
import { PROGRESS_INTERVAL_MS, ProgressBoard, reportProgress } from './progress.ts';
import { runLeg } from './run-leg.ts';
import { openTarget } from './target.ts';

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
  /** A generated pack to drive as one more requirement (`run --generate N --seed S`). */
  readonly pack?: PackRequest;
  /** Told a line per waiting leg every `progressIntervalMs` while any leg still waits. */
  readonly onProgress?: (line: string) => void;
  readonly progressIntervalMs?: number;
}

export async function runSuite(
  config: SuiteConfig,
  options: RunSuiteOptions = {},
): Promise<SuiteRun> {
  const startedAt = new Date().toISOString();
  const target = await openTarget(config);
  const board = new ProgressBoard(config.bounds.runTimeoutMs);
  const stopProgress =
    options.onProgress === undefined
      ? () => undefined
      : reportProgress(
          board,
          options.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
          options.onProgress,
        );
  // The unknown-run probe looks a run up in the tenant of a run the host minted this run: the
  // first leg's to be created, or none when every leg ends without one.
  let firstRun: (runId: string | undefined) => void = () => undefined;
  const firstRunId = new Promise<string | undefined>((resolve) => (firstRun = resolve));
  try {
    const legs = Promise.all(
      LEGS.map((leg) => {
        const watch = board.watch(shortName(leg), { created: (runId) => firstRun(runId) });
        const selected = options.selected?.(leg.id) ?? true;
        return settled(leg.id, runLeg(leg, target, { selected, watch })).finally(watch.done);
      }),
    );
    const pack =
      options.pack === undefined
        ? undefined
        : settled(GENERATED_REQUIREMENT, runPack(options.pack, target));
    const checks = target === undefined ? undefined : checkHostBeside(config, target, firstRunId);
    // Held until the legs end, so a failure while they run is not an unhandled rejection; the
    // await below still throws it.
    checks?.catch(() => undefined);
    const outcomes = [...(await legs), ...(pack === undefined ? [] : [await pack])];
    firstRun(undefined);
    const hostChecks = await checks;
    return {
      outcomes,
      discovery: target?.discovery,
      hostChecks,
      startedAt,
      finishedAt: new Date().toISOString(),
    };
  } finally {
    stopProgress();
    await target?.client.close();
  }
}

/** The host checks, sent once a run id is known (or known not to come), beside the legs. */
async function checkHostBeside(
  config: SuiteConfig,
  target: LegTarget,
  runId: Promise<string | undefined>,
): Promise<HostChecks> {
  return checkHost({
    client: target.client,
    discovery: target.discovery,
    keyConfigured: config.apiKey !== undefined,
    knownRunId: await runId,
    timeoutMs: config.bounds.requestTimeoutMs,
  });
}

/** The generated pack's row; the generator (and fast-check) load only when a pack is asked for. */
async function runPack(request: PackRequest, target: LegTarget | undefined): Promise<LegOutcome> {
  const { runGeneratedLeg } = await import('./generated-leg.ts');
  return runGeneratedLeg(request, target);
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
