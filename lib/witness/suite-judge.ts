// Judging a summary against a bare AgentEvalSuite: no script, so nothing says which path each
// trial took. What RFC 0246 still fixes is the summary's own arithmetic: the gated fields are
// present where a trajectory can gate, a gating score never exceeds its score, and both pass
// decisions read the gating values. With the run's eval.scored events the trial flags are known
// too, and the gating scores and the all/any verdicts can be recomputed. Pure; rule ids are the
// witness's, so a finding here means what the same finding means in a report.

import type { AgentEvalSuite, Finding } from '../types.ts';
import { atLeast, EPSILON, mean } from './expected.ts';
import { findContentKey } from './content.ts';
import { describe, finding, isRecord, member, num, sameNumber } from './finding.ts';
import { validate } from '../schemas.ts';
import { schemaProblems } from './schema-words.ts';

interface Trial {
  readonly score: number;
  readonly passed: unknown;
  readonly trajectoryMatched: unknown;
  readonly failedClosed: unknown;
}

/** RFC 0246 §A for one trial, when its flags say enough to know it. */
function gatingOf(trial: Trial, hasTrajectory: boolean): number | undefined {
  if (trial.failedClosed === true) return 0;
  if (!hasTrajectory) return trial.score;
  if (typeof trial.trajectoryMatched !== 'boolean') return undefined;
  return trial.trajectoryMatched ? trial.score : 0;
}

export function judgeSummaryAgainstSuite(
  suite: AgentEvalSuite,
  summary: unknown,
  events: readonly unknown[] | undefined,
): Finding[] {
  const out: Finding[] = [];
  const schema = validate('eval-summary', summary);
  out.push(
    finding(
      'summary.schema',
      schema.length === 0,
      schema.length === 0
        ? 'the summary validates against eval-summary'
        : `the summary MUST validate against eval-summary: ${schemaProblems(schema, summary, 3)}`,
    ),
  );
  const leak = findContentKey(summary);
  out.push(
    finding(
      'content-free',
      leak === null,
      leak === null
        ? 'the summary carries no content key'
        : `the summary MUST NOT carry task content; it has summary${leak}`,
    ),
  );
  const entries = Array.isArray(member(summary, 'tasks'))
    ? (member(summary, 'tasks') as unknown[])
    : [];
  const byId = new Map(entries.map((e) => [member(e, 'taskId'), e]));
  const ids = suite.tasks.map((t) => t.taskId);
  const listed = entries.length === ids.length && ids.every((id) => byId.has(id));
  out.push(
    finding(
      'summary.identity',
      listed &&
        member(summary, 'suiteId') === suite.suiteId &&
        member(summary, 'suiteVersion') === suite.version,
      `the summary MUST name ${suite.suiteId}@${suite.version} and list each of its ${ids.length} tasks once`,
    ),
  );

  // Without a stated passScore no pass decision is fixed, so neither is judged.
  const passScore = suite.thresholds?.passScore;
  const rule = suite.trials?.passRule;
  const trials = events === undefined ? undefined : trialsByTask(events);
  // Each task's gating score where something says what it is; undefined where only an absent
  // gatedScore stands for it, because reading "absent" as "ungated" is the trap RFC 0246 §D closes.
  const gatings: (number | undefined)[] = [];
  for (const task of suite.tasks) {
    const entry = byId.get(task.taskId);
    const at = `task "${task.taskId}"`;
    const score = member(entry, 'score');
    const gated = member(entry, 'gatedScore');
    const passed = member(entry, 'passed');
    const hasTrajectory = task.expected.trajectory !== undefined;
    if (!hasTrajectory) {
      const redundant = typeof gated === 'number' && sameNumber(score, gated);
      out.push(
        finding(
          'task.gated-score-absent',
          !redundant,
          redundant
            ? `${at} has no trajectory and its gatedScore equals its score, so it MUST omit gatedScore`
            : `${at} has no trajectory and carries no redundant gatedScore`,
        ),
      );
    }
    if (hasTrajectory) {
      out.push(
        finding(
          'task.gated-score-present',
          typeof gated === 'number',
          `${at} has expected.trajectory, so it MUST carry gatedScore; host reported ${describe(gated)}`,
        ),
      );
    }
    const own = trials?.get(task.taskId);
    const perTrial = own?.map((t) => gatingOf(t, hasTrajectory));
    const fromTrials =
      perTrial !== undefined && perTrial.length > 0 && perTrial.every((g) => g !== undefined)
        ? mean(perTrial as number[])
        : undefined;
    const reported =
      typeof gated === 'number'
        ? gated
        : !hasTrajectory && typeof score === 'number'
          ? score
          : undefined;
    const gating = fromTrials ?? reported;
    gatings.push(gating);
    if (fromTrials !== undefined) {
      const want = fromTrials;
      out.push(
        finding(
          'task.gated-score-value',
          reported !== undefined && sameNumber(reported, want),
          `${at}: gatedScore MUST be the mean of its trial gating scores (${num(want)}); host reported ${describe(gated)}`,
        ),
      );
    } else if (typeof gated === 'number' && typeof score === 'number') {
      out.push(
        finding(
          'task.gated-score-value',
          gated <= score + EPSILON,
          `${at}: a gating score is each trial's score or 0, so gatedScore MUST NOT exceed score ${num(score)}; host reported ${num(gated)}`,
        ),
      );
    }
    if (own !== undefined) {
      out.push(
        finding(
          'task.score-unchanged',
          sameNumber(score, mean(own.map((t) => t.score))),
          `${at}: score MUST be the mean of its eval.scored scores (${num(mean(own.map((t) => t.score)))}); host reported ${describe(score)}`,
        ),
      );
    }
    const verdict = taskVerdict(rule, gating, passScore, own);
    if (verdict !== undefined) {
      out.push(
        finding(
          'task.passed',
          passed === verdict.want,
          `${at}: passed MUST be ${verdict.want} (${verdict.why}); host reported ${describe(passed)}`,
        ),
      );
    }
  }

  const scores = suite.tasks.map((t) => member(byId.get(t.taskId), 'score'));
  if (scores.every((s): s is number => typeof s === 'number')) {
    out.push(
      finding(
        'suite.aggregate-unchanged',
        sameNumber(member(summary, 'aggregateScore'), mean(scores)),
        `aggregateScore MUST be the mean of the task scores (${num(mean(scores))}); host reported ${describe(member(summary, 'aggregateScore'))}`,
      ),
    );
  }
  const anyTrajectory = suite.tasks.some((t) => t.expected.trajectory !== undefined);
  const gatedAggregate = member(summary, 'gatedAggregateScore');
  if (anyTrajectory) {
    out.push(
      finding(
        'suite.gated-aggregate-present',
        typeof gatedAggregate === 'number',
        `a suite with a trajectory task MUST carry gatedAggregateScore; host reported ${describe(gatedAggregate)}`,
      ),
    );
  }
  const known = gatings.every((g) => g !== undefined) ? mean(gatings as number[]) : undefined;
  if (known !== undefined && typeof gatedAggregate === 'number') {
    out.push(
      finding(
        'suite.gated-aggregate-value',
        sameNumber(gatedAggregate, known),
        `gatedAggregateScore MUST be the mean of the task gating scores (${num(known)}); host reported ${num(gatedAggregate)}`,
      ),
    );
  }
  const wantGated = known ?? (typeof gatedAggregate === 'number' ? gatedAggregate : undefined);
  const passed = member(summary, 'passed');
  const clears =
    wantGated !== undefined && passScore !== undefined && atLeast(wantGated, passScore);
  const limitsUnknown =
    suite.thresholds?.maxCostUsd !== undefined || suite.thresholds?.maxP95LatencyMs !== undefined;
  // With a cost or latency limit only one direction is certain: a gate that does not clear
  // passScore can never pass, whatever the limits say.
  if (wantGated !== undefined && passScore !== undefined && (!clears || !limitsUnknown)) {
    out.push(
      finding(
        'suite.passed',
        passed === clears,
        `suite passed MUST be ${clears} (gating aggregate ${num(wantGated)} ${clears ? '≥' : '<'} passScore ${num(passScore)}); host reported ${describe(passed)}`,
      ),
    );
  }
  const passedCount = entries.filter((e) => member(e, 'passed') === true).length;
  out.push(
    finding(
      'suite.counts',
      member(summary, 'taskCount') === ids.length && member(summary, 'passedCount') === passedCount,
      `taskCount MUST be ${ids.length} and passedCount ${passedCount}; host reported ${describe(member(summary, 'taskCount'))} and ${describe(member(summary, 'passedCount'))}`,
    ),
  );
  return out;
}

function taskVerdict(
  rule: 'all' | 'any' | 'mean' | undefined,
  gated: number | undefined,
  passScore: number | undefined,
  trials: readonly Trial[] | undefined,
): { want: boolean; why: string } | undefined {
  if (rule === undefined || rule === 'mean') {
    if (passScore === undefined) return undefined;
    // Without a trials block the one trial passes exactly when its gating score clears passScore,
    // given a positive passScore (a trial that failed its trajectory gates to 0).
    if (gated === undefined || (rule === undefined && passScore <= 0)) return undefined;
    const want = atLeast(gated, passScore);
    return {
      want,
      why: `gatedScore ${num(gated)} ${want ? '≥' : '<'} passScore ${num(passScore)}`,
    };
  }
  if (trials === undefined || !trials.every((t) => typeof t.passed === 'boolean')) return undefined;
  const passedTrials = trials.filter((t) => t.passed === true).length;
  const want = rule === 'all' ? passedTrials === trials.length : passedTrials > 0;
  return { want, why: `rule ${rule}, ${passedTrials} of ${trials.length} trials passed` };
}

/** Each task's trials, from the eval.scored payloads in log order. */
function trialsByTask(events: readonly unknown[]): Map<unknown, Trial[]> {
  const out = new Map<unknown, Trial[]>();
  for (const event of events) {
    if (member(event, 'type') !== 'eval.scored') continue;
    const p = member(event, 'payload');
    const score = member(p, 'score');
    if (!isRecord(p) || typeof score !== 'number') continue;
    const trial: Trial = {
      score,
      passed: p.passed,
      trajectoryMatched: p.trajectoryMatched,
      failedClosed: p.failedClosed,
    };
    const list = out.get(p.taskId) ?? [];
    list.push(trial);
    out.set(p.taskId, list);
  }
  return out;
}
