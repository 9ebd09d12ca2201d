// Rules on the summary as a whole: schema, identity, the suite-level scores and verdict (RFC 0246
// §A–§D), the counts, and the agreement of eval.completed with the summary.

import type { Finding } from '../types.ts';
import { validate } from '../schemas.ts';
import { schemaProblems } from './schema-words.ts';
import type { ExpectedRun } from './expected.ts';
import { judgeFigures, judgeSuitePassed } from './limits.ts';
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
    judgeSuitePassed(expected, summary),
    ...judgeFigures(expected, summary, tasks, index),
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
