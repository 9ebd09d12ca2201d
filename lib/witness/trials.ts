// Rules on each eval.scored event, one finding per task: the reported score is the output score
// (RFC 0246 §C: a host may not zero it to fix the gate), the verdict is the trial's (RFC 0244 §A),
// and the optional flags agree. Events whose trial cannot be told are left to events.scored-count.

import type { Finding } from '../types.ts';
import type { ExpectedRun, ExpectedTrial } from './expected.ts';
import type { EventIndex, ScoredEvent } from './event-index.ts';
import { describe, finding, member, num, plural, sameNumber } from './finding.ts';

export function judgeTrials(expected: ExpectedRun, index: EventIndex): Finding[] {
  const out: Finding[] = [];
  for (const task of expected.tasks) {
    const events = index.scoredByTask.get(task.taskId);
    if (events === undefined) continue;
    const judged: [ScoredEvent, ExpectedTrial][] = [];
    for (const event of events) {
      const trial = event.trial === undefined ? undefined : task.trials[event.trial - 1];
      if (trial !== undefined) judged.push([event, trial]);
    }
    if (judged.length === 0) continue;
    const who = `task "${task.taskId}"`;
    const count = plural(judged.length, 'eval.scored event');

    const wrongScore = judged.filter(([e, t]) => !sameNumber(member(e.payload, 'score'), t.score));
    out.push(
      finding(
        'trial.score-unchanged',
        wrongScore.length === 0,
        wrongScore.length === 0
          ? `${who}: all ${count} carry the output score`
          : `${who}: eval.scored.score MUST stay the output score; ${mismatch(wrongScore, 'score', (t) => num(t.score))}`,
      ),
    );

    const wrongVerdict = judged.filter(([e, t]) => member(e.payload, 'passed') !== t.passed);
    out.push(
      finding(
        'trial.passed',
        wrongVerdict.length === 0,
        wrongVerdict.length === 0
          ? `${who}: all ${count} carry the trial verdict`
          : `${who}: eval.scored.passed MUST be the trial verdict; ${mismatch(wrongVerdict, 'passed', verdictWithReason)}`,
      ),
    );

    const wrongFlags = judged.filter(([e, t]) => !flagsAgree(e.payload, t));
    out.push(
      finding(
        'trial.flags',
        wrongFlags.length === 0,
        wrongFlags.length === 0
          ? `${who}: trajectoryMatched and failedClosed, where carried, agree in all ${count}`
          : `${who}: eval.scored flags SHOULD agree with the trial; ${flagMismatch(wrongFlags)}`,
      ),
    );
  }
  return out;
}

/**
 * A flag that is carried must be right. A task without a trajectory has nothing to fail, so
 * `trajectoryMatched` may only be true there.
 */
function flagsAgree(payload: unknown, trial: ExpectedTrial): boolean {
  const matched = member(payload, 'trajectoryMatched');
  const closed = member(payload, 'failedClosed');
  const matchedOk = matched === undefined || matched === (trial.trajectoryMatched ?? true);
  const closedOk = closed === undefined || closed === trial.failedClosed;
  return matchedOk && closedOk;
}

function verdictWithReason(trial: ExpectedTrial): string {
  if (trial.passed) return 'true';
  if (trial.failedClosed) return `false, failed closed on ${trial.missedTool ?? 'a tool'}`;
  if (trial.forbiddenHit !== null) return `false, forbidden tool ${trial.forbiddenHit}`;
  if (trial.trajectoryMatched === false) return 'false, trajectory did not match';
  return `false, score ${num(trial.score)} below passScore`;
}

function mismatch(
  wrong: readonly [ScoredEvent, ExpectedTrial][],
  key: string,
  want: (t: ExpectedTrial) => string,
): string {
  const [event, trial] = wrong[0] as [ScoredEvent, ExpectedTrial];
  const rest = wrong.length > 1 ? ` (and ${wrong.length - 1} more)` : '';
  return `trial ${trial.trial} MUST be ${want(trial)}, host reported ${key} ${describe(member(event.payload, key))}${rest}`;
}

function flagMismatch(wrong: readonly [ScoredEvent, ExpectedTrial][]): string {
  const [event, trial] = wrong[0] as [ScoredEvent, ExpectedTrial];
  const rest = wrong.length > 1 ? ` (and ${wrong.length - 1} more)` : '';
  return (
    `trial ${trial.trial} is trajectoryMatched ${String(trial.trajectoryMatched ?? true)}, failedClosed ${String(trial.failedClosed)}; ` +
    `host reported ${describe(member(event.payload, 'trajectoryMatched'))}, ${describe(member(event.payload, 'failedClosed'))}${rest}`
  );
}
