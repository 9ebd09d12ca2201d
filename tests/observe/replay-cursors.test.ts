// The replays of a finished log: which cursors the suite sends (sequences the host itself sent,
// from the ascending prefix of the first read), what a replay keeps of each event and of a refusal,
// and that only the first read is told to the drive's watcher. The reader is driven alone.

import { describe, expect, it } from 'vitest';
import { readLog, replayCursors, replayLog } from '../../lib/observe/log-reader.ts';
import type { ObservedEvent } from '../../lib/types.ts';
import { event, LOG_PATH, page, scriptedLog } from '../support/scripted-log.ts';

const seen = (...sequences: unknown[]): ObservedEvent[] =>
  sequences.map((sequence) => ({ sequence, type: 'eval.scored', runId: 'r' }));

describe('the cursors of the replays', () => {
  it('the middle, the last and one past the last of an ascending log', () => {
    expect(replayCursors(seen(1, 2, 3, 4, 5))).toEqual([
      { cursor: 'mid-log', afterSequence: 3 },
      { cursor: 'last-sequence', afterSequence: 5 },
      { cursor: 'past-end', afterSequence: 6 },
    ]);
  });

  it('a log of one event has no middle', () => {
    expect(replayCursors(seen(7))).toEqual([
      { cursor: 'last-sequence', afterSequence: 7 },
      { cursor: 'past-end', afterSequence: 8 },
    ]);
  });

  it.each<[string, unknown[], number]>([
    ['goes back after the first', [5, 3, 4], 5],
    ['repeats', [1, 2, 2, 3], 2],
    ['is not an integer', [1, 2.5, 3], 1],
    ['is not a number', [1, '2', 3], 1],
    ['is negative', [1, -2, 3], 1],
    ['is not a safe integer', [1, 2 ** 53 + 2], 1],
  ])('the prefix ends where a sequence %s', (_name, sequences, last) => {
    const cursors = replayCursors(seen(...sequences));
    expect(cursors.find((c) => c.cursor === 'last-sequence')?.afterSequence).toBe(last);
  });

  it('a first sequence the host cannot be trusted with leaves nothing to replay', () => {
    expect(replayCursors(seen(-1, 2, 3))).toEqual([]);
    expect(replayCursors([])).toEqual([]);
  });

  it('a first read starting at 0 replays from 0', () => {
    expect(replayCursors(seen(0))).toEqual([
      { cursor: 'last-sequence', afterSequence: 0 },
      { cursor: 'past-end', afterSequence: 1 },
    ]);
  });

  it('no past-end cursor when one past the last is not a safe integer', () => {
    const last = Number.MAX_SAFE_INTEGER;
    expect(replayCursors(seen(last - 1, last))).toEqual([
      { cursor: 'mid-log', afterSequence: last - 1 },
      { cursor: 'last-sequence', afterSequence: last },
    ]);
  });
});

describe('what a replay records', () => {
  it('each event by the members of it that say which it is, and no refusal when none came', async () => {
    const bare = { sequence: 3 };
    const log = scriptedLog([
      { body: page([event(2), bare, 'not an event'], true, 3) },
      { body: page([], true, 3) },
      { body: page([], true, 3) },
    ]);
    const step = await replayLog(log.run, LOG_PATH, seen(1, 2, 3));
    expect(step.ok && step.value).toStrictEqual([
      {
        cursor: 'mid-log',
        afterSequence: 2,
        pages: [{ afterSequence: 2, lastSequence: 3, isTerminal: true, eventCount: 3 }],
        events: [{ sequence: 2, eventId: 'e2', type: 'eval.scored' }, { sequence: 3 }, {}],
      },
      {
        cursor: 'last-sequence',
        afterSequence: 3,
        pages: [{ afterSequence: 3, lastSequence: 3, isTerminal: true, eventCount: 0 }],
        events: [],
      },
      {
        cursor: 'past-end',
        afterSequence: 4,
        pages: [{ afterSequence: 4, lastSequence: 3, isTerminal: true, eventCount: 0 }],
        events: [],
      },
    ]);
  });

  it('a replay answered with no page records the refusal and the next replay is still sent', async () => {
    const log = scriptedLog([
      { status: 404, body: { error: 'not_found', message: 'gone' } },
      { body: page([], true, 1) },
    ]);
    const step = await replayLog(log.run, LOG_PATH, seen(1));
    expect(step.ok && step.value).toStrictEqual([
      {
        cursor: 'last-sequence',
        afterSequence: 1,
        pages: [],
        events: [],
        refusal: `GET ${LOG_PATH} answered 404 not_found: gone`,
      },
      {
        cursor: 'past-end',
        afterSequence: 2,
        pages: [{ afterSequence: 2, lastSequence: 1, isTerminal: true, eventCount: 0 }],
        events: [],
      },
    ]);
    expect(log.cursors).toEqual([1, 2]);
  });
});

describe("the drive's watcher hears of the first read only", () => {
  it('the count of events after each page of the first read, nothing from a replay', async () => {
    const counts: number[] = [];
    const log = scriptedLog(
      [
        { body: page([event(1), event(2)], false, 2) },
        { body: page([event(3)], true, 3) },
        { body: page([event(3)], true, 3) },
      ],
      { watch: { events: (n) => counts.push(n) } },
    );
    const first = await readLog(log.run, LOG_PATH);
    expect(first.ok).toBe(true);
    expect(counts).toEqual([2, 3]);
    await replayLog(log.run, LOG_PATH, seen(1, 2, 3));
    expect(counts).toEqual([2, 3]);
  });

  it('a watcher that listens for something else is not told the count', async () => {
    const waited: string[] = [];
    const log = scriptedLog([{ body: page([event(1)], true, 1) }], {
      watch: { waiting: (what) => waited.push(what) },
    });
    expect((await readLog(log.run, LOG_PATH)).ok).toBe(true);
    expect(waited).toEqual([]);
  });
});
