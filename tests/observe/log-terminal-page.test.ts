// When the first read of the log stops: a terminal page ends it unless it brought events and its
// `lastSequence` lies beyond them (upstream's `isTerminal` says only that the run is terminal, so
// a host may mark every page of a finished log terminal), and a page whose sequences cannot be
// trusted to progress ends it at once. The reader is driven alone, with a scripted client.

import { describe, expect, it } from 'vitest';
import { readLog } from '../../lib/observe/log-reader.ts';
import { event, LOG_PATH, page, scriptedLog, type Answer } from '../support/scripted-log.ts';

/** Reads the log from `answers` and returns the observed read and the cursor of every poll. */
async function read(answers: readonly Answer[], rest?: Answer) {
  const log = scriptedLog(answers, rest === undefined ? {} : { rest });
  const step = await readLog(log.run, LOG_PATH);
  if (!step.ok) throw new Error(`the read ended ${JSON.stringify(step.result)}`);
  return { ...step.value, cursors: log.cursors };
}

const sequences = (events: readonly { readonly sequence: unknown }[]) =>
  events.map((e) => e.sequence);

// What the reader must not ask for: a page that would show a read went on too far.
const TOO_FAR: Answer = { body: page([event(99)], true, 99) };

describe('a terminal page that says more is to come is read on', () => {
  it('every page terminal: the read goes on to the lastSequence the first page gave', async () => {
    const r = await read([
      { body: page([event(1), event(2)], true, 4) },
      { body: page([event(3), event(4)], true, 4) },
    ]);
    expect(r.cursors).toEqual([null, 2]);
    expect(sequences(r.events)).toEqual([1, 2, 3, 4]);
  });

  it('a lastSequence one past the last event delivered is still to come', async () => {
    const r = await read([
      { body: page([event(1)], true, 2) },
      { body: page([event(2)], true, 2) },
    ]);
    expect(r.cursors).toEqual([null, 1]);
    expect(sequences(r.events)).toEqual([1, 2]);
  });
});

describe('a terminal page ends the read', () => {
  it.each<[string, unknown]>([
    ['its lastSequence is its last event', 2],
    ['its lastSequence lies before its events', 1],
    ['its lastSequence is not a number', '9'],
    ['its lastSequence is not an integer', 2.5],
    ['its lastSequence is not a safe integer', 2 ** 53],
    ['it has no lastSequence', undefined],
  ])('with events, when %s', async (_name, lastSequence) => {
    const r = await read([{ body: page([event(1), event(2)], true, lastSequence) }], TOO_FAR);
    expect(r.cursors).toEqual([null]);
    expect(sequences(r.events)).toEqual([1, 2]);
  });

  it('empty, whatever lastSequence it gives, after a page of events', async () => {
    const r = await read(
      [{ body: page([event(1), event(2)], false, 2) }, { body: page([], true, 5) }],
      TOO_FAR,
    );
    expect(r.cursors).toEqual([null, 2]);
    expect(sequences(r.events)).toEqual([1, 2]);
    expect(r.pages.map((p) => p.lastSequence)).toEqual([2, 5]);
  });

  it('empty, as the first page, with a lastSequence the host never delivers', async () => {
    const r = await read([{ body: page([], true, 3) }], TOO_FAR);
    expect(r.cursors).toEqual([null]);
    expect(r.events).toEqual([]);
  });
});

describe('a page whose sequences cannot be trusted ends the read after it', () => {
  it.each<[string, unknown]>([
    ['a sequence that is not an integer', 1.5],
    ['a sequence that is not a number', '2'],
    ['a sequence that repeats the cursor', 1],
    ['a sequence that goes back', 0],
  ])('%s, on a page that is not terminal', async (_name, sequence) => {
    const r = await read(
      [{ body: page([event(1), event(sequence)], false, 3) }, { body: page([event(3)], true, 3) }],
      TOO_FAR,
    );
    expect(r.cursors).toEqual([null]);
    expect(sequences(r.events)).toEqual([1, sequence]);
    expect(r.pages).toHaveLength(1);
  });

  it('the events after an untrusted one are kept, and the read still ends', async () => {
    const r = await read(
      [{ body: page([event(1), event(0.5), event(2)], false, 3) }, { body: page([], true, 3) }],
      TOO_FAR,
    );
    expect(r.cursors).toEqual([null]);
    expect(sequences(r.events)).toEqual([1, 0.5, 2]);
  });
});
