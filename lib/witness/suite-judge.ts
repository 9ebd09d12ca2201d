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

/** What every rule below reads: the suite, the summary's task entries by id, the trials. */
interface SuiteContext {
  readonly suite: AgentEvalSuite;
  readonly summary: unknown;
  readonly entries: readonly unknown[];
  readonly byId: ReadonlyMap<unknown, unknown>;
  /** Without a stated passScore no pass decision is fixed, so neither is judged. */
  readonly passScore: number | undefined;
  readonly rule: 'all' | 'any' | 'mean' | undefined;
  /** Each task's trials from the eval.scored events, when the events were given. */
  readonly trials: Map<unknown, Trial[]> | undefined;
}

export function judgeSummaryAgainstSuite(
  suite: AgentEvalSuite,
  summary: unknown,
  events: readonly unknown[] | undefined,
): Finding[] {
  const entries = Array.isArray(member(summary, 'tasks'))
    ? (member(summary, 'tasks') as unknown[])
    : [];
  const context: SuiteContext = {
    suite,
    summary,
    entries,
    byId: new Map(entries.map((e) => [member(e, 'taskId'), e])),
    passScore: suite.thresholds?.passScore,
    rule: suite.trials?.passRule,
    trials: events === undefined ? undefined : trialsByTask(events),
  };
  const out: Finding[] = [judgeSchema(summary), judgeContentFree(summary), judgeIdentity(context)];
  // Each task's gating score where something says what it is; undefined where only an absent
  // gatedScore stands for it, because reading "absent" as "ungated" is the trap RFC 0246 §D closes.
  const gatings: (number | undefined)[] = [];
  for (const task of suite.tasks) {
    const judged = judgeTask(context, task);
    out.push(...judged.findings);
    gatings.push(judged.gating);
  }
  out.push(...judgeAggregate(context));
  const known = gatings.every((g) => g !== undefined) ? mean(gatings as number[]) : undefined;
  out.push(...judgeGatedAggregate(context, known));
  out.push(...judgeSuitePassed(context, known));
  out.push(judgeCounts(context));
  return out;
}

function judgeSchema(summary: unknown): Finding {
  const schema = validate('eval-summary', summary);
  return finding(
    'summary.schema',
    schema.length === 0,
    schema.length === 0
      ? 'the summary validates against eval-summary'
      : `the summary MUST validate against eval-summary: ${schemaProblems(schema, summary, 3)}`,
  );
}

function judgeContentFree(summary: unknown): Finding {
  const leak = findContentKey(summary);
  return finding(
    'content-free',
    leak === null,
    leak === null
      ? 'the summary carries no content key'
      : `the summary MUST NOT carry task content; it has summary${leak}`,
  );
}

function judgeIdentity({ suite, summary, entries, byId }: SuiteContext): Finding {
  const ids = suite.tasks.map((t) => t.taskId);
  const listed = entries.length === ids.length && ids.every((id) => byId.has(id));
  return finding(
    'summary.identity',
    listed &&
      member(summary, 'suiteId') === suite.suiteId &&
      member(summary, 'suiteVersion') === suite.version,
    `the summary MUST name ${suite.suiteId}@${suite.version} and list each of its ${ids.length} tasks once`,
  );
}

type SuiteTask = AgentEvalSuite['tasks'][number];

/** Every rule on one task entry, and the task's gating score where something fixes it. */
function judgeTask(
  context: SuiteContext,
  task: SuiteTask,
): { findings: Finding[]; gating: number | undefined } {
  const entry = context.byId.get(task.taskId);
  const at = `task "${task.taskId}"`;
  const score = member(entry, 'score');
  const gated = member(entry, 'gatedScore');
  const hasTrajectory = task.expected.trajectory !== undefined;
  const findings = [judgeGatedPresence(at, hasTrajectory, score, gated)];
  const own = context.trials?.get(task.taskId);
  const fromTrials = gatingFromTrials(own, hasTrajectory);
  const reported =
    typeof gated === 'number'
      ? gated
      : !hasTrajectory && typeof score === 'number'
        ? score
        : undefined;
  const gating = fromTrials ?? reported;
  findings.push(...judgeGatedValue(at, fromTrials, reported, score, gated));
  if (own !== undefined) findings.push(judgeTaskScore(at, own, score));
  // A task without a trajectory whose summary carries no gatedScore is gated on its score, and
  // the message says so rather than quote a field the host must not send (RFC 0246 §D).
  const field = hasTrajectory || typeof gated === 'number' ? 'gatedScore' : 'score';
  const verdict = taskVerdict(context.rule, gating, context.passScore, own, field);
  if (verdict !== undefined) {
    const passed = member(entry, 'passed');
    findings.push(
      finding(
        'task.passed',
        passed === verdict.want,
        `${at}: passed MUST be ${verdict.want} (${verdict.why}); host reported ${describe(passed)}`,
      ),
    );
  }
  return { findings, gating };
}

/** RFC 0246 §D: gatedScore on every trajectory task, and never a redundant one elsewhere. */
function judgeGatedPresence(
  at: string,
  hasTrajectory: boolean,
  score: unknown,
  gated: unknown,
): Finding {
  if (hasTrajectory) {
    return finding(
      'task.gated-score-present',
      typeof gated === 'number',
      `${at} has expected.trajectory, so it MUST carry gatedScore; host reported ${describe(gated)}`,
    );
  }
  const redundant = typeof gated === 'number' && sameNumber(score, gated);
  return finding(
    'task.gated-score-absent',
    !redundant,
    redundant
      ? `${at} has no trajectory and its gatedScore equals its score, so it MUST omit gatedScore`
      : `${at} has no trajectory and carries no redundant gatedScore`,
  );
}

/** The mean of the trials' gating scores, when every trial's flags say what it is. */
function gatingFromTrials(
  own: readonly Trial[] | undefined,
  hasTrajectory: boolean,
): number | undefined {
  const perTrial = own?.map((t) => gatingOf(t, hasTrajectory));
  return perTrial !== undefined && perTrial.length > 0 && perTrial.every((g) => g !== undefined)
    ? mean(perTrial as number[])
    : undefined;
}

/** RFC 0246 §A: from the trials when known, else at least no higher than the score. */
function judgeGatedValue(
  at: string,
  fromTrials: number | undefined,
  reported: number | undefined,
  score: unknown,
  gated: unknown,
): Finding[] {
  if (fromTrials !== undefined) {
    return [
      finding(
        'task.gated-score-value',
        reported !== undefined && sameNumber(reported, fromTrials),
        `${at}: gatedScore MUST be the mean of its trial gating scores (${num(fromTrials)}); host reported ${describe(gated)}`,
      ),
    ];
  }
  if (typeof gated === 'number' && typeof score === 'number') {
    return [
      finding(
        'task.gated-score-value',
        gated <= score + EPSILON,
        `${at}: a gating score is each trial's score or 0, so gatedScore MUST NOT exceed score ${num(score)}; host reported ${num(gated)}`,
      ),
    ];
  }
  return [];
}

function judgeTaskScore(at: string, own: readonly Trial[], score: unknown): Finding {
  const want = mean(own.map((t) => t.score));
  return finding(
    'task.score-unchanged',
    sameNumber(score, want),
    `${at}: score MUST be the mean of its eval.scored scores (${num(want)}); host reported ${describe(score)}`,
  );
}

function judgeAggregate({ suite, summary, byId }: SuiteContext): Finding[] {
  const scores = suite.tasks.map((t) => member(byId.get(t.taskId), 'score'));
  if (!scores.every((s): s is number => typeof s === 'number')) return [];
  return [
    finding(
      'suite.aggregate-unchanged',
      sameNumber(member(summary, 'aggregateScore'), mean(scores)),
      `aggregateScore MUST be the mean of the task scores (${num(mean(scores))}); host reported ${describe(member(summary, 'aggregateScore'))}`,
    ),
  ];
}

function judgeGatedAggregate(
  { suite, summary }: SuiteContext,
  known: number | undefined,
): Finding[] {
  const out: Finding[] = [];
  const gatedAggregate = member(summary, 'gatedAggregateScore');
  if (suite.tasks.some((t) => t.expected.trajectory !== undefined)) {
    out.push(
      finding(
        'suite.gated-aggregate-present',
        typeof gatedAggregate === 'number',
        `a suite with a trajectory task MUST carry gatedAggregateScore; host reported ${describe(gatedAggregate)}`,
      ),
    );
  }
  if (known !== undefined && typeof gatedAggregate === 'number') {
    out.push(
      finding(
        'suite.gated-aggregate-value',
        sameNumber(gatedAggregate, known),
        `gatedAggregateScore MUST be the mean of the task gating scores (${num(known)}); host reported ${num(gatedAggregate)}`,
      ),
    );
  }
  return out;
}

function judgeSuitePassed(
  { suite, summary, passScore }: SuiteContext,
  known: number | undefined,
): Finding[] {
  const gatedAggregate = member(summary, 'gatedAggregateScore');
  const wantGated = known ?? (typeof gatedAggregate === 'number' ? gatedAggregate : undefined);
  const passed = member(summary, 'passed');
  const clears =
    wantGated !== undefined && passScore !== undefined && atLeast(wantGated, passScore);
  const limitsUnknown =
    suite.thresholds?.maxCostUsd !== undefined || suite.thresholds?.maxP95LatencyMs !== undefined;
  // With a cost or latency limit only one direction is certain: a gate that does not clear
  // passScore can never pass, whatever the limits say.
  if (wantGated === undefined || passScore === undefined || (clears && limitsUnknown)) return [];
  return [
    finding(
      'suite.passed',
      passed === clears,
      `suite passed MUST be ${clears} (gating aggregate ${num(wantGated)} ${clears ? '≥' : '<'} passScore ${num(passScore)}); host reported ${describe(passed)}`,
    ),
  ];
}

function judgeCounts({ suite, summary, entries }: SuiteContext): Finding {
  const taskCount = suite.tasks.length;
  const passedCount = entries.filter((e) => member(e, 'passed') === true).length;
  return finding(
    'suite.counts',
    member(summary, 'taskCount') === taskCount && member(summary, 'passedCount') === passedCount,
    `taskCount MUST be ${taskCount} and passedCount ${passedCount}; host reported ${describe(member(summary, 'taskCount'))} and ${describe(member(summary, 'passedCount'))}`,
  );
}

function taskVerdict(
  rule: 'all' | 'any' | 'mean' | undefined,
  gated: number | undefined,
  passScore: number | undefined,
  trials: readonly Trial[] | undefined,
  field: 'gatedScore' | 'score',
): { want: boolean; why: string } | undefined {
  if (rule === undefined || rule === 'mean') {
    if (passScore === undefined) return undefined;
    // Without a trials block the one trial passes exactly when its gating score clears passScore,
    // given a positive passScore (a trial that failed its trajectory gates to 0).
    if (gated === undefined || (rule === undefined && passScore <= 0)) return undefined;
    const want = atLeast(gated, passScore);
    return {
      want,
      why: `${field} ${num(gated)} ${want ? '≥' : '<'} passScore ${num(passScore)}`,
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
