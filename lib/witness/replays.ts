// The replays of the finished log (contract §6). The driver re-reads the log from a sequence in
// its middle, from its last sequence and from past its end, so every host is sent the cursor
// whatever its speed. Each replay must return exactly the first read's events after its cursor,
// identical and in order, and end terminal; from the last sequence and past the end that is no
// event at all. Pure: it reads the observation and nothing else.

import type { RunObservation } from '../types.ts';
import { describe, isRecord, member, plural } from './finding.ts';

/** Which event it is, as the first read or a replay received it. */
interface Identity {
  readonly sequence: unknown;
  readonly eventId: unknown;
  readonly type: unknown;
}

const CURSOR_NAMES: Readonly<Record<string, string>> = {
  'mid-log': 'a mid-log sequence',
  'last-sequence': 'the last sequence',
  'past-end': 'past the end',
};

/**
 * Whether the drive sent the host a cursor at all: a replay was made, or a page of the first
 * read was asked for after a sequence. Without either, `events.cursor` judged no cursor.
 */
export function cursorWasDriven(observation: RunObservation): boolean {
  const replays: unknown = observation.replays;
  const pages: unknown = observation.pages;
  return (
    (Array.isArray(replays) && replays.length > 0) ||
    (Array.isArray(pages) && pages.some((p) => typeof member(p, 'afterSequence') === 'number'))
  );
}

/**
 * One line per replay that did not return what the first read implies, the first thing wrong
 * with it; `replays` as recorded, `first` the first read's events in arrival order.
 */
export function replayProblems(replays: unknown, first: readonly unknown[]): string[] {
  if (!Array.isArray(replays)) return ['the replays are not a list'];
  const sent = sentPrefix(first);
  const problems: string[] = [];
  for (const replay of replays as readonly unknown[]) {
    const problem = replayProblem(replay, sent);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/** What the replays showed, for a holding finding; read as recorded, so never trusted. */
export function replaysHeld(replays: readonly unknown[]): string {
  if (replays.length === 0) return 'no replay (the first read held no sequence to resume from)';
  const after = replays.map((r) => describe(member(r, 'afterSequence'))).join(', ');
  const counts = replays.map((r) => {
    const events = member(r, 'events');
    return Array.isArray(events) ? events.length : 0;
  });
  return `replays after ${after} returned the first read's ${counts.join(', ')} events after each, ending terminal`;
}

/**
 * The first read as far as it can be trusted: its events up to the first whose sequence is not a
 * safe integer ≥ 0 above the one before. The driver replays from sequences in this same prefix.
 */
function sentPrefix(first: readonly unknown[]): Identity[] {
  const sent: Identity[] = [];
  for (const event of first) {
    const sequence = member(event, 'sequence');
    const previous = sent.at(-1)?.sequence;
    if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) break;
    if (typeof previous === 'number' && sequence <= previous) break;
    const eventId = member(member(event, 'envelope'), 'members');
    sent.push({ sequence, eventId: member(eventId, 'eventId'), type: member(event, 'type') });
  }
  return sent;
}

function replayProblem(replay: unknown, sent: readonly Identity[]): string | undefined {
  const after = member(replay, 'afterSequence');
  if (typeof after !== 'number') return `a replay has afterSequence ${describe(after)}`;
  const cursor = member(replay, 'cursor');
  const named = typeof cursor === 'string' && Object.hasOwn(CURSOR_NAMES, cursor);
  const label = `the replay after ${after} (${named ? CURSOR_NAMES[cursor] : 'an unnamed cursor'})`;
  const refusal = member(replay, 'refusal');
  if (typeof refusal === 'string') return `${label} MUST be answered with a page; ${refusal}`;
  const events = member(replay, 'events');
  const got: readonly unknown[] = Array.isArray(events) ? events : [];
  const wanted = sent.filter((e) => (e.sequence as number) > after);
  if (wanted.length === 0 && got.length > 0) {
    return `${label} MUST return no event; it returned ${listed(got)}`;
  }
  const wrong = firstDifference(wanted, got);
  if (wrong !== undefined) {
    return `${label} MUST return the first read's ${listed(wanted)} after it; it returned ${listed(got)}, ${wrong}`;
  }
  return terminalProblem(label, member(replay, 'pages'));
}

/** `3 events (sequences 7, 8, 9)`, long lists cut to their first three and last. */
function listed(events: readonly unknown[]): string {
  if (events.length === 0) return 'no event';
  const sequences = events.map((e) => describe(member(e, 'sequence')));
  const shown =
    sequences.length <= 5
      ? sequences.join(', ')
      : `${sequences.slice(0, 3).join(', ')}, …, ${sequences.at(-1) ?? ''}`;
  return `${plural(events.length, 'event')} (sequence${events.length === 1 ? '' : 's'} ${shown})`;
}

/** The first position where the replay differs from the first read, said by sequence. */
function firstDifference(wanted: readonly Identity[], got: readonly unknown[]): string | undefined {
  for (let i = 0; i < Math.max(wanted.length, got.length); i += 1) {
    const want = wanted[i];
    const event = got[i];
    const at = `the first difference at position ${i + 1}`;
    if (want === undefined) {
      return `${at}: sequence ${describe(member(event, 'sequence'))}, after the first read's last`;
    }
    if (event === undefined) {
      return `${at}: nothing, where the first read had sequence ${describe(want.sequence)}`;
    }
    if (!isRecord(event) || member(event, 'sequence') !== want.sequence) {
      return `${at}: sequence ${describe(member(event, 'sequence'))} where ${describe(want.sequence)} was expected`;
    }
    for (const key of ['eventId', 'type'] as const) {
      if (!same(member(event, key), want[key])) {
        return `${at}: sequence ${describe(want.sequence)} has ${key} ${describe(member(event, key))} where the first read had ${describe(want[key])}`;
      }
    }
  }
  return undefined;
}

function terminalProblem(label: string, pages: unknown): string | undefined {
  const list: readonly unknown[] = Array.isArray(pages) ? pages : [];
  const last = list.at(-1);
  if (last === undefined) return `${label} observed no page`;
  const isTerminal = member(last, 'isTerminal');
  if (isTerminal === true) return undefined;
  return `${label} MUST end terminal; its last page (${list.length}) says isTerminal ${describe(isTerminal)}`;
}

/**
 * Host values compared as sent: primitives by value, objects and arrays by their JSON text. Two
 * values of which one is not an object are the same only when identical: `NaN` and `null` both
 * write as `null`, and must not match. (`null` needs no case of its own: no other object writes
 * as `null`.)
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b);
}
