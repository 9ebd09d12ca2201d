// The oracle: what a correct host reports for a fixture, computed from the fixture alone by the
// rules of contract §4 and RFC 0246 §A–§D. It is a third implementation, beside the witness and
// the reference host, and shares no code with either; it aims to be short enough to check by eye.
// Its comparator is a parameter so a test can build the report of a host that gates with `>`.

import type {
  EvalSummary,
  EvalTask,
  ExpectedTrajectory,
  Fixture,
  Json,
  RunObservation,
  SummaryTask,
  ToolCall,
} from '../../lib/types.ts';

/** Decides `value` against `threshold`; contract §4 compares computed means within 1e-9. */
export type Compare = (value: number, threshold: number) => boolean;

export const TOLERANCE = 1e-9;
/** The RFC's comparator: inclusive. */
export const atLeast: Compare = (value, threshold) => value >= threshold - TOLERANCE;
/** The defect under test: strict. */
export const above: Compare = (value, threshold) => value > threshold + TOLERANCE;

export const RUN_ID = 'tenant-p/run-1';

export interface GradedTrial {
  readonly score: number;
  /** Null when the task has no trajectory. */
  readonly matched: boolean | null;
  readonly failedClosed: boolean;
  readonly passed: boolean;
  readonly gating: number;
  /** What the script states the trial cost and took, when it says ([0244-assumed]). */
  readonly costUsd?: number;
  readonly latencyMs?: number;
}

export interface GradedTask {
  readonly taskId: string;
  readonly hasTrajectory: boolean;
  readonly trials: readonly GradedTrial[];
}

export interface Graded {
  readonly tasks: readonly GradedTask[];
  readonly summary: EvalSummary;
}

/**
 * The equality a reader of two summaries applies: contract §4 compares computed numbers within
 * 1e-9, so two summaries whose numbers differ by rounding alone say the same thing.
 */
export function sameReport(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= TOLERANCE;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  return (
    ka.length === Object.keys(rb).length &&
    ka.every((k) => Object.hasOwn(rb, k) && sameReport(ra[k], rb[k]))
  );
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return (
    ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]))
  );
}

const text = (value: Json): string => (typeof value === 'string' ? value : JSON.stringify(value));

function goldenMatch(task: EvalTask, output: Json): boolean {
  const match = task.expected.match;
  if (task.expected.kind !== 'golden' || match === undefined) {
    throw new Error(`task ${task.taskId} has no golden match to grade`);
  }
  switch (match.strategy) {
    case 'exact':
      return text(output) === text(match.value);
    case 'contains':
      return text(output).includes(text(match.value));
    case 'json-match':
      return deepEqual(output, match.value);
  }
}

const fits = (want: ToolCall, seen: ToolCall): boolean =>
  want.tool === seen.tool && (want.args === undefined || deepEqual(want.args, seen.args ?? {}));

/** The wanted calls appear in this order, anything between them. */
function inOrder(want: readonly ToolCall[], seen: readonly ToolCall[]): boolean {
  const [first, ...rest] = want;
  if (first === undefined) return true;
  return seen.some((call, i) => fits(first, call) && inOrder(rest, seen.slice(i + 1)));
}

/** Each wanted call is met by its own seen call, in any order (tries every assignment). */
function anyOrder(want: readonly ToolCall[], seen: readonly ToolCall[]): boolean {
  const [first, ...rest] = want;
  if (first === undefined) return true;
  return seen.some(
    (call, i) => fits(first, call) && anyOrder(rest, [...seen.slice(0, i), ...seen.slice(i + 1)]),
  );
}

function trajectoryMatched(trajectory: ExpectedTrajectory, seen: readonly ToolCall[]): boolean {
  if (seen.some((call) => trajectory.forbidden?.includes(call.tool) === true)) return false;
  const want = trajectory.calls;
  switch (trajectory.match) {
    case 'exact':
      return want.length === seen.length && want.every((w, i) => fits(w, seen[i] as ToolCall));
    case 'in-order':
      return inOrder(want, seen);
    case 'any-order':
      return anyOrder(want, seen);
  }
}

const mean = (values: readonly number[]): number =>
  values.reduce((a, b) => a + b, 0) / values.length;

function gradeTask(fixture: Fixture, task: EvalTask, compare: Compare): GradedTask {
  const suite = fixture.suite;
  const n = suite.trials?.count ?? 1;
  const entries = fixture.script[task.taskId] ?? [];
  const answers = task.fixtures?.toolResponses;
  const trials = Array.from({ length: n }, (_, i): GradedTrial => {
    const entry = entries.length === 1 ? entries[0] : entries[i];
    if (entry === undefined) throw new Error(`no script for ${task.taskId} trial ${i + 1}`);
    // Only a task that records tool answers can miss; any entry for the tool answers it.
    const failedClosed =
      answers !== undefined &&
      entry.calls.some((call) => !answers.some((answer) => answer.tool === call.tool));
    const score = !failedClosed && goldenMatch(task, entry.output) ? 1 : 0;
    const trajectory = task.expected.trajectory;
    const matched = trajectory === undefined ? null : trajectoryMatched(trajectory, entry.calls);
    return {
      score,
      matched,
      failedClosed,
      passed: compare(score, suite.thresholds.passScore) && matched !== false && !failedClosed,
      gating: matched === false || failedClosed ? 0 : score,
      ...(entry.costUsd === undefined ? {} : { costUsd: entry.costUsd }),
      ...(entry.latencyMs === undefined ? {} : { latencyMs: entry.latencyMs }),
    };
  });
  return { taskId: task.taskId, hasTrajectory: task.expected.trajectory !== undefined, trials };
}

function summarizeTask(fixture: Fixture, task: GradedTask, compare: Compare): SummaryTask {
  const block = fixture.suite.trials;
  const scores = task.trials.map((t) => t.score);
  const score = mean(scores);
  const gated = mean(task.trials.map((t) => t.gating));
  const passedTrials = task.trials.filter((t) => t.passed).length;
  const rule = block?.passRule;
  const passed =
    rule === undefined
      ? task.trials[0]?.passed === true
      : rule === 'all'
        ? passedTrials === task.trials.length
        : rule === 'any'
          ? passedTrials > 0
          : compare(gated, fixture.suite.thresholds.passScore);
  const carriesGated = task.hasTrajectory || Math.abs(gated - score) > TOLERANCE;
  const trials =
    block === undefined
      ? {}
      : {
          trials: {
            count: block.count,
            passRule: block.passRule,
            meanScore: score,
            passAtK: passedTrials > 0 ? 1 : 0,
            passHatK: passedTrials === task.trials.length ? 1 : 0,
            trialStats: {
              passed: passedTrials,
              trajectoryFailed: task.trials.filter((t) => t.matched === false).length,
              failedClosed: task.trials.filter((t) => t.failedClosed).length,
              minScore: Math.min(...scores),
              maxScore: Math.max(...scores),
            },
          },
        };
  return {
    taskId: task.taskId,
    score,
    passed,
    ...(carriesGated ? { gatedScore: gated } : {}),
    ...trials,
    ...taskFigures(task),
  };
}

/** A task costs what its trials cost together, and takes as long as its slowest trial. */
function taskFigures(task: GradedTask): { costUsd?: number; latencyMs?: number } {
  const costs = task.trials.flatMap((t) => (t.costUsd === undefined ? [] : [t.costUsd]));
  const latencies = task.trials.flatMap((t) => (t.latencyMs === undefined ? [] : [t.latencyMs]));
  const all = task.trials.length;
  return {
    ...(costs.length === all ? { costUsd: costs.reduce((a, b) => a + b, 0) } : {}),
    ...(latencies.length === all ? { latencyMs: Math.max(...latencies) } : {}),
  };
}

/**
 * The 95th percentile by linear interpolation between closest ranks: another method than the
 * witness's nearest rank, which the latency fixture makes agree by giving its two slowest
 * trials one latency.
 */
function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = 0.95 * (sorted.length - 1);
  const low = sorted[Math.floor(at)] ?? 0;
  const high = sorted[Math.ceil(at)] ?? low;
  return low + (high - low) * (at - Math.floor(at));
}

/** RFC 0246 §B: the cost and latency conditions beside the gate, on the stated figures. */
function limitsHold(fixture: Fixture, tasks: readonly GradedTask[]): boolean {
  const { maxCostUsd, maxP95LatencyMs } = fixture.suite.thresholds;
  const trials = tasks.flatMap((t) => t.trials);
  const cost = trials.reduce((sum, t) => sum + (t.costUsd ?? 0), 0);
  const latency = p95(trials.map((t) => t.latencyMs ?? 0));
  return (
    (maxCostUsd === undefined || cost <= maxCostUsd + TOLERANCE) &&
    (maxP95LatencyMs === undefined || latency <= maxP95LatencyMs)
  );
}

/** The run's total cost, when every trial states one. */
function totalCost(tasks: readonly GradedTask[]): { totalCostUsd?: number } {
  const trials = tasks.flatMap((t) => t.trials);
  if (trials.length === 0 || trials.some((t) => t.costUsd === undefined)) return {};
  return { totalCostUsd: trials.reduce((sum, t) => sum + (t.costUsd ?? 0), 0) };
}

/** Grades every trial and writes the summary a correct host (or one gating with `compare`) sends. */
export function grade(fixture: Fixture, compare: Compare = atLeast): Graded {
  const suite = fixture.suite;
  const tasks = suite.tasks.map((task) => gradeTask(fixture, task, compare));
  const entries = tasks.map((task) => summarizeTask(fixture, task, compare));
  const gatedAggregate = mean(tasks.map((t) => mean(t.trials.map((trial) => trial.gating))));
  const carriesGated = entries.some((e) => e.gatedScore !== undefined);
  const summary: EvalSummary = {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    aggregateScore: mean(entries.map((e) => e.score)),
    ...(carriesGated ? { gatedAggregateScore: gatedAggregate } : {}),
    passed: compare(gatedAggregate, suite.thresholds.passScore) && limitsHold(fixture, tasks),
    taskCount: entries.length,
    passedCount: entries.filter((e) => e.passed).length,
    ...totalCost(tasks),
    tasks: entries,
  };
  return { tasks, summary };
}

interface Envelope {
  readonly eventId: string;
  readonly runId: string;
  readonly type: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly payload: Json;
}

/**
 * The run as a correct host serves it: eval.started, one eval.scored per task per trial,
 * eval.completed agreeing with `summary`, run.completed; one terminal page.
 */
export function observe(
  fixture: Fixture,
  graded: Graded,
  summary: EvalSummary = graded.summary,
): RunObservation {
  const suite = fixture.suite;
  const events: Envelope[] = [];
  const emit = (type: string, payload: Json): void => {
    const sequence = events.length + 1;
    events.push({
      eventId: `evt-${sequence}`,
      runId: RUN_ID,
      type,
      sequence,
      timestamp: '2026-10-16T00:00:00.000Z',
      payload,
    });
  };
  emit('eval.started', {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    taskCount: suite.tasks.length,
    modes: [...suite.modes],
    ...(suite.trials === undefined ? {} : { trials: { ...suite.trials } }),
  });
  for (const task of graded.tasks) {
    task.trials.forEach((trial, i) => {
      const which = suite.trials === undefined ? {} : { trial: i + 1 };
      emit('eval.scored', {
        taskId: task.taskId,
        score: trial.score,
        passed: trial.passed,
        ...which,
        ...(trial.costUsd === undefined ? {} : { costUsd: trial.costUsd }),
        ...(trial.latencyMs === undefined ? {} : { latencyMs: trial.latencyMs }),
      });
    });
  }
  const { aggregateScore, passed, taskCount, passedCount } = summary;
  emit('eval.completed', { aggregateScore, passed, taskCount, passedCount });
  emit('run.completed', {});
  return {
    runId: RUN_ID,
    evalSuiteRef: `${suite.suiteId}@${suite.version}`,
    agentId: fixture.agentId,
    pages: [
      {
        afterSequence: null,
        lastSequence: events.length,
        isTerminal: true,
        eventCount: events.length,
      },
    ],
    events,
    runStatus: 'completed',
    summary,
  };
}

/** The observation of a run of `fixture` on a correct host (or one gating with `compare`). */
export function oracle(fixture: Fixture, compare: Compare = atLeast): RunObservation {
  return observe(fixture, grade(fixture, compare));
}
