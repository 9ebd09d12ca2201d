// The order of the summary's task entries. The published EvalSummary describes `tasks` as
// "per-task results, in suite order" (openwop/openwop-sdks schemas/v2/eval-summary.schema.json),
// with no MUST and nothing a schema can check, so the rule is a SHOULD wire rule: a host that
// sorts its entries grades correctly and is told it speaks the published document loosely.

import type { Finding } from '../types.ts';
import type { ExpectedRun } from './expected.ts';
import { describe, finding } from './finding.ts';
import type { SummaryTasks } from './tasks.ts';

/**
 * The suite's own tasks, as the summary lists them, compare in suite order. Unknown, unnamed and
 * repeated entries are summary.identity's to report, so only each known task's first entry counts.
 * No finding when fewer than two of the suite's tasks are listed: an order of one shows nothing.
 */
export function judgeTaskOrder(expected: ExpectedRun, tasks: SummaryTasks): Finding[] {
  const rank = new Map(expected.tasks.map((t, i) => [t.taskId, i]));
  const listed: string[] = [];
  for (const id of tasks.byId.keys()) if (rank.has(id)) listed.push(id);
  if (listed.length < 2) return [];
  const out = listed.findIndex(
    (id, i) => i > 0 && (rank.get(id) ?? 0) < (rank.get(listed[i - 1] ?? '') ?? 0),
  );
  const ok = out < 0;
  return [
    finding(
      'wire.summary-task-order',
      ok,
      ok
        ? `the summary lists its ${listed.length} tasks in suite order`
        : `the summary's tasks SHOULD follow the suite's order; ${describe(listed[out])} is listed after ${describe(listed[out - 1])}, which the suite puts later`,
    ),
  ];
}
