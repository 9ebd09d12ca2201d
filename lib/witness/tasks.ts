// Rules on each task entry of the summary: the score stays a measurement (RFC 0246 §C), the
// gated score is present where it must be and right where it is (§A, §D), and the task verdict
// follows its rule (§B). A missing entry reads as absent members, so its rules fail in place.

import type { Finding } from '../types.ts';
import type { ExpectedRun, ExpectedTask } from './expected.ts';
import { describe, finding, member, num, plural, sameNumber } from './finding.ts';

export interface SummaryTasks {
  readonly isArray: boolean;
  /** The items of `summary.tasks`, or none when it is not an array. */
  readonly entries: readonly unknown[];
  /** Entries by their string `taskId`, in order; more than one is a repeat. */
  readonly byId: ReadonlyMap<string, readonly unknown[]>;
  /** Entries without a string `taskId`. */
  readonly unnamed: number;
}

export function indexSummaryTasks(summary: unknown): SummaryTasks {
  const tasks = member(summary, 'tasks');
  const entries: readonly unknown[] = Array.isArray(tasks) ? tasks : [];
  const byId = new Map<string, unknown[]>();
  let unnamed = 0;
  for (const entry of entries) {
    const id = member(entry, 'taskId');
    if (typeof id !== 'string') {
      unnamed += 1;
      continue;
    }
    const list = byId.get(id);
    if (list === undefined) byId.set(id, [entry]);
    else list.push(entry);
  }
  return { isArray: Array.isArray(tasks), entries, byId, unnamed };
}

export function judgeTasks(expected: ExpectedRun, tasks: SummaryTasks): Finding[] {
  const out: Finding[] = [];
  for (const task of expected.tasks) {
    judgeTask(expected, task, tasks.byId.get(task.taskId)?.[0], out);
  }
  return out;
}

function judgeTask(
  expected: ExpectedRun,
  task: ExpectedTask,
  entry: unknown,
  out: Finding[],
): void {
  const who = `task "${task.taskId}"`;
  const n = task.trials.length;
  const score = member(entry, 'score');
  out.push(
    finding(
      'task.score-unchanged',
      sameNumber(score, task.score),
      `${who}: score MUST be ${num(task.score)} (mean of the ${n} trial output scores); host reported ${describe(score)}`,
    ),
  );

  const trials = member(entry, 'trials');
  if (expected.trialsBlock !== null) {
    const meanScore = member(trials, 'meanScore');
    out.push(
      finding(
        'task.mean-score',
        sameNumber(meanScore, task.score),
        `${who}: trials.meanScore MUST be ${num(task.score)} (mean of the ${n} trial output scores); host reported ${describe(meanScore)}`,
      ),
    );
  }
  if (trials !== undefined) out.push(judgeTrialStats(expected, task, trials, who));

  const gated = member(entry, 'gatedScore');
  const why = gatingReason(task);
  if (task.gatedScorePresence === 'required') {
    out.push(
      finding(
        'task.gated-score-present',
        gated !== undefined,
        `${who}: a task with a trajectory MUST carry gatedScore; host reported ${describe(gated)}`,
      ),
    );
  }
  if (task.gatedScorePresence === 'forbidden') {
    out.push(
      finding(
        'task.gated-score-absent',
        gated === undefined,
        `${who}: a task without a trajectory whose gating score equals its score MUST omit gatedScore; host reported ${describe(gated)}`,
      ),
    );
  }
  if (gated !== undefined) {
    out.push(
      finding(
        'task.gated-score-value',
        sameNumber(gated, task.gatedScore),
        `${who}: gatedScore MUST be ${num(task.gatedScore)} (${why}); host reported ${describe(gated)}`,
      ),
    );
  }

  const passed = member(entry, 'passed');
  out.push(
    finding(
      'task.passed',
      passed === task.passed,
      `${who}: passed MUST be ${task.passed} (${passReason(expected, task)}); host reported ${describe(passed)}`,
    ),
  );
}

function gatingReason(task: ExpectedTask): string {
  const n = task.trials.length;
  const { trajectoryFailed, failedClosed } = task.trialStats;
  const parts: string[] = [];
  if (trajectoryFailed > 0) parts.push(`trajectory failed in ${trajectoryFailed} of ${n} trials`);
  if (failedClosed > 0) parts.push(`failed closed in ${failedClosed} of ${n} trials`);
  return parts.length > 0 ? parts.join(', ') : `every gating score is its trial score`;
}

function passReason(expected: ExpectedRun, task: ExpectedTask): string {
  const n = task.trials.length;
  const passedTrials = task.trialStats.passed;
  const passScore = num(expected.thresholds.passScore);
  switch (expected.trialsBlock?.passRule) {
    case undefined:
      return `its one trial ${passedTrials === 1 ? 'passed' : 'did not pass'}${singleTrialNote(task, expected.thresholds.passScore)}`;
    case 'all':
    case 'any':
      return `rule ${expected.trialsBlock?.passRule}: ${passedTrials} of ${n} trials passed`;
    case 'mean':
      // A task without a trajectory omits gatedScore (RFC 0246 §D); its score is what gates it.
      return task.hasTrajectory
        ? `rule mean: gatedScore ${num(task.gatedScore)} ${task.passed ? '≥' : '<'} passScore ${passScore}`
        : `rule mean: score ${num(task.gatedScore)} ${task.passed ? '≥' : '<'} passScore ${passScore} with no trajectory to gate`;
  }
}

/**
 * Without a trials block the task's verdict is its trial's (contract §4). Reading gatedScore ≥
 * passScore instead agrees everywhere but at passScore 0, where a trial that failed its trajectory
 * or failed closed gates to 0 and still clears it; the message names that reading where it differs.
 */
function singleTrialNote(task: ExpectedTask, passScore: number): string {
  const trial = task.trials[0];
  const byGate = task.gatedScore >= passScore;
  if (trial === undefined || byGate === task.passed) return '';
  const why = trial.failedClosed ? 'failed closed' : 'failed its trajectory';
  return `, it ${why}; not gatedScore ${num(task.gatedScore)} ≥ passScore ${num(passScore)}`;
}

/** [0244-assumed] trial bookkeeping: each member the host carries must agree (SHOULD). */
function judgeTrialStats(
  expected: ExpectedRun,
  task: ExpectedTask,
  trials: unknown,
  who: string,
): Finding {
  const problems: string[] = [];
  const check = (label: string, got: unknown, want: number | string): void => {
    const ok = typeof want === 'number' ? sameNumber(got, want) : got === want;
    if (!ok)
      problems.push(
        `${label} ${describe(got)} (SHOULD be ${typeof want === 'number' ? num(want) : want})`,
      );
  };
  check('count', member(trials, 'count'), expected.trialCount);
  const block = expected.trialsBlock;
  if (block !== null) check('passRule', member(trials, 'passRule'), block.passRule);
  for (const key of ['passAtK', 'passHatK'] as const) {
    const got = member(trials, key);
    if (got !== undefined) check(key, got, task[key]);
  }
  const stats = member(trials, 'trialStats');
  if (stats !== undefined) {
    for (const key of [
      'passed',
      'trajectoryFailed',
      'failedClosed',
      'minScore',
      'maxScore',
    ] as const) {
      check(`trialStats.${key}`, member(stats, key), task.trialStats[key]);
    }
  }
  return finding(
    'task.trial-stats',
    problems.length === 0,
    problems.length === 0
      ? `${who}: trials bookkeeping agrees with its ${plural(task.trials.length, 'trial')}`
      : `${who}: trials bookkeeping SHOULD agree with the trials; host reported ${problems.join(', ')}`,
  );
}
