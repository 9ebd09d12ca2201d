// The witness's own grading of a run, from the fixture file alone (contract §3, §4). A fixture's
// script fixes every call and output, so every score, verdict and gating score follows from it;
// the rules compare the host's report with this, never with the host's own arithmetic.

import type {
  AgentEvalSuite,
  EvalTask,
  Fixture,
  GoldenExpectation,
  Json,
  PassRule,
  ScriptedTrial,
  Thresholds,
  ToolCall,
} from '../types.ts';
import { goldenMatches, gradableMatch, matchTrajectory, missedTool } from './match.ts';

/** Tolerance for equality of computed means, and slack on inclusive thresholds (contract §4). */
export const EPSILON = 1e-9;

/** Whether a field must be carried, must be omitted, or may be either (RFC 0246 §D). */
export type Presence = 'required' | 'forbidden' | 'optional';

/** One trial's grade; `ExpectedTask.trials[i]` is trial i + 1. */
export interface ExpectedTrial {
  readonly calls: readonly ToolCall[];
  /** The output the fixture's script gives this trial, which the golden comparison reads. */
  readonly output: Json;
  readonly outputMatched: boolean;
  /** The output score: 1 on a golden match, 0 otherwise or when the trial failed closed. */
  readonly score: number;
  /** Null when the task has no trajectory. */
  readonly trajectoryMatched: boolean | null;
  readonly forbiddenHit: string | null;
  /** The first called tool without a canned response, when the task has fixtures. */
  readonly missedTool: string | null;
  readonly failedClosed: boolean;
  readonly passed: boolean;
  /** RFC 0246 §A: 0 when the trajectory failed or the trial failed closed, else the score. */
  readonly gatingScore: number;
  /** The cost and latency the script states for the trial, or null where it states none. */
  readonly costUsd: number | null;
  readonly latencyMs: number | null;
}

/** One declared limit, decided on the script's stated figures (RFC 0246 §B, contract §3). */
export interface ExpectedLimit {
  readonly threshold: 'maxCostUsd' | 'maxP95LatencyMs';
  readonly limit: number;
  /** The suite's total stated cost, or the nearest-rank p95 of the stated trial latencies. */
  readonly figure: number;
  readonly figureName: 'cost' | 'p95 latency';
  readonly kept: boolean;
}

export interface ExpectedTrialStats {
  readonly passed: number;
  readonly trajectoryFailed: number;
  readonly failedClosed: number;
  readonly minScore: number;
  readonly maxScore: number;
}

export interface ExpectedTask {
  readonly taskId: string;
  readonly hasTrajectory: boolean;
  /** The golden value and strategy each trial's output is compared with. */
  readonly golden: GoldenExpectation;
  readonly trials: readonly ExpectedTrial[];
  /** Mean of the trial scores: the task score and `trials.meanScore` (RFC 0246 §C). */
  readonly score: number;
  /** Mean of the trial gating scores (RFC 0246 §A). */
  readonly gatedScore: number;
  readonly gatedScorePresence: Presence;
  readonly passed: boolean;
  readonly passAtK: number;
  readonly passHatK: number;
  readonly trialStats: ExpectedTrialStats;
}

export interface ExpectedRun {
  readonly fixtureId: string;
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly modes: readonly string[];
  readonly thresholds: Thresholds;
  /** The suite's trials block, or null when it has none (then every task runs once). */
  readonly trialsBlock: { readonly count: number; readonly passRule: PassRule } | null;
  /** Trials per task: the block's count, or 1. */
  readonly trialCount: number;
  readonly tasks: readonly ExpectedTask[];
  readonly taskCount: number;
  /** `taskCount × trialCount`: the number of eval.scored events (contract §7). */
  readonly scoredCount: number;
  readonly aggregateScore: number;
  readonly gatedAggregateScore: number;
  readonly gatedAggregatePresence: Presence;
  /** The score condition of suite `passed`: gatedAggregateScore ≥ passScore (RFC 0246 §B). */
  readonly gatePassed: boolean;
  /** The declared cost and latency limits, each decided on the stated figures. */
  readonly limits: readonly ExpectedLimit[];
  /** Suite `passed`: the score condition and every declared limit (RFC 0246 §B). */
  readonly passed: boolean;
  readonly passedCount: number;
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

/** Inclusive `≥`, tolerant of a floating point mean landing a hair under the threshold. */
export function atLeast(value: number, threshold: number): boolean {
  // Stryker disable next-line EqualityOperator: `>` differs only at exactly threshold − 1e-9, which no mean of 0s and 1s lands on
  return value >= threshold - EPSILON;
}

/** Grades the whole run the fixture scripts. Throws only on a fixture that cannot be graded. */
export function expectRun(fixture: Fixture): ExpectedRun {
  const suite = fixture.suite;
  const trialsBlock = suite.trials === undefined ? null : { ...suite.trials };
  const trialCount = trialsBlock === null ? 1 : trialsBlock.count;
  const passScore = statedPassScore(fixture);
  const tasks = suite.tasks.map((task) =>
    expectTask(
      fixture.id,
      task,
      scriptFor(fixture, task.taskId, trialCount),
      passScore,
      trialsBlock,
    ),
  );
  const gatedAggregateScore = mean(tasks.map((t) => t.gatedScore));
  const gatePassed = atLeast(gatedAggregateScore, passScore);
  const limits = expectLimits(fixture.id, suite.thresholds, tasks);
  const anyTrajectory = tasks.some((t) => t.hasTrajectory);
  const anyMiss = tasks.some((t) => t.trialStats.failedClosed > 0);
  return {
    fixtureId: fixture.id,
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    modes: [...suite.modes],
    thresholds: { ...suite.thresholds, passScore },
    trialsBlock,
    trialCount,
    tasks,
    taskCount: tasks.length,
    scoredCount: tasks.length * trialCount,
    aggregateScore: mean(tasks.map((t) => t.score)),
    gatedAggregateScore,
    // A miss without a trajectory may surface the gated aggregate; nothing forbids it (RFC 0246 §D).
    gatedAggregatePresence: anyTrajectory ? 'required' : anyMiss ? 'optional' : 'forbidden',
    gatePassed,
    limits,
    passed: gatePassed && limits.every((l) => l.kept),
    passedCount: tasks.filter((t) => t.passed).length,
  };
}

/**
 * The fixture's passScore. The published suite structure makes it optional, the loader refuses a
 * fixture without it, and the witness checks again because nothing else decides a pass.
 */
function statedPassScore(fixture: Fixture): number {
  const stated: AgentEvalSuite = fixture.suite;
  const passScore = stated.thresholds?.passScore;
  if (typeof passScore !== 'number') {
    throw new Error(
      `suite fault: fixture "${fixture.id}" states no thresholds.passScore, so no pass decision follows from it`,
    );
  }
  return passScore;
}

/** One scripted entry per trial, or one entry for every trial (contract §3). */
function scriptFor(fixture: Fixture, taskId: string, trialCount: number): ScriptedTrial[] {
  const entries = Object.hasOwn(fixture.script, taskId) ? fixture.script[taskId] : undefined;
  const only = entries?.[0];
  if (entries !== undefined && entries.length === 1 && only !== undefined) {
    return Array.from({ length: trialCount }, () => only);
  }
  if (entries !== undefined && entries.length === trialCount) return [...entries];
  throw new Error(
    `fixture "${fixture.id}": task "${taskId}" needs ${trialCount === 1 ? '1 scripted trial' : `1 or ${trialCount} scripted trials`}, ` +
      `has ${entries === undefined ? 'none' : entries.length}`,
  );
}

function expectTask(
  fixtureId: string,
  task: EvalTask,
  script: readonly ScriptedTrial[],
  passScore: number,
  trialsBlock: ExpectedRun['trialsBlock'],
): ExpectedTask {
  const match = gradableMatch(task, fixtureId);
  // A script often repeats one entry for every trial; grade each distinct entry once.
  const graded = new Map<ScriptedTrial, ExpectedTrial>();
  const trials = script.map((entry) => {
    let grade = graded.get(entry);
    // Stryker disable next-line ConditionalExpression: grading an entry again gives the same grade
    if (grade === undefined) {
      grade = expectTrial(task, match, entry, passScore);
      graded.set(entry, grade);
    }
    return grade;
  });
  const scores = trials.map((t) => t.score);
  const gatedScore = mean(trials.map((t) => t.gatingScore));
  const score = mean(scores);
  const passedTrials = trials.filter((t) => t.passed).length;
  const passed = taskPassed(trialsBlock?.passRule ?? null, trials, gatedScore, passScore);
  const hasTrajectory = task.expected.trajectory !== undefined;
  return {
    taskId: task.taskId,
    hasTrajectory,
    golden: match,
    trials,
    score,
    gatedScore,
    // RFC 0246 §D: always on a trajectory task; on another only where it differs from the score,
    // which grading without a trajectory never makes it (a miss zeroes both).
    gatedScorePresence: hasTrajectory
      ? 'required'
      : // Stryker disable next-line EqualityOperator: without a trajectory the gating score equals the score in every trial (a miss zeroes both), so the difference is exactly 0
        Math.abs(gatedScore - score) > EPSILON
        ? // Stryker disable next-line StringLiteral: unreachable, as above
          'optional'
        : 'forbidden',
    passed,
    passAtK: passedTrials > 0 ? 1 : 0,
    passHatK: passedTrials === trials.length ? 1 : 0,
    trialStats: {
      passed: passedTrials,
      trajectoryFailed: trials.filter((t) => t.trajectoryMatched === false).length,
      failedClosed: trials.filter((t) => t.failedClosed).length,
      minScore: Math.min(...scores),
      maxScore: Math.max(...scores),
    },
  };
}

/** Contract §4 per-task `passed`; rule `mean` reads the gated score (RFC 0246 §B). */
function taskPassed(
  rule: PassRule | null,
  trials: readonly ExpectedTrial[],
  gatedScore: number,
  passScore: number,
): boolean {
  switch (rule) {
    // Stryker disable next-line ConditionalExpression,OptionalChaining: without a trials block there is exactly one trial, so falling through to `all` decides the same
    case null:
      return trials[0]?.passed === true;
    case 'all':
      return trials.every((t) => t.passed);
    case 'any':
      return trials.some((t) => t.passed);
    case 'mean':
      return atLeast(gatedScore, passScore);
  }
}

/**
 * One trial. The trajectory is judged over every scripted call, even on a trial that failed
 * closed: where a host stops on a miss is not fixed by the contract, and the gating score and
 * verdict of such a trial are 0 and false either way.
 */
function expectTrial(
  task: EvalTask,
  match: GoldenExpectation,
  entry: ScriptedTrial,
  passScore: number,
): ExpectedTrial {
  const miss = missedTool(task.fixtures?.toolResponses, entry.calls);
  const failedClosed = miss !== null;
  const outputMatched = goldenMatches(match, entry.output);
  const score = !failedClosed && outputMatched ? 1 : 0;
  const trajectory = task.expected.trajectory;
  const verdict = trajectory === undefined ? null : matchTrajectory(trajectory, entry.calls);
  const trajectoryFailed = verdict !== null && !verdict.matched;
  return {
    calls: entry.calls,
    output: entry.output,
    outputMatched,
    score,
    trajectoryMatched: verdict === null ? null : verdict.matched,
    forbiddenHit: verdict === null ? null : verdict.forbiddenHit,
    missedTool: miss,
    failedClosed,
    passed: atLeast(score, passScore) && !trajectoryFailed && !failedClosed,
    gatingScore: trajectoryFailed || failedClosed ? 0 : score,
    costUsd: entry.costUsd ?? null,
    latencyMs: entry.latencyMs ?? null,
  };
}

/**
 * The cost and p95 latency conditions of suite `passed`, on the figures the script states. Cost
 * is the suite's total, latency the nearest-rank 95th percentile over every trial; the fixtures
 * give every trial one latency and every trial a cost above the limit, so per-trial, per-task and
 * total readings of the limit and every percentile method agree (docs/decisions.md).
 */
function expectLimits(
  fixtureId: string,
  thresholds: Thresholds,
  tasks: readonly ExpectedTask[],
): ExpectedLimit[] {
  const trials = tasks.flatMap((t) => t.trials);
  const stated = (name: 'costUsd' | 'latencyMs'): number[] =>
    trials.map((t) => {
      const value = t[name];
      if (value === null) {
        throw new Error(
          `suite fault: fixture "${fixtureId}" declares a limit on ${name} but a scripted trial states none`,
        );
      }
      return value;
    });
  const out: ExpectedLimit[] = [];
  const { maxCostUsd, maxP95LatencyMs } = thresholds;
  if (maxCostUsd !== undefined) {
    const figure = stated('costUsd').reduce((a, b) => a + b, 0);
    out.push({
      threshold: 'maxCostUsd',
      limit: maxCostUsd,
      figure,
      figureName: 'cost',
      kept: figure <= maxCostUsd + EPSILON,
    });
  }
  if (maxP95LatencyMs !== undefined) {
    const figure = nearestRankP95(stated('latencyMs'));
    out.push({
      threshold: 'maxP95LatencyMs',
      limit: maxP95LatencyMs,
      figure,
      figureName: 'p95 latency',
      kept: figure <= maxP95LatencyMs,
    });
  }
  return out;
}

function nearestRankP95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
}
