// How the first read of the log paces its polls: a poll the host answered empty before its
// long-poll timeout could have run out is followed by a wait on the backoff schedule, a poll the
// host held for the whole timeout is not (the host did the waiting), and a page that brings events
// starts the schedule again. The reader is driven alone, on a clock that moves only when a poll is
// held or the reader waits.

import { describe, expect, it } from 'vitest';
import { BACKOFF } from '../../lib/observe/ask.ts';
import { readLog } from '../../lib/observe/log-reader.ts';
import {
  event,
  LOG_BOUNDS,
  LOG_PATH,
  page,
  scriptedLog,
  type Answer,
} from '../support/scripted-log.ts';

const EMPTY = page([], false, 0);
const HELD_S = 1;
const HELD_MS = HELD_S * 1000;

/** The waits the reader took over `answers`, asking the host to hold each poll `pollTimeoutS`. */
async function waitsOver(answers: readonly Answer[], pollTimeoutS: number): Promise<number[]> {
  const log = scriptedLog(answers, { bounds: { ...LOG_BOUNDS, pollTimeoutS } });
  const step = await readLog(log.run, LOG_PATH);
  expect(step.ok).toBe(true);
  expect(log.cursors).toHaveLength(answers.length + 1);
  return log.waits;
}

describe('an empty page answered before the long-poll timeout is paced by the suite', () => {
  it.each([
    ['at once', 0],
    ['a moment before the timeout', HELD_MS - 1],
  ])('answered %s: one backoff step', async (_name, heldMs) => {
    expect(await waitsOver([{ body: EMPTY, heldMs }], HELD_S)).toEqual([BACKOFF.initialMs]);
  });

  it('with no long-poll timeout asked for, every empty page is followed by a wait', async () => {
    const waits = await waitsOver([{ body: EMPTY }, { body: EMPTY }], 0);
    expect(waits).toEqual([BACKOFF.initialMs, BACKOFF.initialMs * BACKOFF.factor]);
  });
});

describe('an empty page the host held for the whole long-poll timeout is asked again at once', () => {
  it.each([
    ['for exactly the timeout', HELD_MS],
    ['past the timeout', HELD_MS + 250],
  ])('held %s: no wait', async (_name, heldMs) => {
    expect(await waitsOver([{ body: EMPTY, heldMs }], HELD_S)).toEqual([]);
  });
});

describe('a page that brings events starts the backoff schedule again', () => {
  it('two empty pages, events, two empty pages: the schedule restarts after the events', async () => {
    const waits = await waitsOver(
      [
        { body: EMPTY },
        { body: EMPTY },
        { body: page([event(1)], false, 1) },
        { body: EMPTY },
        { body: EMPTY },
      ],
      0,
    );
    const [first, second] = [BACKOFF.initialMs, BACKOFF.initialMs * BACKOFF.factor];
    expect(waits).toEqual([first, second, first, second]);
  });
});
