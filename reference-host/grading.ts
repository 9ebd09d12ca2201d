// Grading as contract §4 and RFC 0246 §A–§C describe it: trial, task, suite. Pure functions; the
// defect switches that break a grading clause sit at the line that implements it.

import type { HasDefect } from './defects.ts';
import type { HostCall, HostSuite, HostTask, HostTrajectory, JsonValue } from './fixtures.ts';

/** What the scripted agent did in one trial. */
export interface TrialRun {
  readonly calls: readonly HostCall[];
  readonly output: JsonValue;
  readonly failedClosed: boolean;
  /** The stated latency when the script states one, else the measured one. */
  readonly latencyMs: number;
  readonly latencyStated: boolean;
  /** The stated cost; absent when the script states none. */
  readonly costUsd?: number;
}

export interface TrialVerdict {
  readonly trial: number;
  readonly score: number;
  /** Undefined when the task has no trajectory. */
  readonly matched: boolean | undefined;
  readonly failedClosed: boolean;
  readonly passed: boolean;
  readonly gating: number;
  readonly output: JsonValue;
  readonly latencyMs: number;
  readonly latencyStated: boolean;
  readonly costUsd?: number;
}

export interface TaskVerdict {
  readonly task: HostTask;
  readonly trials: readonly TrialVerdict[];
  readonly score: number;
  readonly gatedScore: number;
  readonly passed: boolean;
}

export interface SuiteVerdict {
  readonly tasks: readonly TaskVerdict[];
  readonly aggregateScore: number;
  readonly gatedAggregateScore: number;
  readonly passed: boolean;
  /** eval.completed.passed; equal to `passed` on a conforming host. */
  readonly completedPassed: boolean;
  readonly passedCount: number;
}

const EPSILON = 1e-9;

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Inclusive comparison (contract §4), tolerant of summation order; `strict-greater-than` breaks it. */
function clears(value: number, threshold: number, has: HasDefect): boolean {
  return has('strict-greater-than') ? value > threshold : value >= threshold - EPSILON;
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v: JsonValue, i) => jsonEqual(v, b[i]));
  }
  const ao = a as { readonly [k: string]: JsonValue };
  const bo = b as { readonly [k: string]: JsonValue };
  const keys = Object.keys(ao);
  return (
    keys.length === Object.keys(bo).length &&
    keys.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]))
  );
}

function stringify(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Deep equality with every string folded to lower case, as `args-case-insensitive` compares. */
function foldedEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const fold = (v: JsonValue | undefined): JsonValue | undefined =>
    v === undefined ? undefined : (JSON.parse(JSON.stringify(v).toLowerCase()) as JsonValue);
  return jsonEqual(fold(a), fold(b));
}

/** A JSON value with every object's members in key order, as `exact-members-sorted` reads it. */
function sortedMembers(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortedMembers);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as { readonly [k: string]: JsonValue };
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortedMembers(o[k] as JsonValue)]),
  );
}

/** Deep equality that pairs array items in any order, as `json-match-arrays-unordered` reads it. */
function unorderedEqual(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const left = [...b];
    return a.every((item) => {
      const i = left.findIndex((other) => unorderedEqual(item, other));
      if (i >= 0) left.splice(i, 1);
      return i >= 0;
    });
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return false;
  const ao = a as { readonly [k: string]: JsonValue };
  const bo = b as { readonly [k: string]: JsonValue };
  const keys = Object.keys(ao);
  return (
    keys.length === Object.keys(bo).length &&
    keys.every(
      (k) => Object.hasOwn(bo, k) && unorderedEqual(ao[k] as JsonValue, bo[k] as JsonValue),
    )
  );
}

/** The text `exact` and `contains` compare (host guide §6), as each reading defect writes it. */
function textOf(v: JsonValue, has: HasDefect): string {
  const text = stringify(has('exact-members-sorted') ? sortedMembers(v) : v);
  return has('golden-case-insensitive') ? text.toLowerCase() : text;
}

/** A string output read as the JSON it spells, as `json-match-parses-string` reads it. */
function parsedString(output: JsonValue): JsonValue {
  if (typeof output !== 'string') return output;
  try {
    return JSON.parse(output) as JsonValue;
  } catch {
    return output;
  }
}

/**
 * RFC 0081 golden match: 1 or 0, by the table of host guide §6. An unknown match mode scores 0
 * rather than guessing. Each grading defect reads one cell of that table another way.
 */
export function goldenScore(
  match: string,
  output: JsonValue,
  value: JsonValue,
  has: HasDefect = NO_DEFECT,
): number {
  if (has('golden-never-graded')) return 1;
  if (match === 'json-match' && has('json-match-as-text')) {
    return JSON.stringify(output) === JSON.stringify(value) ? 1 : 0;
  }
  switch (match) {
    case 'exact': {
      if (has('exact-compared-as-values')) return jsonEqual(output, value) ? 1 : 0;
      if (has('exact-non-string-as-value') && typeof value !== 'string') {
        return jsonEqual(output, value) ? 1 : 0;
      }
      const trim = (t: string): string => (has('exact-trims-whitespace') ? t.trim() : t);
      return trim(textOf(output, has)) === trim(textOf(value, has)) ? 1 : 0;
    }
    case 'contains':
      if (has('contains-strings-only') && typeof output !== 'string') return 0;
      return textOf(output, has).includes(textOf(value, has)) ? 1 : 0;
    case 'json-match': {
      const seen = has('json-match-parses-string') ? parsedString(output) : output;
      const equal = has('json-match-arrays-unordered') ? unorderedEqual : jsonEqual;
      return equal(seen, value) ? 1 : 0;
    }
    default:
      return 0;
  }
}

/** Whether every member of `expected` is in `seen` with an equal value, as `args-subset` reads args. */
function subsetOf(expected: JsonValue, seen: JsonValue | undefined): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) {
    return jsonEqual(expected, seen);
  }
  if (typeof seen !== 'object' || seen === null || Array.isArray(seen)) return false;
  const e = expected as { readonly [k: string]: JsonValue };
  const s = seen as { readonly [k: string]: JsonValue };
  return Object.keys(e).every((k) => Object.hasOwn(s, k) && jsonEqual(e[k], s[k]));
}

/** A call without `args` is a call with no arguments: `{}` and an absent member agree. */
const NO_ARGS: JsonValue = {};

function callMatches(expected: HostCall, observed: HostCall, has: HasDefect): boolean {
  if (expected.tool !== observed.tool) return false;
  if (expected.args === undefined || has('args-ignored')) return true;
  const seen = has('absent-args-not-empty') ? observed.args : (observed.args ?? NO_ARGS);
  if (has('args-compared-as-text')) return JSON.stringify(expected.args) === JSON.stringify(seen);
  if (has('args-arrays-unordered'))
    return seen !== undefined && unorderedEqual(expected.args, seen);
  if (has('args-subset')) return subsetOf(expected.args, seen);
  return has('args-case-insensitive')
    ? foldedEqual(expected.args, seen)
    : jsonEqual(expected.args, seen);
}

/** The mode the host grades by: the task's own, unless a defect reads it as its neighbour. */
function modeRead(match: string, has: HasDefect): string {
  if (match === 'exact' && has('exact-read-as-in-order')) return 'in-order';
  if (match === 'in-order' && has('in-order-read-as-exact')) return 'exact';
  if (match === 'in-order' && has('in-order-read-as-any-order')) return 'any-order';
  if (match === 'any-order' && has('any-order-read-as-in-order')) return 'in-order';
  return match;
}

function exactSequence(
  calls: readonly HostCall[],
  observed: readonly HostCall[],
  has: HasDefect,
): boolean {
  if (calls.length === 0 && has('empty-exact-matches-any')) return true;
  return (
    observed.length === calls.length &&
    calls.every((e, i) => {
      const o = observed[i];
      return o !== undefined && callMatches(e, o, has);
    })
  );
}

/** Each expected call, in order, on its own later observed call; extras allowed between. */
function inOrder(
  calls: readonly HostCall[],
  observed: readonly HostCall[],
  has: HasDefect,
): boolean {
  let next = 0;
  for (const o of observed) {
    // `repeated-call-collapsed`: one observed call also meets the expected calls right after it.
    do {
      const e = calls[next];
      if (e === undefined || !callMatches(e, o, has)) break;
      next += 1;
    } while (has('repeated-call-collapsed'));
  }
  return next === calls.length;
}

/** Each expected call on a distinct observed call, in any order; extras allowed. */
function anyOrder(
  calls: readonly HostCall[],
  observed: readonly HostCall[],
  has: HasDefect,
): boolean {
  if (has('any-order-read-as-unordered') && observed.length !== calls.length) return false;
  // Expected calls with args can match fewer observed calls than those without, so they claim
  // theirs first; greedy is then a maximum matching (args-equal calls are interchangeable).
  const ordered = has('any-order-first-fit')
    ? calls
    : [...calls].sort((a, b) => Number(a.args === undefined) - Number(b.args === undefined));
  const used = new Set<number>();
  return ordered.every((e) => {
    const i = observed.findIndex((o, j) => !used.has(j) && callMatches(e, o, has));
    if (i < 0) return false;
    if (!has('repeated-call-collapsed')) used.add(i);
    return true;
  });
}

const NO_DEFECT: HasDefect = () => false;

/** Contract §4 trajectory match; a forbidden hit is a mismatch in every mode. */
export function trajectoryMatches(
  t: HostTrajectory,
  observed: readonly HostCall[],
  has: HasDefect = NO_DEFECT,
): boolean {
  const forbiddenHit = observed.some((c) => t.forbidden.includes(c.tool));
  if (forbiddenHit && !has('forbidden-ignored-when-matched')) return false;
  switch (modeRead(t.match, has)) {
    case 'exact':
      return exactSequence(t.calls, observed, has);
    case 'in-order':
      return inOrder(t.calls, observed, has);
    case 'any-order':
      return anyOrder(t.calls, observed, has);
    default:
      return false;
  }
}

/**
 * The task as the host reads it: as written, or under `empty-trajectory-ungated` without an
 * expected trajectory that lists no calls. Grading and reporting both read it from here.
 */
export function taskRead(task: HostTask, has: HasDefect): HostTask {
  const { trajectory, ...rest } = task;
  return has('empty-trajectory-ungated') && trajectory?.calls.length === 0 ? rest : task;
}

export function gradeTrial(
  task: HostTask,
  trial: number,
  run: TrialRun,
  passScore: number,
  has: HasDefect,
): TrialVerdict {
  const raw = run.failedClosed ? 0 : goldenScore(task.match, run.output, task.value, has);
  const trajectory = taskRead(task, has).trajectory;
  const matched =
    trajectory === undefined ? undefined : trajectoryMatches(trajectory, run.calls, has);
  const trajectoryFailed = matched === false;
  // RFC 0246 §C: the reported score stays the output score even when the path was wrong.
  const score = has('score-zeroed') && trajectoryFailed ? 0 : raw;
  const pathOk = !trajectoryFailed || has('trial-passed-ignores-trajectory');
  // Contract §4: a trial's score clears passScore inclusively; `trial-verdict-strict` uses `>`.
  const cleared = has('trial-verdict-strict') ? score > passScore : score >= passScore - EPSILON;
  // Contract §4: a trial that failed closed never passes, even where its score 0 clears passScore.
  const closedOk = !run.failedClosed || has('trial-passed-ignores-fail-closed');
  const passed = cleared && pathOk && closedOk;
  const gating = trajectoryFailed || run.failedClosed ? 0 : score;
  return {
    trial,
    score,
    matched,
    failedClosed: run.failedClosed,
    passed,
    gating,
    output: run.output,
    latencyMs: run.latencyMs,
    latencyStated: run.latencyStated,
    ...(run.costUsd === undefined ? {} : { costUsd: run.costUsd }),
  };
}

export function gradeTask(
  task: HostTask,
  trials: readonly TrialVerdict[],
  suite: HostSuite,
  has: HasDefect,
): TaskVerdict {
  const score = mean(trials.map((t) => t.score));
  const gatedScore =
    has('task-gated-all-or-nothing') && trials.some((t) => t.matched === false)
      ? 0
      : mean(trials.map((t) => t.gating));
  const oldRule = has('unmigrated-0244') || has('gated-fields-but-old-passed');
  // RFC 0246 §B: all and any count trial verdicts, and a trajectory-failed trial did not pass.
  const byScore =
    has('rule-counts-trajectory-failed') ||
    (suite.trials?.passRule === 'any' && has('any-rule-counts-scores'));
  const countsAsPassed = (t: TrialVerdict): boolean =>
    byScore ? t.score >= suite.passScore - EPSILON : t.passed;
  let passed: boolean;
  switch (suite.trials?.passRule) {
    case undefined:
      // Contract §4: without a trials block the task's verdict is its one trial's. Reading the
      // gating score instead agrees above passScore 0 and differs at it, where a gating 0 clears.
      passed = has('single-trial-passed-by-gated-score')
        ? clears(gatedScore, suite.passScore, has)
        : trials.every((t) => t.passed);
      break;
    case 'all':
      passed = trials.every(countsAsPassed);
      break;
    case 'any':
      passed = has('any-rule-gated-by-mean')
        ? clears(gatedScore, suite.passScore, has)
        : trials.some(countsAsPassed);
      break;
    case 'mean':
      passed = clears(oldRule ? score : gatedScore, suite.passScore, has);
      break;
    default:
      passed = false;
  }
  return { task: taskRead(task, has), trials, score, gatedScore, passed };
}

/** What the run cost: the sum of every trial's stated cost; a trial without one costs nothing. */
export function totalCost(trials: readonly TrialVerdict[]): number {
  return trials.reduce((sum, t) => sum + (t.costUsd ?? 0), 0);
}

/** Nearest-rank p95 of trial latencies; `p95-as-mean` takes their mean instead. */
function p95(values: readonly number[], has: HasDefect): number {
  if (values.length === 0) return 0;
  if (has('p95-as-mean')) return mean(values);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
}

/**
 * The latencies the p95 is taken over: every trial's (RFC 0246 §B keeps RFC 0081's per-trial
 * figure), or under a defect one per task, its trials' mean, sum or slowest.
 */
function latenciesRead(tasks: readonly TaskVerdict[], has: HasDefect): number[] {
  const per = (t: TaskVerdict): number[] => t.trials.map((r) => r.latencyMs);
  if (has('p95-over-task-means')) return tasks.map((t) => mean(per(t)));
  if (has('p95-over-task-sums')) return tasks.map((t) => per(t).reduce((a, b) => a + b, 0));
  if (has('p95-over-task-maxima')) return tasks.map((t) => Math.max(...per(t)));
  return tasks.flatMap(per);
}

/** The figure the cost condition reads: the run's total, or under a defect its costliest trial. */
function costFigure(
  tasks: readonly TaskVerdict[],
  trials: readonly TrialVerdict[],
  has: HasDefect,
): number {
  if (has('cost-over-task-means'))
    return tasks.reduce((sum, t) => sum + mean(t.trials.map((r) => r.costUsd ?? 0)), 0);
  if (!has('cost-limit-per-trial')) return totalCost(trials);
  return trials.reduce((most, t) => Math.max(most, t.costUsd ?? 0), 0);
}

/** An inclusive limit (RFC 0246 §B keeps RFC 0081's "at most"); `limits-exclusive` breaks it. */
function within(figure: number, limit: number, has: HasDefect): boolean {
  return has('limits-exclusive') ? figure < limit : figure <= limit + EPSILON;
}

export function gradeSuite(
  suite: HostSuite,
  tasks: readonly TaskVerdict[],
  has: HasDefect,
): SuiteVerdict {
  const aggregateScore = mean(tasks.map((t) => t.score));
  const gatedScores = tasks.map((t) => t.gatedScore);
  const gatedAggregateScore =
    has('gated-aggregate-other-aggregation') && gatedScores.length > 0
      ? Math.min(...gatedScores)
      : mean(gatedScores);
  // RFC 0246 §B: the cost and latency conditions are unchanged, beside the gating aggregate.
  const trials = tasks.flatMap((t) => t.trials);
  const limitsIgnored = has('limits-hidden-and-ignored');
  const withinLatency =
    suite.maxP95LatencyMs === undefined ||
    has('latency-limit-dropped') ||
    limitsIgnored ||
    within(p95(latenciesRead(tasks, has), has), suite.maxP95LatencyMs, has);
  const withinCost =
    suite.maxCostUsd === undefined ||
    has('cost-limit-dropped') ||
    limitsIgnored ||
    within(costFigure(tasks, trials, has), suite.maxCostUsd, has);
  const oldRule = has('unmigrated-0244') || has('gated-fields-but-old-passed');
  const passed =
    clears(oldRule ? aggregateScore : gatedAggregateScore, suite.passScore, has) &&
    withinLatency &&
    withinCost;
  const completedPassed = has('completed-passed-old-rule')
    ? clears(aggregateScore, suite.passScore, has)
    : passed;
  const passedCount = has('passed-count-wrong')
    ? tasks.filter((t) => clears(t.score, suite.passScore, has)).length
    : tasks.filter((t) => t.passed).length;
  return { tasks, aggregateScore, gatedAggregateScore, passed, completedPassed, passedCount };
}
