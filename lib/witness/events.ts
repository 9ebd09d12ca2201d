// Rules on the eval.* events (contract §7): eval.started first and consistent with the suite,
// eval.completed once and last, every payload valid, one eval.scored per (task, trial), and the
// run.completed that ends the log.

import type { Finding } from '../types.ts';
import { validate, type SchemaName } from '../schemas.ts';
import type { ExpectedRun } from './expected.ts';
import type { EventIndex } from './event-index.ts';
import { isTrialIn } from './event-index.ts';
import { describe, doesNot, eventAt, finding, member, plural, whereIs } from './finding.ts';
import { schemaProblems } from './schema-words.ts';
import { judgeRunCompleted } from './run-completed.ts';

/** `startedTrialsOwed`: a record that judges a missing trials block (RunObservation.recordVersion). */
export function judgeEvalEvents(
  index: EventIndex,
  expected: ExpectedRun,
  startedTrialsOwed = true,
): Finding[] {
  return [
    judgeStartedFirst(index),
    judgeCompletedOnce(index),
    judgeRunCompleted(index),
    ...judgePayloadSchemas(index),
    judgeScoredCount(index, expected),
    ...judgeStarted(index, expected, startedTrialsOwed),
  ];
}

function judgeStartedFirst(index: EventIndex): Finding {
  const first = index.evalEvents[0];
  const only = index.started[0];
  const ok = index.started.length === 1 && only !== undefined && only === first;
  const seen =
    index.started.length !== 1
      ? `saw ${plural(index.started.length, 'eval.started event')}`
      : // Stryker disable next-line OptionalChaining: with exactly one eval.started, it and the first eval.* event exist
        `eval.started is ${at(index, only)}, after ${first?.type ?? 'nothing'} ${at(index, first)}`;
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
      ? `saw ${plural(index.completed.length, 'eval.completed event')}`
      : `eval.completed is ${at(index, only)}, before an eval.scored ${at(index, lastScored)}`;
  return finding(
    'events.completed-once',
    ok,
    ok
      ? 'exactly one eval.completed, after every eval.scored'
      : `exactly one eval.completed MUST follow every eval.scored; ${seen}`,
  );
}

/** Where an eval.* event stands, by its sequence: "at sequence 7". */
function at(index: EventIndex, event: { readonly position: number } | undefined): string {
  const position = event?.position ?? 0;
  return whereIs(index.events[position], position);
}

const PAYLOAD_SCHEMAS: ReadonlyMap<string, SchemaName> = new Map<string, SchemaName>([
  ['eval.started', 'eval-started'],
  ['eval.scored', 'eval-scored'],
  ['eval.completed', 'eval-completed'],
]);

/** One finding per eval.* type seen; each payload is validated once. */
function judgePayloadSchemas(index: EventIndex): Finding[] {
  const tally = new Map<string, { seen: number; failed: number; first: string }>();
  for (const event of index.evalEvents) {
    const schema = PAYLOAD_SCHEMAS.get(event.type);
    if (schema === undefined) continue;
    let entry = tally.get(event.type);
    if (entry === undefined) {
      // Stryker disable next-line StringLiteral: overwritten by the first failure before any message reads it
      entry = { seen: 0, failed: 0, first: '' };
      tally.set(event.type, entry);
    }
    entry.seen += 1;
    const errors = validate(schema, event.payload);
    if (errors.length > 0) {
      if (entry.failed === 0)
        entry.first = `${eventAt(index.events[event.position], event.position)}: ${schemaProblems(errors, event.payload)}`;
      entry.failed += 1;
    }
  }
  return [...tally].map(([type, t]) =>
    finding(
      'events.payload-schema',
      t.failed === 0,
      t.failed === 0
        ? `every ${type} payload validates (${t.seen} seen)`
        : `every ${type} payload MUST validate; ${t.failed} of ${t.seen} ${doesNot(t.failed)} (${t.first})`,
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
      // Stryker disable next-line AssignmentOperator: only whether the counter is still 0 is read
      unknown += 1;
      continue;
    }
    const reported = event.reportedTrial;
    const trialOk = hasBlock ? isTrialIn(reported, n) : reported === undefined || reported === 1;
    if (!trialOk || event.trial === undefined) {
      if (badTrial === 0) problems.push(`task "${event.taskId}" has trial ${describe(reported)}`);
      // Stryker disable next-line AssignmentOperator: only whether the counter is still 0 is read
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
      // Stryker disable next-line UpdateOperator: only whether each counter is still 0 is read
      if (c === 0 && missing++ === 0) problems.push(`task "${taskId}" trial ${t} is missing`);
      // Stryker disable next-line UpdateOperator: only whether each counter is still 0 is read
      if (c > 1 && duplicated++ === 0)
        problems.push(`task "${taskId}" trial ${t} is scored ${c} times`);
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

function judgeStarted(index: EventIndex, expected: ExpectedRun, owed: boolean): Finding[] {
  const started = index.started[0];
  if (started === undefined) return [];
  const p = started.payload;
  const problems: string[] = [];
  const expect = (key: string, want: unknown): void => {
    const got = member(p, key);
    if (got !== want)
      problems.push(`${key} MUST be ${describe(want)}, host reported ${describe(got)}`);
  };
  expect('suiteId', expected.suiteId);
  expect('suiteVersion', expected.suiteVersion);
  expect('taskCount', expected.taskCount);
  // `modes` is not compared with the suite: the published payload says only "the evaluation
  // modes in use; may be empty", so its shape is judged by events.payload-schema and nothing more.

  // Contract §7 [0244-assumed]: the block is carried exactly when the suite has one, so an
  // absent block holds only on a suite without one.
  const trials = member(p, 'trials');
  const block = expected.trialsBlock;
  const trialsOk =
    trials === undefined
      ? block === null || !owed
      : block !== null &&
        member(trials, 'count') === block.count &&
        member(trials, 'passRule') === block.passRule;
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
        ? trialsOk
          ? 'eval.started carries no trials block'
          : `eval.started.trials SHOULD be ${want}; eval.started carries no trials block`
        : trialsOk
          ? `eval.started.trials is ${want}`
          : `eval.started.trials SHOULD be ${want}; host reported count ${describe(member(trials, 'count'))}, passRule ${describe(member(trials, 'passRule'))}`,
    ),
  ];
}
