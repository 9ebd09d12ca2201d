// Rules on the event log and the cursor that delivered it (contract §6, §7): envelope, order,
// paging, the eval.* sequence, payload schemas and the eval.scored count.

import type { Finding, ObservedPage, RunObservation } from '../types.ts';
import { formatSchemaErrors, validate, type SchemaError, type SchemaName } from '../schemas.ts';
import type { ExpectedRun } from './expected.ts';
import type { EventIndex } from './event-index.ts';
import { isTrialIn } from './event-index.ts';
import { describe, finding, member, plural } from './finding.ts';

export function judgeEvents(
  observation: RunObservation,
  index: EventIndex,
  expected: ExpectedRun,
): Finding[] {
  return [
    judgeRunStatus(observation.runStatus),
    ...judgeEnvelopes(index.events, observation.runId),
    judgeCursor(Array.isArray(observation.pages) ? observation.pages : [], index.events),
    judgeStartedFirst(index),
    judgeCompletedOnce(index),
    ...judgePayloadSchemas(index),
    judgeScoredCount(index, expected),
    ...judgeStarted(index, expected),
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
        firstBad = `event ${i + 1} has sequence ${describe(sequence)}, type ${describe(type)}, runId ${describe(eventRunId)}`;
      }
      badEnvelope += 1;
    }
    if (eventRunId !== runId) {
      if (foreign === 0) firstForeign = `event ${i + 1} names ${describe(eventRunId)}`;
      foreign += 1;
    }
    if (typeof sequence === 'number') {
      if (previous !== undefined && !(sequence > previous)) {
        if (descents === 0) firstDescent = `event ${i + 1} has ${sequence} after ${previous}`;
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
        ? `all ${total} carry an integer sequence, a type and a runId`
        : `every event MUST carry an integer sequence ≥ 0, a type and a runId; ${badEnvelope} of ${total} do not (${firstBad})`,
    ),
    finding(
      'events.run-id',
      foreign === 0,
      foreign === 0
        ? `all ${total} name run ${JSON.stringify(runId)}`
        : `every event MUST name run ${JSON.stringify(runId)}; ${foreign} of ${total} do not (${firstForeign})`,
    ),
    finding(
      'events.sequence-ascending',
      descents === 0,
      descents === 0
        ? `the sequences of all ${total} strictly ascend`
        : `event sequences MUST strictly ascend; ${plural(descents, 'event')} do not (${firstDescent})`,
    ),
  ];
}

/** The long-poll cursor: each page's events are after its afterSequence, and the end is final. */
function judgeCursor(pages: readonly ObservedPage[], events: readonly unknown[]): Finding {
  const problems: string[] = [];
  let offset = 0;
  let highest: number | undefined;
  let terminalAt: number | undefined;
  pages.forEach((page, i) => {
    const label = `page ${i + 1}`;
    const count = Number.isSafeInteger(page.eventCount) && page.eventCount > 0 ? page.eventCount : 0;
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
  else if (final.isTerminal !== true) problems.push(`the last page (${pages.length}) is not terminal`);
  return finding(
    'events.cursor',
    problems.length === 0,
    problems.length === 0
      ? `${plural(pages.length, 'page')}: each page after its afterSequence, lastSequence never decreasing, ending terminal`
      : `the event cursor MUST page forward and end terminal; ${problems.slice(0, 3).join('; ')}${more(problems.length, 3)}`,
  );
}

function judgeStartedFirst(index: EventIndex): Finding {
  const first = index.evalEvents[0];
  const only = index.started[0];
  const ok = index.started.length === 1 && only !== undefined && only === first;
  const seen =
    index.started.length !== 1
      ? `saw ${plural(index.started.length, 'eval.started')}`
      : `eval.started is at log position ${(only?.position ?? 0) + 1}, after ${first?.type ?? 'nothing'} at ${(first?.position ?? 0) + 1}`;
  return finding(
    'events.started-first',
    ok,
    ok
      ? 'exactly one eval.started, first among eval.* events'
      : `exactly one eval.started MUST come before every other eval.* event; ${seen}`,
  );
}

function judgeCompletedOnce(index: EventIndex): Finding {
  const only = index.completed[0];
  const lastScored = index.scored[index.scored.length - 1];
  const ok =
    index.completed.length === 1 &&
    only !== undefined &&
    (lastScored === undefined || only.position > lastScored.position);
  const seen =
    index.completed.length !== 1
      ? `saw ${plural(index.completed.length, 'eval.completed')}`
      : `eval.completed is at log position ${(only?.position ?? 0) + 1}, before an eval.scored at ${(lastScored?.position ?? 0) + 1}`;
  return finding(
    'events.completed-once',
    ok,
    ok
      ? 'exactly one eval.completed, after every eval.scored'
      : `exactly one eval.completed MUST follow every eval.scored; ${seen}`,
  );
}

const PAYLOAD_SCHEMAS: ReadonlyMap<string, SchemaName> = new Map<string, SchemaName>([
  ['eval.started', 'eval-started'],
  ['eval.scored', 'eval-scored'],
  ['eval.completed', 'eval-completed'],
]);

/** One finding per eval.* type seen; each payload is validated once. */
function judgePayloadSchemas(index: EventIndex): Finding[] {
  const tally = new Map<string, { seen: number; failed: number; first: readonly SchemaError[] }>();
  for (const event of index.evalEvents) {
    const schema = PAYLOAD_SCHEMAS.get(event.type);
    if (schema === undefined) continue;
    let entry = tally.get(event.type);
    if (entry === undefined) {
      entry = { seen: 0, failed: 0, first: [] };
      tally.set(event.type, entry);
    }
    entry.seen += 1;
    const errors = validate(schema, event.payload);
    if (errors.length > 0) {
      if (entry.failed === 0) entry.first = errors;
      entry.failed += 1;
    }
  }
  return [...tally].map(([type, t]) =>
    finding(
      'events.payload-schema',
      t.failed === 0,
      t.failed === 0
        ? `every ${type} payload validates (${t.seen} seen)`
        : `every ${type} payload MUST validate; ${t.failed} of ${t.seen} do not: ${formatSchemaErrors(t.first, 2)}`,
    ),
  );
}

/** taskCount × n eval.scored events, each (task, trial) exactly once (contract §7). */
function judgeScoredCount(index: EventIndex, expected: ExpectedRun): Finding {
  const n = expected.trialCount;
  const hasBlock = expected.trialsBlock !== null;
  const counts = new Map<string, number[]>();
  for (const task of expected.tasks) counts.set(task.taskId, new Array<number>(n + 1).fill(0));
  const problems: string[] = [];
  let unknown = 0;
  let badTrial = 0;
  for (const event of index.scored) {
    const perTrial = event.taskId === undefined ? undefined : counts.get(event.taskId);
    if (perTrial === undefined) {
      if (unknown === 0) problems.push(`an eval.scored names task ${describe(event.taskId)}`);
      unknown += 1;
      continue;
    }
    const reported = event.reportedTrial;
    const trialOk = hasBlock ? isTrialIn(reported, n) : reported === undefined || reported === 1;
    if (!trialOk || event.trial === undefined) {
      if (badTrial === 0) problems.push(`task "${event.taskId}" has trial ${describe(reported)}`);
      badTrial += 1;
      continue;
    }
    perTrial[event.trial] = (perTrial[event.trial] ?? 0) + 1;
  }
  let missing = 0;
  let duplicated = 0;
  for (const [taskId, perTrial] of counts) {
    for (let t = 1; t <= n; t += 1) {
      const c = perTrial[t] ?? 0;
      if (c === 0 && missing++ === 0) problems.push(`task "${taskId}" trial ${t} is missing`);
      if (c > 1 && duplicated++ === 0) problems.push(`task "${taskId}" trial ${t} is scored ${c} times`);
    }
  }
  const seen = index.scored.length;
  const ok = problems.length === 0 && seen === expected.scoredCount;
  const want = `${expected.taskCount} × ${n} = ${expected.scoredCount}`;
  return finding(
    'events.scored-count',
    ok,
    ok
      ? `${want} eval.scored events, one per (task, trial)`
      : `eval.scored MUST number taskCount × n = ${want}, one per (task, trial); saw ${seen}` +
          (problems.length === 0 ? '' : ` (${problems.join('; ')})`),
  );
}

function judgeStarted(index: EventIndex, expected: ExpectedRun): Finding[] {
  const started = index.started[0];
  if (started === undefined) return [];
  const p = started.payload;
  const problems: string[] = [];
  const expect = (key: string, want: unknown): void => {
    const got = member(p, key);
    if (got !== want) problems.push(`${key} MUST be ${describe(want)}, host reported ${describe(got)}`);
  };
  expect('suiteId', expected.suiteId);
  expect('suiteVersion', expected.suiteVersion);
  expect('taskCount', expected.taskCount);
  const modes = member(p, 'modes');
  const sameModes =
    Array.isArray(modes) &&
    modes.length === expected.modes.length &&
    expected.modes.every((m) => modes.includes(m));
  if (!sameModes) problems.push(`modes MUST be [${expected.modes.join(', ')}], host reported ${describe(modes)}`);

  const trials = member(p, 'trials');
  const block = expected.trialsBlock;
  const trialsOk =
    trials === undefined ||
    (block !== null &&
      member(trials, 'count') === block.count &&
      member(trials, 'passRule') === block.passRule);
  const want = block === null ? 'absent' : `{count ${block.count}, passRule ${block.passRule}}`;
  return [
    finding(
      'events.started-consistent',
      problems.length === 0,
      problems.length === 0
        ? `eval.started names ${expected.suiteId}@${expected.suiteVersion}, ${expected.taskCount} tasks`
        : `eval.started MUST describe the suite run; ${problems.join('; ')}`,
    ),
    finding(
      'events.started-trials',
      trialsOk,
      trials === undefined
        ? 'eval.started carries no trials block'
        : trialsOk
          ? `eval.started.trials is ${want}`
          : `eval.started.trials SHOULD be ${want}; host reported count ${describe(member(trials, 'count'))}, passRule ${describe(member(trials, 'passRule'))}`,
    ),
  ];
}

function more(total: number, shown: number): string {
  return total > shown ? `; and ${total - shown} more` : '';
}
