// Runs the legs file through vitest from code and returns each leg's outcome as the leg recorded
// it in `meta`. A leg that recorded nothing (its file failed to load, the worker died) becomes
// `blocked` with the error the runner saw: that is a fact about the suite, never a verdict.
//
// Before vitest starts, this process reads discovery and creates the run of every leg that will
// drive one (lib/decide/head-start.ts), then hands the answers to the legs. Loading vitest, starting its
// worker and importing the suite there take about a second; a slow host spends it running the
// legs' runs instead of waiting for them to be created.

import type { Reporter, TestModule } from 'vitest/node';
import type { DiscoveryResult } from '../lib/observe/discovery.ts';
import type { SuiteConfig } from '../lib/env.ts';
import type { HeadStart } from '../lib/decide/leg-target.ts';
import type { HostChecks, LegOutcome } from '../lib/types.ts';
import { startRuns } from '../lib/decide/head-start.ts';
import { knownRunId } from '../lib/decide/known-run.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../lib/legs.ts';
import type { PackRequest } from '../lib/decide/generated-pack.ts';
import type { Selection } from '../lib/report/run-options.ts';
import { isSelected, NOT_SELECTED } from '../lib/report/run-options.ts';
import { PACKAGE_ROOT } from '../lib/package-root.ts';
import { openTarget } from '../lib/decide/target.ts';
import { warmupPlugin } from './vitest-warmup.ts';

export const LEGS_FILE = 'tests/v2-eval-trajectory-trials.test.ts';
/** Suite modules the worker loads with Node's own import rather than through vite. */
const NATIVE = /\/lib\/generated\//;

export interface SuiteRun {
  readonly outcomes: readonly LegOutcome[];
  /** What this process read from the host; undefined when there was no base URL to read. */
  readonly discovery: DiscoveryResult | undefined;
  /** Discovery judged and the refusals provoked, once; undefined when there was no host. */
  readonly hostChecks: HostChecks | undefined;
  readonly startedAt: string;
  readonly finishedAt: string;
}

export interface RunSuiteOptions {
  /** vitest reporters for the console; `[]` runs silently (tests, benchmarks). */
  readonly reporters?: readonly string[];
  /** Only these requirements drive; the others are `skipped` as not selected. */
  readonly selection?: Selection;
  /** A generated pack to drive as one more requirement (`run --generate N --seed S`). */
  readonly pack?: PackRequest;
}

export async function runSuite(
  config: SuiteConfig,
  options: RunSuiteOptions = {},
): Promise<SuiteRun> {
  const startedAt = new Date().toISOString();
  const selected = LEGS.filter((l) => isSelected(options.selection, l.id));
  const target = await openTarget(config);
  let headStarts: readonly HeadStart[] = [];
  try {
    if (target !== undefined) headStarts = await startRuns(target, selected);
  } catch {
    // A head start only saves time: without one, each leg creates its own run in the worker.
    headStarts = [];
  } finally {
    // The runs live on the host; the worker observes them over its own connections.
    await target?.client.close();
  }
  // Imported only now: loading vitest holds this thread for about a second, and the runs should
  // already be on the host by then, not waiting for the thread to create them.
  const { startVitest } = await import('vitest/node');
  const collected: { modules: readonly TestModule[]; errors: readonly unknown[] } = {
    modules: [],
    errors: [],
  };
  const collector: Reporter = {
    onTestRunEnd(modules, unhandledErrors) {
      collected.modules = modules;
      collected.errors = unhandledErrors;
    },
  };
  const running = startVitest(
    'test',
    [],
    {
      root: PACKAGE_ROOT,
      config: false,
      watch: false,
      include: [LEGS_FILE],
      reporters: [...(options.reporters ?? ['default']), collector],
      provide: {
        evalGateConfig: config,
        evalGateHeadStarts: headStarts,
        evalGateDiscovery: target?.discovery,
        evalGateSelected: selected.map((l) => l.id),
        evalGatePack: options.pack,
      },
      // The precompiled validators are plain ES modules; vite would spend longer transforming
      // them than Node takes to load them.
      server: { deps: { external: [NATIVE] } },
      // The legs run concurrently inside one file, so one worker is all they need.
      maxWorkers: 1,
      pool: 'threads',
      // vitest runs at most 5 concurrent tests by default; every leg must start at once, or a
      // slow host's run time is paid twice.
      maxConcurrency: LEGS.length + 1,
      testTimeout: config.bounds.runTimeoutMs + 30_000,
      passWithNoTests: false,
    },
    { logLevel: 'error', plugins: [warmupPlugin(`/${LEGS_FILE}`, NATIVE)] },
  );
  // The probes ask nothing a leg's run depends on. When a head start already names a run (the
  // unknown run is looked up in its tenant) they go beside the legs, and this thread loads the
  // witness for them while the worker runs the legs; otherwise they wait for a leg's run id.
  const headRunId = knownRunId([], headStarts);
  const early =
    target === undefined || headRunId === undefined
      ? undefined
      : probeHost(config, target.discovery, headRunId);
  // Held until the legs end, so a failure while they run is not an unhandled rejection; the
  // await below still throws it.
  early?.catch(() => undefined);
  const vitest = await running;
  await vitest.close();
  const outcomes = collectOutcomes(collected.modules, collected.errors, options.pack !== undefined);
  const hostChecks =
    target === undefined
      ? undefined
      : early === undefined
        ? await probeHost(config, target.discovery, knownRunId(outcomes, headStarts))
        : await early;
  return {
    // The generated row was asked for by --generate itself, so --only and --skip leave it alone.
    outcomes: outcomes.map((outcome) =>
      outcome.requirement === GENERATED_REQUIREMENT ||
      isSelected(options.selection, outcome.requirement)
        ? outcome
        : notSelected(outcome.requirement),
    ),
    discovery: target?.discovery,
    hostChecks,
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}

/** The host checks, over a connection of their own: the head starts' target is closed by now. */
async function probeHost(
  config: SuiteConfig,
  discovery: DiscoveryResult,
  runId: string | undefined,
): Promise<HostChecks | undefined> {
  const [target, { checkHost }] = await Promise.all([
    openTarget(config, { discovery }),
    import('../lib/decide/host-checks.ts'),
  ]);
  if (target === undefined) return undefined;
  try {
    return await checkHost({
      client: target.client,
      discovery,
      keyConfigured: config.apiKey !== undefined,
      knownRunId: runId,
      timeoutMs: config.bounds.requestTimeoutMs,
    });
  } finally {
    await target.client.close();
  }
}

function collectOutcomes(
  modules: readonly TestModule[],
  unhandled: readonly unknown[],
  packAsked: boolean,
): LegOutcome[] {
  const recorded = new Map<string, LegOutcome>();
  const problems: string[] = [];
  for (const module of modules) {
    for (const error of module.errors()) problems.push(error.message);
    for (const test of module.children.allTests()) {
      // The legs file declares `evalGate` on TaskMeta; the compiled CLI is built without it.
      const outcome = (test.meta() as { evalGate?: LegOutcome }).evalGate;
      if (outcome !== undefined) recorded.set(outcome.requirement, outcome);
    }
  }
  for (const error of unhandled) problems.push(describeError(error));
  const why = problems.length > 0 ? problems.join('; ').slice(0, 500) : 'no outcome was recorded';
  const ids = [...LEGS.map((l) => l.id), ...(packAsked ? [GENERATED_REQUIREMENT] : [])];
  return ids.map(
    (id) =>
      recorded.get(id) ?? {
        requirement: id,
        disposition: 'blocked',
        assertions: 0,
        reason: `the leg did not report an outcome: ${why}`,
        findings: [],
        durationMs: 0,
      },
  );
}

/** An unselected leg never drives; its row says so rather than leaving a gap in the report. */
function notSelected(requirement: string): LegOutcome {
  return {
    requirement,
    disposition: 'skipped',
    assertions: 0,
    reason: NOT_SELECTED,
    findings: [],
    durationMs: 0,
  };
}

/**
 * A line about anything thrown. String() itself throws on an object with no primitive conversion
 * (a null prototype, a throwing toString), and this runs when something has already gone wrong.
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'an error that cannot be described';
  }
}
