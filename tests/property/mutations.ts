// Single-field mutations of a correct summary, each paired with the witness rule that owns the
// field. Every mutation changes a gated value, a decision, a presence the RFC fixes, or a score
// RFC 0246 §C says must stay a measurement, so a witness that lets one through has a hole.

import type { EvalSummary, SummaryTask } from '../../lib/types.ts';
import type { Graded } from './oracle.ts';

export interface Mutation {
  /** What was changed, for a failure message. */
  readonly field: string;
  /** The rule a witness must fail for it. */
  readonly rule: string;
  readonly summary: EvalSummary;
}

/** Moves a score in 0–1 by `delta`, staying in 0–1 so only the value (not the schema) is wrong. */
export const moved = (value: number, delta: number): number =>
  value >= 0.5 ? value - delta : value + delta;

function omit<T extends object>(value: T, key: keyof T): T {
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)) as T;
}

type TaskMutation = (
  entry: SummaryTask,
  task: Graded['tasks'][number],
  delta: number,
) => { field: string; rule: string; entry: SummaryTask } | null;

const TASK_MUTATIONS: readonly TaskMutation[] = [
  (e) => ({ field: 'passed', rule: 'task.passed', entry: { ...e, passed: !e.passed } }),
  (e, _t, d) =>
    e.gatedScore === undefined
      ? null
      : {
          field: 'gatedScore',
          rule: 'task.gated-score-value',
          entry: { ...e, gatedScore: moved(e.gatedScore, d) },
        },
  (e, t) =>
    t.hasTrajectory
      ? {
          field: 'gatedScore (dropped)',
          rule: 'task.gated-score-present',
          entry: omit(e, 'gatedScore'),
        }
      : null,
  // A task without a trajectory whose gating score equals its score must omit gatedScore, even
  // when the value carried is right.
  (e, t) =>
    t.hasTrajectory || e.gatedScore !== undefined
      ? null
      : {
          field: 'gatedScore (added)',
          rule: 'task.gated-score-absent',
          entry: { ...e, gatedScore: e.score },
        },
  (e, _t, d) => ({
    field: 'score',
    rule: 'task.score-unchanged',
    entry: { ...e, score: moved(e.score, d) },
  }),
  (e, _t, d) =>
    e.trials === undefined
      ? null
      : {
          field: 'trials.meanScore',
          rule: 'task.mean-score',
          entry: { ...e, trials: { ...e.trials, meanScore: moved(e.trials.meanScore, d) } },
        },
];

/**
 * Every kind of mutation that applies to `graded`, suite-wide ones once and per-task ones once
 * each on a task chosen by `pick`, so a 50-task suite does not drown the suite-level kinds.
 */
export function mutationsOf(graded: Graded, pick: number, delta: number): Mutation[] {
  const s = graded.summary;
  const anyTrajectory = graded.tasks.some((t) => t.hasTrajectory);
  const anyMiss = graded.tasks.some((t) => t.trials.some((trial) => trial.failedClosed));
  const out: Mutation[] = [
    { field: 'passed', rule: 'suite.passed', summary: { ...s, passed: !s.passed } },
    {
      field: 'aggregateScore',
      rule: 'suite.aggregate-unchanged',
      summary: { ...s, aggregateScore: moved(s.aggregateScore, delta) },
    },
  ];
  if (s.gatedAggregateScore !== undefined) {
    out.push({
      field: 'gatedAggregateScore',
      rule: 'suite.gated-aggregate-value',
      summary: { ...s, gatedAggregateScore: moved(s.gatedAggregateScore, delta) },
    });
  }
  if (anyTrajectory) {
    out.push({
      field: 'gatedAggregateScore (dropped)',
      rule: 'suite.gated-aggregate-present',
      summary: omit(s, 'gatedAggregateScore'),
    });
  }
  // RFC 0246 §D "No trajectory": such a suite, without a miss, carries neither new field.
  if (!anyTrajectory && !anyMiss) {
    out.push({
      field: 'gatedAggregateScore (added)',
      rule: 'suite.gated-aggregate-absent',
      summary: { ...s, gatedAggregateScore: s.aggregateScore },
    });
  }
  for (const mutate of TASK_MUTATIONS) {
    const candidates = s.tasks.flatMap((entry, i) => {
      const task = graded.tasks[i];
      const changed = task === undefined ? null : mutate(entry, task, delta);
      return changed === null ? [] : [{ i, ...changed }];
    });
    const chosen = candidates[pick % Math.max(candidates.length, 1)];
    if (chosen === undefined) continue;
    const tasks = s.tasks.map((entry, i) => (i === chosen.i ? chosen.entry : entry));
    out.push({
      field: `tasks[${chosen.i}].${chosen.field}`,
      rule: chosen.rule,
      summary: { ...s, tasks },
    });
  }
  return out;
}
