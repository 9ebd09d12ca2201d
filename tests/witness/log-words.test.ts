// The transport rules (lib/witness/log.ts) in words: each test changes one thing in a correct
// log or its pages, names every rule that must then fail, and pins the event number, the counts
// and the values the failing message gives.

import { describe, expect, it } from 'vitest';
import { GATED, type Draft } from './build.ts';
import { judgedBy, type JudgedBy } from './mutate.ts';

const TRANSPORT = /^(run\.completed-status|events\.(envelope|run-id|sequence-ascending|cursor))$/;

const gated = (mutate: (d: Draft) => void): JudgedBy => judgedBy(TRANSPORT, GATED, mutate);

const event = (d: Draft, position: number): Draft['events'][number] =>
  d.events[position - 1] as Draft['events'][number];
const page = (d: Draft, n: number): Draft['pages'][number] =>
  d.pages[n - 1] as Draft['pages'][number];
const CURSOR = 'the event cursor MUST page forward and end terminal; ';

function pages(
  d: Draft,
  ...rows: [
    afterSequence: number | null,
    lastSequence: unknown,
    isTerminal: unknown,
    eventCount: number,
  ][]
): void {
  d.pages = rows.map(([afterSequence, lastSequence, isTerminal, eventCount]) => ({
    afterSequence,
    lastSequence,
    isTerminal,
    eventCount,
  }));
}

describe('a correct log, in words', () => {
  it('names the status, the 15 events, the run and the 2 pages', () => {
    expect(gated(() => undefined).own).toEqual([
      'the run status MUST be "completed" once scored, whether or not the suite passed; host reported the string "completed"',
      'all 15 events carry an integer sequence, a type and a runId',
      'all 15 events name run "tenant-a/run-7"',
      'the sequences of all 15 events strictly ascend',
      '2 pages: each page after its afterSequence, lastSequence never decreasing, ending terminal',
    ]);
  });

  it('one terminal page holding the whole log is a correct cursor, counted as 1 page', () => {
    const { failing, own: words } = gated(
      (d) =>
        (d.pages = [{ afterSequence: null, lastSequence: 15, isTerminal: true, eventCount: 15 }]),
    );
    expect(failing).toEqual([]);
    expect(words.at(-1)).toMatch(/^1 page: /);
  });
});

describe('the envelope, the run id and the order name the first bad event and count them', () => {
  it('an empty type and a fractional sequence: 2 of 15, the first shown whole', () => {
    const { failing, said } = gated((d) => {
      event(d, 2).type = '';
      event(d, 5).sequence = 4.5;
    });
    expect(failing).toEqual(['events.envelope']);
    expect(said).toEqual([
      'every event MUST carry an integer sequence ≥ 0, a type and a runId; 2 of 15 events do not (the event at sequence 2 has type the string "", runId the string "tenant-a/run-7")',
    ]);
  });

  it('a negative sequence breaks the envelope and the ascent', () => {
    expect(gated((d) => (event(d, 1).sequence = -1)).failing).toEqual(['events.envelope']);
    expect(gated((d) => (event(d, 2).sequence = -1)).failing).toEqual([
      'events.envelope',
      'events.sequence-ascending',
    ]);
  });

  it('sequences that start at 0 are a correct envelope', () => {
    const { failing } = gated((d) => {
      d.events.forEach((e, i) => (e.sequence = i));
      pages(d, [null, 2, false, 3], [2, 14, true, 12]);
    });
    expect(failing).toEqual([]);
  });

  it('an event without a sequence is an envelope fault, neither a descent nor a cursor fault', () => {
    const { failing, said } = gated((d) => delete event(d, 5).sequence);
    expect(failing).toEqual(['events.envelope']);
    expect(said).toEqual([
      'every event MUST carry an integer sequence ≥ 0, a type and a runId; 1 of 15 events does not (the event at log position 5 (sequence nothing) has type the string "eval.scored", runId the string "tenant-a/run-7")',
    ]);
  });

  it('a sequence sent as a string and a runId sent as a number', () => {
    const { failing, said } = gated((d) => {
      event(d, 2).sequence = '2';
      event(d, 3).runId = 5;
    });
    expect(failing).toEqual(['events.envelope', 'events.run-id']);
    expect(said).toEqual([
      'every event MUST carry an integer sequence ≥ 0, a type and a runId; 2 of 15 events do not (the event at log position 2 (sequence the string "2") has type the string "agent.invocation-completed", runId the string "tenant-a/run-7")',
      'every event MUST name run "tenant-a/run-7"; 1 of 15 events does not (the event at sequence 3 names 5)',
    ]);
  });

  it('two events of another run: 2 of 15, the first named', () => {
    const { failing, said } = gated((d) => {
      event(d, 2).runId = 'tenant-b/run-7';
      event(d, 7).runId = 'tenant-b/run-7';
    });
    expect(failing).toEqual(['events.run-id']);
    expect(said).toEqual([
      'every event MUST name run "tenant-a/run-7"; 2 of 15 events do not (the event at sequence 2 names the string "tenant-b/run-7")',
    ]);
  });

  it('two repeated sequences: 2 events, the first with both numbers', () => {
    const { failing, said } = gated((d) => {
      event(d, 2).sequence = 1;
      event(d, 12).sequence = 11;
    });
    expect(failing).toEqual(['events.sequence-ascending']);
    expect(said).toEqual([
      'event sequences MUST strictly ascend; 2 events do not (sequence 1, at log position 2, follows sequence 1)',
    ]);
  });
});

describe('events.cursor lists what is wrong with the pages', () => {
  it('no pages, or pages that are not a list: nothing was observed', () => {
    for (const pages of [[], 'pages']) {
      const { failing, said } = gated((d) => (d.pages = pages as Draft['pages']));
      expect(failing).toEqual(['events.cursor']);
      expect(said).toEqual([`${CURSOR}no page was observed`]);
    }
  });

  it('an isTerminal that is not a boolean is named', () => {
    expect(gated((d) => (page(d, 1).isTerminal = 'no')).said).toEqual([
      `${CURSOR}page 1 isTerminal is the string "no"`,
    ]);
  });

  it('a page holding its own afterSequence gives both', () => {
    expect(gated((d) => (page(d, 2).afterSequence = 4)).said).toEqual([
      `${CURSOR}page 2 (afterSequence 4) holds sequence 4`,
    ]);
  });

  it('a last page that is not terminal gives its number', () => {
    expect(gated((d) => (page(d, 2).isTerminal = false)).said).toEqual([
      `${CURSOR}the last page (2) is not terminal`,
    ]);
  });

  it('a page count that is not a positive integer counts as no events, so the next page starts at the first event', () => {
    for (const eventCount of [2.5, -3]) {
      expect(gated((d) => (page(d, 1).eventCount = eventCount)).said).toEqual([
        `${CURSOR}page 2 (afterSequence 3) holds sequence 1`,
      ]);
    }
  });

  it('an empty page checks no event, whatever its afterSequence', () => {
    expect(
      gated((d) => pages(d, [null, 3, false, 3], [8, 3, false, 0], [3, 15, true, 12])).failing,
    ).toEqual([]);
  });

  it('lastSequence may repeat; a drop is measured against the highest so far, across a page without one', () => {
    expect(
      gated((d) => pages(d, [null, 3, false, 3], [3, 3, false, 0], [3, 15, true, 12])).failing,
    ).toEqual([]);
    expect(
      gated((d) => pages(d, [null, 3, false, 3], [3, undefined, false, 3], [6, 2, true, 9])).said,
    ).toEqual([`${CURSOR}page 3 lastSequence 2 is below an earlier 3`]);
    expect(
      gated((d) =>
        pages(d, [null, 3, false, 3], [3, 10, false, 7], [10, 5, false, 0], [10, 7, true, 5]),
      ).said,
    ).toEqual([
      `${CURSOR}page 3 lastSequence 5 is below an earlier 10; page 4 lastSequence 7 is below an earlier 10`,
    ]);
  });

  it('a page turning back from terminal names the first terminal page', () => {
    expect(
      gated((d) => pages(d, [null, 3, true, 3], [3, 10, true, 7], [10, 15, false, 5])).said,
    ).toEqual([
      `${CURSOR}page 3 says isTerminal false after page 1 said true; the last page (3) is not terminal`,
    ]);
  });

  it('five problems: the first three, and how many more', () => {
    const { failing, said } = gated((d) => {
      page(d, 1).isTerminal = 'a';
      page(d, 2).isTerminal = 'b';
      page(d, 2).lastSequence = 1;
      page(d, 2).afterSequence = 5;
    });
    expect(failing).toEqual(['events.cursor', 'events.last-sequence']);
    expect(said).toEqual([
      `${CURSOR}page 1 isTerminal is the string "a"; page 2 (afterSequence 5) holds sequence 4; page 2 lastSequence 1 is below an earlier 3; and 2 more`,
    ]);
  });

  it('three problems are all shown, with no "more"', () => {
    const { said } = gated((d) => {
      page(d, 1).isTerminal = 'a';
      page(d, 2).lastSequence = 1;
      page(d, 2).afterSequence = 5;
    });
    expect(said).toEqual([
      `${CURSOR}page 1 isTerminal is the string "a"; page 2 (afterSequence 5) holds sequence 4; page 2 lastSequence 1 is below an earlier 3`,
    ]);
  });
});
