// events.last-sequence in words (lib/witness/last-sequence.ts): the gated run's log holds
// sequences 1..15; each test sets the pages a host answered and pins what the finding says.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { judgeLastSequence } from '../../lib/witness/last-sequence.ts';
import type { ObservedPage, ObservedReplay, RunObservation } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from './build.ts';

const RULE = 'events.last-sequence';
const MUST =
  "every poll page's lastSequence MUST be the highest sequence in the log when it is answered (−1 only for an empty log), so the page is at fault; ";

const pageOf = (
  afterSequence: number | null,
  lastSequence: unknown,
  eventCount: number,
  isTerminal = true,
): ObservedPage => ({ afterSequence, lastSequence, isTerminal, eventCount });

/** A replay of the finished log; its events are not what this rule reads, only its pages. */
const replayOf = (
  cursor: ObservedReplay['cursor'],
  afterSequence: number,
  ...pages: ObservedPage[]
): ObservedReplay => ({
  cursor,
  afterSequence,
  pages,
  events: Array.from({ length: Math.max(0, 15 - afterSequence) }, (_, i) => ({
    sequence: afterSequence + i + 1,
  })),
});

function judged(
  pages: readonly ObservedPage[],
  replays?: readonly ObservedReplay[],
): { ok: boolean; message: string } {
  const draft = asObservation(gatedObservation());
  const observation: RunObservation = {
    ...draft,
    pages,
    ...(replays === undefined ? {} : { replays }),
  };
  const found = judgeEvalRun(GATED, observation).filter((f) => f.rule === RULE);
  expect(found).toHaveLength(1);
  const [only] = found;
  return { ok: only?.ok ?? false, message: only?.message ?? '' };
}

/** The correct first read in three pages: the log grew past what each page delivered. */
const GROWING = [pageOf(null, -1, 0, false), pageOf(null, 9, 3, false), pageOf(3, 15, 12)];
const CORRECT_REPLAYS = [
  replayOf('mid-log', 8, pageOf(8, 15, 7)),
  replayOf('last-sequence', 15, pageOf(15, 15, 0)),
  replayOf('past-end', 16, pageOf(16, 15, 0)),
];

describe('events.last-sequence holds for the highest sequence in the log', () => {
  it('an empty log says −1, a growing log may be ahead of the page, a finished one says 15', () => {
    expect(judged(GROWING, CORRECT_REPLAYS)).toEqual({
      ok: true,
      message: "lastSequence is the log's highest sequence on all 6 pages, the replays' included",
    });
  });

  it('a replay answered one event a page says 15 on every page', () => {
    const replays = [
      replayOf('mid-log', 13, pageOf(13, 15, 1, false), pageOf(14, 15, 1)),
      replayOf('last-sequence', 15, pageOf(15, 15, 0)),
    ];
    expect(judged(GROWING, replays).ok).toBe(true);
  });
});

describe('events.last-sequence fails what upstream says it is not', () => {
  it('−1 on a log that delivered events is below what the log held', () => {
    const { ok, message } = judged([pageOf(null, -1, 3, false), pageOf(3, -1, 12)]);
    expect(ok).toBe(false);
    expect(message).toBe(
      `${MUST}2 of 2 pages are not: page 1 of the first read says -1, below sequence 3, which the log already held; page 2 of the first read says -1, below sequence 15, which the log already held`,
    );
  });

  it("the page's last event on a replay read one event a page is below the finished log's", () => {
    const replays = [replayOf('mid-log', 13, pageOf(13, 14, 1, false), pageOf(14, 15, 1))];
    const { ok, message } = judged(GROWING, replays);
    expect(ok).toBe(false);
    expect(message).toBe(
      `${MUST}1 of 5 pages is not: page 1 of the replay after 13 says 14, where the finished log's highest sequence is 15`,
    );
  });

  it('the cursor itself, past the end, is above the log', () => {
    const replays = [replayOf('past-end', 16, pageOf(16, 16, 0))];
    expect(judged(GROWING, replays).message).toBe(
      `${MUST}1 of 4 pages is not: page 1 of the replay after 16 says 16, where the finished log's highest sequence is 15`,
    );
  });

  it('a first-read page above every sequence ever delivered names the highest', () => {
    expect(judged([pageOf(null, 3, 3, false), pageOf(3, 20, 12)]).message).toBe(
      `${MUST}1 of 2 pages is not: page 2 of the first read says 20, above the finished log's highest sequence 15`,
    );
  });

  it.each([
    ['null', null, 'null'],
    ['a string', '15', 'the string "15"'],
    ['below −1', -2, '-2'],
  ])('a lastSequence that is %s is no sequence', (_, last, seen) => {
    expect(judged([pageOf(null, last, 15)]).message).toBe(
      `${MUST}1 of 1 page is not: page 1 of the first read says ${seen}, which is no sequence and not −1`,
    );
  });

  it('five wrong pages show three and count the rest', () => {
    const pages = [1, 2, 3, 4, 5].map((n) => pageOf(n === 1 ? null : n, -1, 3, n === 5));
    expect(judged(pages).message).toMatch(/5 of 5 pages are not: .*; and 2 more$/);
  });
});

/** The rule on its own, over a first read of `events` in `pages` and the given replays. */
function alone(
  pages: readonly ObservedPage[],
  events: readonly unknown[],
  replays: readonly ObservedReplay[] = [],
): { ok: boolean; message: string } {
  const observation = { pages, replays } as unknown as RunObservation;
  const { ok, message } = judgeLastSequence(observation, events);
  return { ok, message };
}

describe('events.last-sequence reads what the first read delivered, and nothing else', () => {
  const seqs = (...s: unknown[]) => s.map((sequence) => ({ sequence }));

  it('a page whose event count is negative or fractional delivered nothing', () => {
    for (const count of [-1, 1.5]) {
      const pages = [pageOf(null, -1, count, false), pageOf(null, 2, 2)];
      expect(alone(pages, seqs(1, 2)).ok).toBe(true);
    }
  });

  it('a sequence that is no safe integer is not one the log held', () => {
    expect(alone([pageOf(null, 1, 2)], seqs('20', 1)).ok).toBe(true);
    expect(alone([pageOf(null, 1, 2)], seqs(20.5, 1)).ok).toBe(true);
  });

  it('the highest delivered sequence counts, whatever order the events came in', () => {
    expect(alone([pageOf(null, 5, 2)], seqs(5, 3)).ok).toBe(true);
  });

  it('on an empty log, a first-read page above −1 and a replay not at −1 are named', () => {
    const replay: ObservedReplay = { cursor: 'past-end', afterSequence: 0, pages: [], events: [] };
    expect(alone([pageOf(null, 0, 0)], [], [{ ...replay, pages: [pageOf(0, 1, 0)] }])).toEqual({
      ok: false,
      message: `${MUST}2 of 2 pages are not: page 1 of the first read says 0, above an empty log (−1); page 1 of the replay after 0 says 1, where the finished log's highest sequence is -1`,
    });
    expect(alone([pageOf(null, -1, 0)], [], [{ ...replay, pages: [pageOf(0, -1, 0)] }]).ok).toBe(
      true,
    );
  });

  it('a fractional lastSequence is no sequence, not a sequence above the log', () => {
    expect(alone([pageOf(null, 1.5, 1)], seqs(1)).message).toBe(
      `${MUST}1 of 1 page is not: page 1 of the first read says 1.5, which is no sequence and not −1`,
    );
  });

  it('three wrong pages are all shown, and four show three and count one', () => {
    const wrong = (n: number) => Array.from({ length: n }, () => pageOf(null, 7, 0, false));
    const three = alone(wrong(3), []).message;
    expect(three).toMatch(/3 of 3 pages are not: (page \d of the first read says 7[^;]*(; )?){3}$/);
    const four = alone(wrong(4), []).message;
    expect(four.split('says 7')).toHaveLength(4);
    expect(four).toMatch(/; and 1 more$/);
  });
});
