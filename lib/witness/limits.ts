// The cost and latency conditions of suite `passed` (RFC 0246 §B: "unchanged"), judged on the
// figures the fixture's script states (contract §3 [0244-assumed]). Two questions, kept apart:
// is `passed` the conjunction of the score condition and every limit, each limit decided on the
// stated figures whatever the host reports of them; and are the figures the host does report the
// stated ones. A host that reports no figures is still judged on `passed`: the script fixes the
// correct answer, so hiding the figures earns nothing.

import type { Finding } from '../types.ts';
import type { EventIndex } from './event-index.ts';
import type { ExpectedLimit, ExpectedRun } from './expected.ts';
import { describe, finding, member, num, sameNumber } from './finding.ts';
import type { SummaryTasks } from './tasks.ts';

/** "cost 0.06 > maxCostUsd 0.05": the stated figure, the limit, and which side of it the figure is. */
function limitText(limit: ExpectedLimit): string {
  return `stated ${limit.figureName} ${num(limit.figure)} ${limit.kept ? '≤' : '>'} ${limit.threshold} ${num(limit.limit)}`;
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

/**
 * Suite passed: the gating aggregate clears passScore and every declared limit holds, each limit
 * on the figures the script states. The message names every condition with its numbers, and,
 * when the suite declares a limit, which condition decided.
 */
export function judgeSuitePassed(expected: ExpectedRun, summary: unknown): Finding {
  const passed = member(summary, 'passed');
  const gate = gateReason(
    expected,
    `${expected.gatePassed ? '≥' : '<'} passScore ${num(expected.thresholds.passScore)}`,
  );
  const broken = expected.limits.find((l) => !l.kept);
  const conditions = [gate, ...expected.limits.map(limitText)].join(', ');
  const decider =
    expected.limits.length === 0
      ? ''
      : !expected.gatePassed
        ? ': the score condition decides it'
        : broken !== undefined
          ? `: the ${broken.threshold} condition decides it`
          : ': every condition holds';
  return finding(
    'suite.passed',
    passed === expected.passed,
    `suite passed MUST be ${expected.passed} (${conditions}${decider}); host reported ${describe(passed)}`,
  );
}

/** How many disagreements a figures finding quotes. */
const QUOTED = 3;

/**
 * The cost and latency figures the host reports, where the script states them, are the stated
 * ones: per trial on eval.scored, per task when a task runs once (with trials, a task figure could
 * be a sum, a mean or a maximum, so it is not compared), and the suite's totalCostUsd. No finding
 * when nothing stated was reported: a check that compared nothing is no assertion.
 */
export function judgeFigures(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
  index: EventIndex,
): Finding[] {
  const seen: string[] = [];
  let compared = 0;
  const compare = (where: string, reported: unknown, stated: number | null): void => {
    if (reported === undefined || stated === null) return;
    compared += 1;
    if (!sameNumber(reported, stated)) {
      seen.push(`${where} MUST be ${num(stated)}, host reported ${describe(reported)}`);
    }
  };
  const keys = ['costUsd', 'latencyMs'] as const;
  for (const task of expected.tasks) {
    for (const event of index.scoredByTask.get(task.taskId) ?? []) {
      const trial = event.trial === undefined ? undefined : task.trials[event.trial - 1];
      if (trial === undefined) continue;
      const at = `eval.scored of task "${task.taskId}" trial ${event.trial}`;
      for (const key of keys) compare(`${at}: ${key}`, member(event.payload, key), trial[key]);
    }
    const only = task.trials.length === 1 ? task.trials[0] : undefined;
    const entry = tasks.byId.get(task.taskId)?.[0];
    if (only === undefined) continue;
    for (const key of keys) compare(`task "${task.taskId}": ${key}`, member(entry, key), only[key]);
  }
  const costs = expected.tasks.flatMap((t) => t.trials.map((r) => r.costUsd));
  if (costs.length > 0 && costs.every((c) => c !== null)) {
    const total = costs.reduce<number>((a, b) => a + (b ?? 0), 0);
    compare('totalCostUsd', member(summary, 'totalCostUsd'), total);
  }
  if (compared === 0) return [];
  const quoted = seen.slice(0, QUOTED).join('; ');
  const more = seen.length > QUOTED ? `; and ${seen.length - QUOTED} more` : '';
  return [
    finding(
      'limits.figures',
      seen.length === 0,
      seen.length === 0
        ? `the ${compared} cost and latency figures the host reports are the ones the script states`
        : `cost and latency the host reports MUST be the ones the script states: ${quoted}${more}`,
    ),
  ];
}
