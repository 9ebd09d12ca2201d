// Rules on the run and its log as transport (contract §6): the run's final status, every event's
// envelope and run id, ascending sequences, and the long-poll cursor that delivered them.

import type { Finding, ObservedPage, RunObservation } from '../types.ts';
import { allOf, describe, doesNot, eventAt, finding, member, plural } from './finding.ts';
import { judgeLastSequence } from './last-sequence.ts';
import { replayProblems, replaysHeld } from './replays.ts';

export function judgeLog(observation: RunObservation, events: readonly unknown[]): Finding[] {
  return [
    judgeRunStatus(observation.runStatus),
    ...judgeEnvelopes(events, observation.runId),
    judgeCursor(observation, events),
    judgeLastSequence(observation, events),
  ];
}

function judgeRunStatus(status: unknown): Finding {
  return finding(
    'run.completed-status',
    status === 'completed',
    `the run status MUST be "completed" once scored, whether or not the suite passed; host reported ${describe(status)}`,
  );
}

/** Envelope, run id and ascending sequence, in one walk of the log. */
function judgeEnvelopes(events: readonly unknown[], runId: string): Finding[] {
  let badEnvelope = 0;
  let firstBad = '';
  let foreign = 0;
  let firstForeign = '';
  let descents = 0;
  let firstDescent = '';
  let previous: number | undefined;
  for (let i = 0; i < events.length; i += 1) {
    const event = events[i];
    const sequence = member(event, 'sequence');
    const type = member(event, 'type');
    const eventRunId = member(event, 'runId');
    const seqOk = typeof sequence === 'number' && Number.isSafeInteger(sequence) && sequence >= 0;
    if (!seqOk || typeof type !== 'string' || type === '' || typeof eventRunId !== 'string') {
      if (badEnvelope === 0) {
        firstBad = `${eventAt(event, i)} has type ${describe(type)}, runId ${describe(eventRunId)}`;
      }
      badEnvelope += 1;
    }
    if (eventRunId !== runId) {
      if (foreign === 0) firstForeign = `${eventAt(event, i)} names ${describe(eventRunId)}`;
      foreign += 1;
    }
    if (typeof sequence === 'number') {
      if (previous !== undefined && !(sequence > previous)) {
        if (descents === 0)
          firstDescent = `sequence ${sequence}, at log position ${i + 1}, follows sequence ${previous}`;
        descents += 1;
      }
      previous = sequence;
    }
  }
  const total = plural(events.length, 'event');
  return [
    finding(
      'events.envelope',
      badEnvelope === 0,
      badEnvelope === 0
        ? `${allOf(events.length, 'event', { one: 'carries', many: 'carry' })} an integer sequence, a type and a runId`
        : `every event MUST carry an integer sequence ≥ 0, a type and a runId; ${badEnvelope} of ${total} ${doesNot(badEnvelope)} (${firstBad})`,
    ),
    finding(
      'events.run-id',
      foreign === 0,
      foreign === 0
        ? `${allOf(events.length, 'event', { one: 'names', many: 'name' })} run ${JSON.stringify(runId)}`
        : `every event MUST name run ${JSON.stringify(runId)}; ${foreign} of ${total} ${doesNot(foreign)} (${firstForeign})`,
    ),
    finding(
      'events.sequence-ascending',
      descents === 0,
      descents === 0
        ? `the sequences of all ${total} strictly ascend`
        : `event sequences MUST strictly ascend; ${plural(descents, 'event')} ${doesNot(descents)} (${firstDescent})`,
    ),
  ];
}

/**
 * The long-poll cursor: each page's events are after its afterSequence, and the end is final;
 * then each replay of the finished log returns what the first read implies. The first read's
 * problems come first, because a broken first read is what any replay problem follows from.
 */
function judgeCursor(observation: RunObservation, events: readonly unknown[]): Finding {
  const pages = Array.isArray(observation.pages) ? observation.pages : [];
  const problems = firstReadProblems(pages, events);
  // An observation recorded before replays is judged, and said, exactly as it was then.
  const replays = observation.replays;
  if (replays === undefined) {
    return cursorFinding(
      problems,
      FIRST_READ_RULE,
      `${plural(pages.length, 'page')}: ${FIRST_READ_HELD}`,
    );
  }
  problems.push(...replayProblems(replays, events));
  // replayProblems reports replays that are not a list, so a holding finding always has one.
  const held = Array.isArray(replays) ? replaysHeld(replays) : '';
  const said = `${plural(pages.length, 'page')}: ${FIRST_READ_HELD}; ${held}`;
  return cursorFinding(problems, REPLAYED_RULE, said);
}

const FIRST_READ_HELD =
  'each page after its afterSequence, lastSequence never decreasing, ending terminal';
const FIRST_READ_RULE = 'the event cursor MUST page forward and end terminal';
const REPLAYED_RULE =
  'the event cursor MUST page forward, end terminal, and answer a re-read after any sequence it sent with exactly the events after it';

function cursorFinding(problems: readonly string[], rule: string, held: string): Finding {
  return finding(
    'events.cursor',
    problems.length === 0,
    problems.length === 0
      ? held
      : `${rule}; ${problems.slice(0, 3).join('; ')}${more(problems.length, 3)}`,
  );
}

function firstReadProblems(pages: readonly ObservedPage[], events: readonly unknown[]): string[] {
  const problems: string[] = [];
  let offset = 0;
  let highest: number | undefined;
  let terminalAt: number | undefined;
  pages.forEach((page, i) => {
    const label = `page ${i + 1}`;
    const count =
      Number.isSafeInteger(page.eventCount) && page.eventCount > 0 ? page.eventCount : 0;
    const after = page.afterSequence;
    if (after !== null) {
      for (let k = offset; k < offset + count && k < events.length; k += 1) {
        const sequence = member(events[k], 'sequence');
        if (typeof sequence === 'number' && !(sequence > after)) {
          problems.push(`${label} (afterSequence ${after}) holds sequence ${sequence}`);
          break;
        }
      }
    }
    offset += count;
    const last = page.lastSequence;
    if (typeof last === 'number') {
      if (highest !== undefined && last < highest) {
        problems.push(`${label} lastSequence ${last} is below an earlier ${highest}`);
      }
      highest = highest === undefined ? last : Math.max(highest, last);
    }
    if (typeof page.isTerminal !== 'boolean') {
      problems.push(`${label} isTerminal is ${describe(page.isTerminal)}`);
    } else if (terminalAt !== undefined && !page.isTerminal) {
      problems.push(`${label} says isTerminal false after page ${terminalAt} said true`);
    }
    if (page.isTerminal === true && terminalAt === undefined) terminalAt = i + 1;
  });
  const final = pages[pages.length - 1];
  if (final === undefined) problems.push('no page was observed');
  else if (final.isTerminal !== true)
    problems.push(`the last page (${pages.length}) is not terminal`);
  return problems;
}

function more(total: number, shown: number): string {
  return total > shown ? `; and ${total - shown} more` : '';
}
