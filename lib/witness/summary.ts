// Rules on the summary as a whole: schema, identity, the suite-level scores and verdict (RFC 0246
// §A–§D), the counts, and the agreement of eval.completed with the summary.

import type { Finding } from '../types.ts';
import { validate } from '../schemas.ts';
import { schemaProblems } from './schema-words.ts';
import { EPSILON, type ExpectedRun } from './expected.ts';
import type { EventIndex } from './event-index.ts';
import { describe, finding, isRecord, member, num, plural, sameNumber } from './finding.ts';
import type { SummaryTasks } from './tasks.ts';

export function judgeSummary(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
  index: EventIndex,
): Finding[] {
  return [
    judgeSchema(expected, summary, tasks),
    judgeIdentity(expected, summary, tasks),
    ...judgeSuiteScores(expected, summary),
    judgeSuitePassed(expected, summary, tasks),
    judgeCounts(expected, summary, tasks),
    ...judgeCompleted(index, summary),
  ];
}

/**
 * Ajv collects the errors of `$ref`'d array items by concatenation, which is quadratic in the
 * number of bad items; so a task list longer than the suite's is validated only up to the suite's
 * length. The surplus entries already fail summary.identity.
 */
function judgeSchema(expected: ExpectedRun, summary: unknown, tasks: SummaryTasks): Finding {
  const limit = Math.max(expected.taskCount, 1);
  const trimmed = isRecord(summary) && tasks.entries.length > limit;
  const instance = trimmed ? { ...summary, tasks: tasks.entries.slice(0, limit) } : summary;
  const errors = validate('eval-summary', instance);
  const scope = trimmed ? ` (first ${limit} of ${tasks.entries.length} task entries checked)` : '';
  return finding(
    'summary.schema',
    errors.length === 0,
    errors.length === 0
      ? `the summary validates against eval-summary${scope}`
      : `the summary MUST validate against eval-summary${scope}: ${schemaProblems(errors, instance, 3)}`,
  );
}

function judgeIdentity(expected: ExpectedRun, summary: unknown, tasks: SummaryTasks): Finding {
  const problems: string[] = [];
  const suiteId = member(summary, 'suiteId');
  const version = member(summary, 'suiteVersion');
  if (suiteId !== expected.suiteId) {
    problems.push(`suiteId MUST be "${expected.suiteId}", host reported ${describe(suiteId)}`);
  }
  if (version !== expected.suiteVersion) {
    problems.push(
      `suiteVersion MUST be "${expected.suiteVersion}", host reported ${describe(version)}`,
    );
  }
  if (!tasks.isArray)
    problems.push(`tasks MUST be an array, host reported ${describe(member(summary, 'tasks'))}`);
  const missing = expected.tasks.filter((t) => !tasks.byId.has(t.taskId));
  const repeated = [...tasks.byId].filter(([, entries]) => entries.length > 1);
  const known = new Set(expected.tasks.map((t) => t.taskId));
  const foreign = [...tasks.byId.keys()].filter((id) => !known.has(id));
  if (tasks.isArray && missing.length > 0) {
    problems.push(`${plural(missing.length, 'task')} missing, first "${missing[0]?.taskId}"`);
  }
  if (repeated.length > 0) problems.push(`task "${repeated[0]?.[0]}" listed more than once`);
  if (foreign.length > 0) problems.push(`unknown task ${describe(foreign[0])}`);
  if (tasks.unnamed > 0) problems.push(`entries without a string taskId: ${tasks.unnamed}`);
  return finding(
    'summary.identity',
    problems.length === 0,
    problems.length === 0
      ? `the summary names ${expected.suiteId}@${expected.suiteVersion} and each of its ${plural(expected.taskCount, 'task')} once`
      : `the summary MUST name the suite and list each task once; ${problems.join('; ')}`,
  );
}

function judgeSuiteScores(expected: ExpectedRun, summary: unknown): Finding[] {
  const aggregate = member(summary, 'aggregateScore');
  const gated = member(summary, 'gatedAggregateScore');
  const tasks = `the ${expected.taskCount} task`;
  const gating = expected.tasks
    .map((t) => num(t.gatedScore))
    .slice(0, 5)
    .join(', ');
  const out = [
    finding(
      'suite.aggregate-unchanged',
      sameNumber(aggregate, expected.aggregateScore),
      `aggregateScore MUST be ${num(expected.aggregateScore)} (mean of ${tasks} scores); host reported ${describe(aggregate)}`,
    ),
  ];
  if (expected.gatedAggregatePresence === 'required') {
    out.push(
      finding(
        'suite.gated-aggregate-present',
        gated !== undefined,
        `a suite with a trajectory task MUST carry gatedAggregateScore; host reported ${describe(gated)}`,
      ),
    );
  }
  if (expected.gatedAggregatePresence === 'forbidden') {
    out.push(
      finding(
        'suite.gated-aggregate-absent',
        gated === undefined,
        `a suite with no trajectory and no fixture miss MUST NOT carry gatedAggregateScore; host reported ${describe(gated)}`,
      ),
    );
  }
  if (gated !== undefined) {
    out.push(
      finding(
        'suite.gated-aggregate-value',
        sameNumber(gated, expected.gatedAggregateScore),
        `gatedAggregateScore MUST be ${num(expected.gatedAggregateScore)} (mean of ${tasks} gating scores ${gating}${expected.taskCount > 5 ? ', …' : ''}); host reported ${describe(gated)}`,
      ),
    );
  }
  return out;
}

/**
 * The gate, by the name of a field the host sends: without a trajectory no gating score can
 * differ from its score (a miss zeroes both), so the gate is aggregateScore, and a message must
 * not quote a gatedAggregateScore the host may not send (RFC 0246 §D).
 */
function gateReason(expected: ExpectedRun, comparison: string): string {
  const value = num(expected.gatedAggregateScore);
  return expected.gatedAggregatePresence === 'required'
    ? `gatedAggregateScore ${value} ${comparison}`
    : `aggregateScore ${value} ${comparison} with no trajectory to gate`;
}

/** Suite passed: the gating aggregate clears passScore and the cost and p95 limits hold. */
function judgeSuitePassed(expected: ExpectedRun, summary: unknown, tasks: SummaryTasks): Finding {
  const passed = member(summary, 'passed');
  const passScore = expected.thresholds.passScore;
  const gate = gateReason(
    expected,
    `${expected.gatePassed ? '≥' : '<'} passScore ${num(passScore)}`,
  );
  const limits = judgeLimits(expected, summary, tasks);
  const reasons = [gate, ...limits.notes].join(', ');
  if (expected.gatePassed && limits.verdict === undefined) {
    return finding(
      'suite.passed',
      typeof passed === 'boolean',
      `passed MUST be a boolean (${reasons}); host reported ${describe(passed)}`,
    );
  }
  const want = expected.gatePassed && limits.verdict === true;
  return finding(
    'suite.passed',
    passed === want,
    `suite passed MUST be ${want} (${reasons}); host reported ${describe(passed)}`,
  );
}

/**
 * The cost and p95 latency conditions, judged from what the summary reports: total cost is
 * totalCostUsd, else the sum of task costs; p95 is the nearest-rank 95th percentile of task
 * latencies. A limit the summary gives no figures for cannot be judged (verdict undefined).
 */
function judgeLimits(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
): { verdict: boolean | undefined; notes: string[] } {
  const { maxCostUsd, maxP95LatencyMs } = expected.thresholds;
  const notes: string[] = [];
  let verdict: boolean | undefined = true;
  const entries = tasks.entries;
  if (maxCostUsd !== undefined) {
    const total = member(summary, 'totalCostUsd');
    const costs = entries.map((e) => member(e, 'costUsd'));
    const cost =
      typeof total === 'number' && Number.isFinite(total)
        ? total
        : entries.length > 0 && costs.every(isFiniteNumber)
          ? costs.reduce((a, b) => a + b, 0)
          : undefined;
    if (cost === undefined) {
      notes.push(`maxCostUsd ${num(maxCostUsd)} cannot be judged: no cost reported`);
      verdict = undefined;
    } else {
      const ok = cost <= maxCostUsd + EPSILON;
      notes.push(`cost ${num(cost)} ${ok ? '≤' : '>'} maxCostUsd ${num(maxCostUsd)}`);
      if (!ok) verdict = false;
    }
  }
  if (maxP95LatencyMs !== undefined) {
    const latencies = entries.map((e) => member(e, 'latencyMs'));
    if (entries.length === 0 || !latencies.every(isFiniteNumber)) {
      notes.push(
        `maxP95LatencyMs ${num(maxP95LatencyMs)} cannot be judged: latencies not reported`,
      );
      if (verdict === true) verdict = undefined;
    } else {
      const sorted = [...latencies].sort((a, b) => a - b);
      const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
      const ok = p95 <= maxP95LatencyMs + EPSILON;
      notes.push(
        `p95 latency ${num(p95)} ${ok ? '≤' : '>'} maxP95LatencyMs ${num(maxP95LatencyMs)}`,
      );
      if (!ok) verdict = false;
    }
  }
  return { verdict, notes };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function judgeCounts(expected: ExpectedRun, summary: unknown, tasks: SummaryTasks): Finding {
  const taskCount = member(summary, 'taskCount');
  const passedCount = member(summary, 'passedCount');
  const reportedPassed = tasks.entries.filter((e) => member(e, 'passed') === true).length;
  const ok = taskCount === expected.taskCount && passedCount === reportedPassed;
  return finding(
    'suite.counts',
    ok,
    `taskCount MUST be ${expected.taskCount} and passedCount ${reportedPassed} (tasks reported passed); ` +
      `host reported ${describe(taskCount)} and ${describe(passedCount)}`,
  );
}

const COMPLETED_FIELDS = ['passed', 'aggregateScore', 'taskCount', 'passedCount'] as const;

function judgeCompleted(index: EventIndex, summary: unknown): Finding[] {
  const completed = index.completed[0];
  if (completed === undefined) return [];
  const mismatches = COMPLETED_FIELDS.filter((key) => {
    const event = member(completed.payload, key);
    const reported = member(summary, key);
    if (typeof reported === 'number') return !sameNumber(event, reported);
    return reported === undefined || event !== reported;
  });
  const detail = mismatches
    .map((k) => `${k} ${describe(member(completed.payload, k))} vs ${describe(member(summary, k))}`)
    .join('; ');
  return [
    finding(
      'completed.consistent',
      mismatches.length === 0,
      mismatches.length === 0
        ? "eval.completed's passed, aggregateScore, taskCount and passedCount equal the summary's"
        : `eval.completed MUST agree with the summary; ${detail}`,
    ),
  ];
}
