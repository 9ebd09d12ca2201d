// What the host reports from a graded run: eval.* payloads, the EvalSummary and the run.completed
// payload, with the presence rules of RFC 0246 §D and the content-free rule of RFC 0081 §F. Pure
// functions. Vendor keys go only where the published payload has a hatch (eval.*, agent.*,
// run.completed); the summary is closed everywhere, so the varied variant varies it only with
// published optional members.

import type { HasDefect } from './defects.ts';
import type { HostSuite, HostTask, JsonValue } from './fixtures.ts';
import { totalCost, type SuiteVerdict, type TaskVerdict, type TrialVerdict } from './grading.ts';

export interface ReportStyle {
  readonly has: HasDefect;
  /**
   * Set by the varied variant: a vendor-hatch member the suite must ignore, and the signal to add
   * the published optional members a client must accept.
   */
  readonly trace?: string;
}

type Doc = Record<string, JsonValue>;

export function traced(doc: Doc, style: ReportStyle): Doc {
  return style.trace === undefined ? doc : { ...doc, 'x-ref-host-trace': style.trace };
}

/** Gated values are fractions in 0–1 (RFC 0246 §D); `gated-out-of-range` reports percentages. */
function gated(value: number, style: ReportStyle): number {
  return style.has('gated-out-of-range') ? value * 100 : value;
}

function carriesGatedScore(t: TaskVerdict, style: ReportStyle): boolean {
  if (style.has('unmigrated-0244')) return false;
  if (t.task.trajectory !== undefined) {
    return !(style.has('gated-score-omitted-when-equal') && t.gatedScore === t.score);
  }
  const missed = style.has('miss-gates-ungated-task') && t.trials.some((r) => r.failedClosed);
  return t.gatedScore !== t.score || missed || style.has('gated-fields-on-ungated-tasks');
}

/** A latency as reported: milliseconds, or whole seconds under `latency-reported-in-seconds`. */
function latency(ms: number, style: ReportStyle): number {
  return style.has('latency-reported-in-seconds') ? Math.round(ms / 1000) : ms;
}

/**
 * A trial's cost and latency: the stated ones when the script states them. Where it states no
 * cost the scripted agent costs nothing, which the varied variant says.
 * `limits-hidden-and-ignored` reports neither.
 */
function trialFigures(trial: TrialVerdict, style: ReportStyle): Doc {
  if (style.has('limits-hidden-and-ignored')) return {};
  const cost = trial.costUsd ?? (style.trace === undefined ? undefined : 0);
  return {
    ...(cost === undefined ? {} : { costUsd: cost }),
    ...(trial.latencyStated ? { latencyMs: latency(trial.latencyMs, style) } : {}),
  };
}

/** A task's cost is the sum of its trials' costs, its latency the slowest trial's. */
function taskFigures(t: TaskVerdict, style: ReportStyle): Doc {
  if (style.has('limits-hidden-and-ignored')) return {};
  const stated = t.trials.every((r) => r.costUsd !== undefined);
  const cost = stated ? totalCost(t.trials) : style.trace === undefined ? undefined : 0;
  const latencies = t.trials.filter((r) => r.latencyStated).map((r) => r.latencyMs);
  return {
    ...(cost === undefined ? {} : { costUsd: cost }),
    ...(latencies.length === t.trials.length && latencies.length > 0
      ? { latencyMs: latency(Math.max(...latencies), style) }
      : {}),
  };
}

function suiteCost(verdict: SuiteVerdict, style: ReportStyle): Doc {
  if (style.has('limits-hidden-and-ignored')) return {};
  const trials = verdict.tasks.flatMap((t) => t.trials);
  if (trials.length > 0 && trials.every((r) => r.costUsd !== undefined)) {
    return { totalCostUsd: totalCost(trials) };
  }
  return style.trace === undefined ? {} : { totalCostUsd: 0 };
}

export function startedPayload(suite: HostSuite, style: ReportStyle): Doc {
  return traced(
    {
      suiteId: suite.suiteId,
      suiteVersion: suite.version,
      taskCount: suite.tasks.length,
      modes: [...suite.modes],
      ...(suite.trials === undefined || style.has('started-without-trials')
        ? {}
        : { trials: { ...suite.trials } }),
    },
    style,
  );
}

export function scoredPayload(
  suite: HostSuite,
  task: HostTask,
  trial: TrialVerdict,
  style: ReportStyle,
): Doc {
  return traced(
    {
      taskId: task.taskId,
      score: trial.score,
      passed: trial.passed,
      ...(suite.trials === undefined ? {} : { trial: trial.trial }),
      ...(trial.matched === undefined ? {} : { trajectoryMatched: trial.matched }),
      ...(task.toolResponses === undefined ? {} : { failedClosed: trial.failedClosed }),
      ...(style.has('content-leak') ? { output: trial.output } : {}),
      ...trialFigures(trial, style),
    },
    style,
  );
}

/** The `scored-per-task` defect: one event standing for all of a task's trials. */
export function scoredTaskPayload(task: TaskVerdict, style: ReportStyle): Doc {
  return traced({ taskId: task.task.taskId, score: task.score, passed: task.passed }, style);
}

export function completedPayload(suite: HostSuite, verdict: SuiteVerdict, style: ReportStyle): Doc {
  return traced(
    {
      aggregateScore: verdict.aggregateScore,
      passed: verdict.completedPassed,
      taskCount: suite.tasks.length,
      passedCount: verdict.passedCount,
    },
    style,
  );
}

function taskEntry(suite: HostSuite, t: TaskVerdict, style: ReportStyle): Doc {
  const entry: Doc = { taskId: t.task.taskId, score: t.score, passed: t.passed };
  if (carriesGatedScore(t, style)) entry['gatedScore'] = gated(t.gatedScore, style);
  if (suite.trials !== undefined) {
    const scores = t.trials.map((r) => r.score);
    entry['trials'] = {
      count: suite.trials.count,
      passRule: suite.trials.passRule,
      meanScore: t.score,
      passAtK: t.trials.some((r) => r.passed) ? 1 : 0,
      passHatK: t.trials.every((r) => r.passed) ? 1 : 0,
      trialStats: {
        passed: t.trials.filter((r) => r.passed).length,
        trajectoryFailed: t.trials.filter((r) => r.matched === false).length,
        failedClosed: t.trials.filter((r) => r.failedClosed).length,
        minScore: scores.length === 0 ? 0 : Math.min(...scores),
        maxScore: scores.length === 0 ? 0 : Math.max(...scores),
      },
    };
  }
  Object.assign(entry, taskFigures(t, style));
  return entry;
}

export function evalSummary(suite: HostSuite, verdict: SuiteVerdict, style: ReportStyle): Doc {
  const tasks = verdict.tasks.map((t) => taskEntry(suite, t, style));
  const anyTrajectory = verdict.tasks.some((t) => t.task.trajectory !== undefined);
  const anyGatedTask = tasks.some((t) => t['gatedScore'] !== undefined);
  const carriesAggregate =
    !style.has('unmigrated-0244') &&
    !style.has('gated-aggregate-omitted') &&
    !(style.has('gated-aggregate-omitted-when-zero') && verdict.gatedAggregateScore === 0) &&
    (anyTrajectory || anyGatedTask || style.has('gated-fields-on-ungated-tasks'));
  return {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    aggregateScore: verdict.aggregateScore,
    ...(carriesAggregate ? { gatedAggregateScore: gated(verdict.gatedAggregateScore, style) } : {}),
    passed: verdict.passed,
    taskCount: suite.tasks.length,
    passedCount: verdict.passedCount,
    ...suiteCost(verdict, style),
    tasks: style.has('summary-tasks-sorted') ? sortedById(tasks) : tasks,
  };
}

/** The task entries by taskId, where the published summary lists them in suite order. */
function sortedById(tasks: readonly Doc[]): Doc[] {
  const id = (t: Doc): string => String(t['taskId']);
  return [...tasks].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/**
 * `run.completed` requires `outputs` (run-event-payloads `runCompleted`); an eval run's output is its summary. The
 * varied variant leaves `outputs` empty, which the open object allows.
 */
export function runCompletedPayload(summary: Doc | undefined, style: ReportStyle): Doc {
  if (style.trace !== undefined) return traced({ outputs: {} }, style);
  return { outputs: summary === undefined ? {} : { evalSummary: summary } };
}
