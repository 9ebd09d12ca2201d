// Rules on each eval.scored event, one finding per task: the reported score is the output score
// (RFC 0246 §C: a host may not zero it to fix the gate), the verdict is the trial's (RFC 0244 §A),
// and the optional flags agree. Events whose trial cannot be told are left to events.scored-count.

import type { Finding } from '../types.ts';
import type { ExpectedRun, ExpectedTask, ExpectedTrial } from './expected.ts';
import type { EventIndex, ScoredEvent } from './event-index.ts';
import { allOf, describe, finding, member, num, plural, sameNumber } from './finding.ts';

interface Miss {
  count: number;
  event: ScoredEvent | undefined;
  trial: ExpectedTrial | undefined;
}

const none = (): Miss => ({ count: 0, event: undefined, trial: undefined });

function note(miss: Miss, event: ScoredEvent, trial: ExpectedTrial): void {
  if (miss.count === 0) {
    miss.event = event;
    miss.trial = trial;
  }
  miss.count += 1;
}

export function judgeTrials(expected: ExpectedRun, index: EventIndex): Finding[] {
  const out: Finding[] = [];
  for (const task of expected.tasks) {
    const events = index.scoredByTask.get(task.taskId);
    if (events === undefined) continue;
    let judged = 0;
    const score = none();
    const verdict = none();
    const flags = none();
    for (const event of events) {
      const trial = event.trial === undefined ? undefined : task.trials[event.trial - 1];
      if (trial === undefined) continue;
      judged += 1;
      const p = event.payload;
      if (!sameNumber(member(p, 'score'), trial.score)) note(score, event, trial);
      if (member(p, 'passed') !== trial.passed) note(verdict, event, trial);
      if (!flagsAgree(p, trial)) note(flags, event, trial);
    }
    if (judged === 0) continue;
    const who = `task "${task.taskId}"`;
    const count = plural(judged, 'eval.scored event');
    out.push(
      finding(
        'trial.score-unchanged',
        score.count === 0,
        score.count === 0
          ? `${who}: ${allOf(judged, 'eval.scored event', { one: 'carries', many: 'carry' })} the output score`
          : `${who}: eval.scored.score MUST stay the output score; ${mismatch(score, 'score', (t) => scoreDerivation(task, t))}`,
      ),
      finding(
        'trial.passed',
        verdict.count === 0,
        verdict.count === 0
          ? `${who}: ${allOf(judged, 'eval.scored event', { one: 'carries', many: 'carry' })} the trial verdict`
          : `${who}: eval.scored.passed MUST be the trial verdict; ${mismatch(verdict, 'passed', verdictWithReason)}`,
      ),
      finding(
        'trial.flags',
        flags.count === 0,
        flags.count === 0
          ? `${who}: trajectoryMatched and failedClosed, where carried, agree in ${judged === 1 ? 'the 1 eval.scored event' : `all ${count}`}`
          : `${who}: eval.scored flags SHOULD agree with the trial; ${flagMismatch(flags)}`,
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

const OUTPUT_SHOWN = 60;

/** A scripted output or golden value, as JSON, cut when long. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > OUTPUT_SHOWN ? `${text.slice(0, OUTPUT_SHOWN)}…` : text;
}

/**
 * How the witness reached a trial's score, so a host whose own grade differs can see which step
 * it disagrees with: the output as the fixture scripts it, the golden value, the strategy.
 */
function scoreDerivation(task: ExpectedTask, trial: ExpectedTrial): string {
  const witness = `the witness scores ${num(trial.score)}`;
  if (trial.failedClosed) {
    return `${num(trial.score)} (it failed closed on ${trial.missedTool ?? 'a tool'} without a canned response, so ${witness})`;
  }
  const compared = `the scripted output ${shown(trial.output)} ${trial.outputMatched ? 'matches' : 'does not match'} golden ${shown(task.golden.value)} by ${task.golden.strategy}`;
  return `${num(trial.score)} (${compared}, so ${witness})`;
}

function verdictWithReason(trial: ExpectedTrial): string {
  if (trial.passed) return 'true';
  if (trial.failedClosed) return `false, failed closed on ${trial.missedTool ?? 'a tool'}`;
  if (trial.forbiddenHit !== null) return `false, forbidden tool ${trial.forbiddenHit}`;
  if (trial.trajectoryMatched === false) return 'false, trajectory did not match';
  return `false, score ${num(trial.score)} below passScore`;
}

function andMore(miss: Miss): string {
  return miss.count > 1 ? ` (and ${miss.count - 1} more)` : '';
}

function mismatch(miss: Miss, key: string, want: (t: ExpectedTrial) => string): string {
  const { event, trial } = miss as { event: ScoredEvent; trial: ExpectedTrial };
  return `trial ${event.trial ?? '?'} MUST be ${want(trial)}, host reported ${key} ${describe(member(event.payload, key))}${andMore(miss)}`;
}

function flagMismatch(miss: Miss): string {
  const { event, trial } = miss as { event: ScoredEvent; trial: ExpectedTrial };
  return (
    `trial ${event.trial ?? '?'} is trajectoryMatched ${String(trial.trajectoryMatched ?? true)}, failedClosed ${String(trial.failedClosed)}; ` +
    `host reported ${describe(member(event.payload, 'trajectoryMatched'))}, ${describe(member(event.payload, 'failedClosed'))}${andMore(miss)}`
  );
}
