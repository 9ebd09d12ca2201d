// The cost and latency conditions of suite `passed` (RFC 0246 §B: "unchanged"), judged on the
// figures the fixture's script states (contract §3 [0244-assumed]). Three questions, kept apart:
// does the host report the figures a declared limit reads (else the limit cannot be judged, and
// the leg is decided in lib/decide/, never guessed here); are the figures it reports the stated
// ones; and is `passed` the conjunction of the score condition and every limit.

import type { Finding } from '../types.ts';
import type { EventIndex } from './event-index.ts';
import type { ExpectedLimit, ExpectedRun } from './expected.ts';
import { describe, finding, member, num, sameNumber } from './finding.ts';
import type { SummaryTasks } from './tasks.ts';

/** "cost 0.06 > maxCostUsd 0.01": the figure, the limit, and which side of it the figure is. */
function limitText(limit: ExpectedLimit): string {
  return `${limit.figureName} ${num(limit.figure)} ${limit.kept ? '≤' : '>'} ${limit.threshold} ${num(limit.limit)}`;
}

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** Every task entry (one per suite task) or every eval.scored carries `key` as a number. */
function everyCarries(
  expected: ExpectedRun,
  tasks: SummaryTasks,
  index: EventIndex,
  key: string,
): boolean {
  const entries = expected.tasks.map((t) => tasks.byId.get(t.taskId)?.[0]);
  const onTasks = entries.length > 0 && entries.every((e) => isNumber(member(e, key)));
  const onEvents =
    index.scored.length > 0 && index.scored.every((e) => isNumber(member(e.payload, key)));
  return onTasks || onEvents;
}

interface Unreported {
  readonly threshold: ExpectedLimit['threshold'];
  readonly reason: string;
}

/** The declared limits the host reports no figures for, each with the members it lacks. */
function unreported(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
  index: EventIndex,
): Unreported[] {
  const out: Unreported[] = [];
  for (const limit of expected.limits) {
    const { threshold } = limit;
    if (threshold === 'maxCostUsd') {
      const total = isNumber(member(summary, 'totalCostUsd'));
      if (!total && !everyCarries(expected, tasks, index, 'costUsd')) {
        out.push({
          threshold,
          reason: `the host reports no totalCostUsd, no costUsd on every task and no eval.scored.costUsd, which maxCostUsd ${num(limit.limit)} is decided on`,
        });
      }
    } else if (!everyCarries(expected, tasks, index, 'latencyMs')) {
      out.push({
        threshold,
        reason: `the host reports no latencyMs on every task and no eval.scored.latencyMs, which maxP95LatencyMs ${num(limit.limit)} is decided on`,
      });
    }
  }
  return out;
}

/**
 * Why a declared limit cannot be judged on this run, one reason per limit; empty when every
 * declared limit can be. A host fact: the suite neither passes nor fails a limit it cannot see,
 * and lib/decide/ turns these into the leg's disposition (contract §9).
 */
export function unreportedLimits(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
  index: EventIndex,
): string[] {
  return unreported(expected, summary, tasks, index).map((u) => u.reason);
}

/** "maxCostUsd 1 cannot be judged: no cost reported": a limit the host gave no figures for. */
function unjudgedText(limit: ExpectedLimit): string {
  const missing = limit.threshold === 'maxCostUsd' ? 'no cost reported' : 'latencies not reported';
  return `${limit.threshold} ${num(limit.limit)} cannot be judged: ${missing}`;
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
export function judgeSuitePassed(
  expected: ExpectedRun,
  summary: unknown,
  tasks: SummaryTasks,
  index: EventIndex,
): Finding {
  const passed = member(summary, 'passed');
  const gate = gateReason(
    expected,
    `${expected.gatePassed ? '≥' : '<'} passScore ${num(expected.thresholds.passScore)}`,
  );
  const unseen = new Set(unreported(expected, summary, tasks, index).map((u) => u.threshold));
  const broken = expected.limits.find((l) => !l.kept && !unseen.has(l.threshold));
  const conditions = [
    gate,
    ...expected.limits.map((l) => (unseen.has(l.threshold) ? unjudgedText(l) : limitText(l))),
  ].join(', ');
  // The score condition, or a limit the host reports figures for, can decide `false` on its own;
  // a limit the host reports nothing for decides neither way, so only the type is judged then.
  if (expected.gatePassed && broken === undefined && unseen.size > 0) {
    return finding(
      'suite.passed',
      typeof passed === 'boolean',
      `passed MUST be a boolean (${conditions}); host reported ${describe(passed)}`,
    );
  }
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
