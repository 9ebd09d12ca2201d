// The replays of the finished log under events.cursor, one defect at a time. The first read is
// the correct gated run (sequences 1..15, two pages) with event ids; each test writes the
// replays a host returned literally, so the witness's expectation is never computed here.

import { describe, expect, it } from 'vitest';
import { cursorWasDriven, judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import { replayProblems, replaysHeld } from '../../lib/witness/replays.ts';
import type { ObservedReplay, ReplayedEvent, RunObservation } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from './build.ts';

const TYPES = [
  'eval.started',
  ...Array.from({ length: 6 }, () => ['agent.invocation-completed', 'eval.scored']).flat(),
  'eval.completed',
  'run.completed',
];

/** Event `sequence` as a replay returns it, as the correct host sent it in the first read. */
const ev = (sequence: number): ReplayedEvent => ({
  sequence,
  eventId: `ev-${sequence}`,
  type: TYPES[sequence - 1],
});
const range = (from: number, to: number): ReplayedEvent[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));

const page = (afterSequence: number, eventCount: number, isTerminal: unknown = true) => ({
  afterSequence,
  lastSequence: 15,
  isTerminal,
  eventCount,
});

/** A replay answered in one page. */
const replay = (
  cursor: ObservedReplay['cursor'],
  afterSequence: number,
  events: ReplayedEvent[],
  isTerminal: unknown = true,
): ObservedReplay => ({
  cursor,
  afterSequence,
  pages: [page(afterSequence, events.length, isTerminal)],
  events,
});

/** What a correct host returns: after 8 (mid-log), 15 (the last sequence) and 16 (past the end). */
const CORRECT: readonly ObservedReplay[] = [
  replay('mid-log', 8, range(9, 15)),
  replay('last-sequence', 15, []),
  replay('past-end', 16, []),
];

/** The gated run with event ids, its first read in `pages`, and the replays given. */
function run(
  replays: readonly ObservedReplay[] | undefined,
  pages?: RunObservation['pages'],
): RunObservation {
  const draft = asObservation(gatedObservation());
  return {
    ...draft,
    ...(pages === undefined ? {} : { pages }),
    events: draft.events.map((e) => ({
      ...e,
      envelope: { json: 'object', members: { eventId: `ev-${String(e.sequence)}` } },
    })),
    ...(replays === undefined ? {} : { replays }),
  };
}

/** One terminal page holding the whole log: a fast host never sees an afterSequence. */
const ONE_PAGE = [{ afterSequence: null, lastSequence: 15, isTerminal: true, eventCount: 15 }];

function judged(observation: RunObservation): { failing: string[]; said: string } {
  const findings = judgeEvalRun(GATED, observation);
  const cursor = findings.find((f) => f.rule === 'events.cursor');
  return {
    failing: [...new Set(mustFailures(findings).map((f) => f.rule))].sort(),
    said: cursor?.message ?? 'no events.cursor finding',
  };
}

const RULE =
  'the event cursor MUST page forward, end terminal, and answer a re-read after any sequence it sent with exactly the events after it; ';
const MID = 'the replay after 8 (a mid-log sequence)';
const LAST = 'the replay after 15 (the last sequence)';
const PAST = 'the replay after 16 (past the end)';

describe('events.cursor holds each replay of the finished log', () => {
  it('a correct host passes, and the finding says what the replays returned', () => {
    const { failing, said } = judged(run(CORRECT));
    expect(failing).toEqual([]);
    expect(said).toBe(
      "2 pages: each page after its afterSequence, lastSequence never decreasing, ending terminal; replays after 8, 15, 16 returned the first read's 7, 0, 0 events after each, ending terminal",
    );
  });

  it('a fast host whose log arrives in one page and ignores the cursor now fails, and only events.cursor', () => {
    const all = range(1, 15);
    const ignoring = [
      replay('mid-log', 8, all),
      replay('last-sequence', 15, all),
      replay('past-end', 16, all),
    ];
    // The first read alone is clean: one terminal page, never a cursor.
    expect(judged(run([], ONE_PAGE)).failing).toEqual([]);
    const { failing, said } = judged(run(ignoring, ONE_PAGE));
    expect(failing).toEqual(['events.cursor']);
    const returned = 'it returned 15 events (sequences 1, 2, 3, …, 15)';
    expect(said).toBe(
      `${RULE}${MID} MUST return the first read's 7 events (sequences 9, 10, 11, …, 15) after it; ${returned}, the first difference at position 1: sequence 1 where 9 was expected; ${LAST} MUST return no event; ${returned}; ${PAST} MUST return no event; ${returned}`,
    );
  });

  it('a cursor read as inclusive returns the event at the cursor again, named by sequence', () => {
    const inclusive = [
      replay('mid-log', 8, range(8, 15)),
      replay('last-sequence', 15, range(15, 15)),
      replay('past-end', 16, []),
    ];
    const { failing, said } = judged(run(inclusive));
    expect(failing).toEqual(['events.cursor']);
    expect(said).toBe(
      `${RULE}${MID} MUST return the first read's 7 events (sequences 9, 10, 11, …, 15) after it; it returned 8 events (sequences 8, 9, 10, …, 15), the first difference at position 1: sequence 8 where 9 was expected; ${LAST} MUST return no event; it returned 1 event (sequence 15)`,
    );
  });

  it('a replayed event that is not the one the first read had at that sequence is named', () => {
    const events = range(9, 15).map((e) => (e.sequence === 11 ? { ...e, eventId: 'ev-other' } : e));
    const { failing, said } = judged(run([replay('mid-log', 8, events), ...CORRECT.slice(1)]));
    expect(failing).toEqual(['events.cursor']);
    expect(said).toContain(
      'the first difference at position 3: sequence 11 has eventId the string "ev-other" where the first read had the string "ev-11"',
    );
  });

  it('a replayed event of another type is named', () => {
    const events = range(9, 15).map((e) => (e.sequence === 9 ? { ...e, type: 'run.started' } : e));
    expect(judged(run([replay('mid-log', 8, events), ...CORRECT.slice(1)])).said).toContain(
      'position 1: sequence 9 has type the string "run.started" where the first read had the string "eval.scored"',
    );
  });

  it('a replay that stops short names the sequence it lacks', () => {
    const short = [replay('mid-log', 8, range(9, 14)), ...CORRECT.slice(1)];
    expect(judged(run(short)).said).toBe(
      `${RULE}${MID} MUST return the first read's 7 events (sequences 9, 10, 11, …, 15) after it; it returned 6 events (sequences 9, 10, 11, …, 14), the first difference at position 7: nothing, where the first read had sequence 15`,
    );
  });

  it("a replay with an event after the first read's last names it", () => {
    const long = [replay('mid-log', 8, [...range(9, 15), { sequence: 16 }]), ...CORRECT.slice(1)];
    expect(judged(run(long)).said).toContain(
      "position 8: sequence 16, after the first read's last",
    );
  });

  it('a replay past the end that is empty but not terminal fails', () => {
    const open = [...CORRECT.slice(0, 2), replay('past-end', 16, [], false)];
    const { failing, said } = judged(run(open));
    expect(failing).toEqual(['events.cursor']);
    expect(said).toBe(`${RULE}${PAST} MUST end terminal; its last page (1) says isTerminal false`);
  });

  it('a refused replay quotes the answer', () => {
    const refused: ObservedReplay = {
      cursor: 'past-end',
      afterSequence: 16,
      pages: [],
      events: [],
      refusal: 'GET /runs/x/events/poll answered 400 validation_error: past the end',
    };
    expect(judged(run([...CORRECT.slice(0, 2), refused])).said).toBe(
      `${RULE}${PAST} MUST be answered with a page; GET /runs/x/events/poll answered 400 validation_error: past the end`,
    );
  });

  it('a first read that broke the cursor is said first, before the replays that follow from it', () => {
    const pages = [
      { afterSequence: null, lastSequence: 3, isTerminal: false, eventCount: 3 },
      { afterSequence: 3, lastSequence: 15, isTerminal: true, eventCount: 12 },
    ];
    const draft = run([replay('mid-log', 8, range(1, 15)), ...CORRECT.slice(1)], pages);
    // The host answered page 2 from the start: the first read holds 1..3 then 1..12.
    const events = [...draft.events.slice(0, 3), ...draft.events.slice(0, 12)];
    const { said } = judged({ ...draft, events });
    expect(said.startsWith(`${RULE}page 2 (afterSequence 3) holds sequence 1; the replay`)).toBe(
      true,
    );
  });

  it('an observation recorded before replays is judged and said exactly as it was', () => {
    expect(judged(run(undefined)).said).toBe(
      '2 pages: each page after its afterSequence, lastSequence never decreasing, ending terminal',
    );
    const stale = run(undefined, [{ ...ONE_PAGE[0]!, isTerminal: false }]);
    expect(judged(stale).said).toBe(
      'the event cursor MUST page forward and end terminal; the last page (1) is not terminal',
    );
  });

  it('replays recorded in a form the driver never writes fail the rule and never throw', () => {
    const hostile = [null, { afterSequence: 'x' }, { afterSequence: 8, cursor: 'toString' }];
    expect(judged({ ...run([]), replays: 'none' as unknown as [] }).said).toBe(
      `${RULE}the replays are not a list`,
    );
    const { said } = judged({ ...run([]), replays: hostile as unknown as ObservedReplay[] });
    expect(said).toBe(
      `${RULE}a replay has afterSequence nothing; a replay has afterSequence the string "x"; the replay after 8 (an unnamed cursor) MUST return the first read's 7 events (sequences 9, 10, 11, …, 15) after it; it returned no event, the first difference at position 1: nothing, where the first read had sequence 9`,
    );
  });
});

describe('cursorWasDriven: whether the host was ever sent a cursor', () => {
  it('is true with replays, and for a first read that paged through the cursor', () => {
    expect(cursorWasDriven(run(CORRECT, ONE_PAGE))).toBe(true);
    expect(cursorWasDriven(run(undefined))).toBe(true);
  });

  it('is false for a one-page first read with no replay', () => {
    expect(cursorWasDriven(run(undefined, ONE_PAGE))).toBe(false);
    expect(cursorWasDriven(run([], ONE_PAGE))).toBe(false);
  });
});

describe('replayProblems on a literal first read', () => {
  /** A first-read event as the recorder keeps it: sequence, type and the envelope's eventId. */
  const read = (sequence: unknown, eventId: unknown = `ev-${String(sequence)}`) => ({
    sequence,
    type: 'eval.scored',
    envelope: { json: 'object', members: { eventId } },
  });
  const back = (sequence: number, eventId: unknown = `ev-${sequence}`): ReplayedEvent => ({
    sequence,
    eventId,
    type: 'eval.scored',
  });
  const FIRST = [1, 2, 3, 4, 5, 6, 7].map((n) => read(n));
  const after = (
    afterSequence: number,
    events: ReplayedEvent[],
    pages = [page(afterSequence, events.length)],
  ) => ({
    cursor: 'mid-log' as const,
    afterSequence,
    pages,
    events,
  });

  it('a replay that holds the first read exactly has no problem', () => {
    expect(
      replayProblems(
        [
          after(
            2,
            [3, 4, 5, 6, 7].map((n) => back(n)),
          ),
        ],
        FIRST,
      ),
    ).toEqual([]);
  });

  it('lists up to five sequences whole, and cuts a sixth', () => {
    const five = [3, 4, 5, 6, 7].map((n) => back(n));
    expect(replayProblems([after(3, five)], FIRST)).toEqual([
      "the replay after 3 (a mid-log sequence) MUST return the first read's 4 events (sequences 4, 5, 6, 7) after it; it returned 5 events (sequences 3, 4, 5, 6, 7), the first difference at position 1: sequence 3 where 4 was expected",
    ]);
    const six = [2, 3, 4, 5, 6, 7].map((n) => back(n));
    expect(replayProblems([after(2, six)], FIRST)[0]).toContain(
      'it returned 6 events (sequences 2, 3, 4, …, 7)',
    );
  });

  it('trusts the first read only up to its first sequence that is not a safe integer above the last', () => {
    // Everything after a break in the first read is not something a replay can be held to.
    for (const broken of [null, '4', 4.5, 2 ** 53, -1, 3]) {
      const first = [read(1), read(2), read(3), read(broken), read(5)];
      expect(
        replayProblems([after(2, [back(3)])], first),
        `first read breaks at ${String(broken)}`,
      ).toEqual([]);
    }
    // One that starts below 0 is trusted nowhere, so no replay is held to it.
    expect(replayProblems([after(0, [])], [read(-1), read(1)])).toEqual([]);
    // One that starts at sequence 0 is trusted from there.
    expect(replayProblems([after(0, [])], [read(0), read(1)])).toEqual([
      "the replay after 0 (a mid-log sequence) MUST return the first read's 1 event (sequence 1) after it; it returned no event, the first difference at position 1: nothing, where the first read had sequence 1",
    ]);
  });

  it('names a cursor only by the names the driver writes', () => {
    const replay = { ...after(7, []), cursor: ['mid-log'], pages: [] };
    expect(replayProblems([replay], FIRST)).toEqual([
      'the replay after 7 (an unnamed cursor) observed no page',
    ]);
    const noPages = { ...after(7, []), pages: 'none' };
    expect(replayProblems([noPages], FIRST)).toEqual([
      'the replay after 7 (a mid-log sequence) observed no page',
    ]);
  });

  it('compares event ids as sent: equal JSON is the same id, anything else is not', () => {
    const first = [read(1), read(2, { id: 2 }), read(3, null), read(4, 'ev-4')];
    expect(replayProblems([after(1, [back(2, { id: 2 }), back(3, null), back(4)])], first)).toEqual(
      [],
    );
    const differs = (eventId: unknown, at: number): string[] => {
      const events = [back(2, { id: 2 }), back(3, null), back(4)];
      events[at - 2] = back(at, eventId);
      return replayProblems([after(1, events)], first);
    };
    expect(differs({ id: 3 }, 2)[0]).toContain('sequence 2 has eventId');
    expect(differs('{"id":2}', 2)[0]).toContain('sequence 2 has eventId');
    expect(differs({}, 3)[0]).toContain('sequence 3 has eventId');
    expect(differs({ id: 4 }, 4)[0]).toContain('sequence 4 has eventId');
    expect(differs(null, 2)[0]).toContain(
      'sequence 2 has eventId null where the first read had an object',
    );
    // JSON writes NaN as null; a value is not the same as one of another type that writes alike.
    expect(differs(Number.NaN, 3)[0]).toContain('sequence 3 has eventId');
    const nanFirst = [read(1), read(2, Number.NaN)];
    expect(replayProblems([after(1, [back(2, null)])], nanFirst)[0]).toContain(
      'sequence 2 has eventId null',
    );
  });
});

describe('replaysHeld', () => {
  it('says when there was nothing to replay from', () => {
    expect(replaysHeld([])).toBe('no replay (the first read held no sequence to resume from)');
  });
});
