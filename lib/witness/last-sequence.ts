// `lastSequence` on every poll page, the first read's and the replays' (contract §6, upstream
// `spec/v2/core/events.md` §Poll): the highest sequence in the log when the page was answered, −1
// only while the log is empty, and nothing else (not the page's last event, not the cursor).
// What the log held at that moment is bounded by what the suite saw: at least every event
// delivered so far, at most the finished log's highest sequence; once the log is finished, as it
// is on every replay, exactly that highest sequence. Pure: it reads the observation only.

import type { Finding, ObservedPage, RunObservation } from '../types.ts';
import { describe, finding, member } from './finding.ts';

/** Problems shown in a failing finding; the rest are counted. */
const SHOWN = 3;

export function judgeLastSequence(
  observation: RunObservation,
  events: readonly unknown[],
): Finding {
  const pages: readonly ObservedPage[] = Array.isArray(observation.pages) ? observation.pages : [];
  const delivered = deliveredHighs(pages, events);
  const highest = delivered.at(-1);
  const problems: string[] = [];
  pages.forEach((page, i) => {
    const problem = firstReadProblem(page.lastSequence, delivered[i], highest);
    if (problem !== undefined) problems.push(`page ${i + 1} of the first read ${problem}`);
  });
  let judged = pages.length;
  const replays: unknown = observation.replays;
  if (Array.isArray(replays)) {
    for (const replay of replays as readonly unknown[]) {
      const replayPages: unknown = member(replay, 'pages');
      if (!Array.isArray(replayPages)) continue;
      const label = `the replay after ${describe(member(replay, 'afterSequence'))}`;
      (replayPages as readonly unknown[]).forEach((page, i) => {
        judged += 1;
        const last = member(page, 'lastSequence');
        const want = highest ?? -1;
        if (last !== want) {
          problems.push(
            `page ${i + 1} of ${label} says ${describe(last)}, where the finished log's highest sequence is ${want}`,
          );
        }
      });
    }
  }
  const ok = problems.length === 0;
  const total = `${judged} page${judged === 1 ? '' : 's'}`;
  return finding(
    'events.last-sequence',
    ok,
    ok
      ? `lastSequence is the log's highest sequence on all ${total}, the replays' included`
      : `every poll page's lastSequence MUST be the highest sequence in the log when it is answered (−1 only for an empty log), so the page is at fault; ${problems.length} of ${total} ${problems.length === 1 ? 'is' : 'are'} not: ${problems.slice(0, SHOWN).join('; ')}${problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : ''}`,
  );
}

/**
 * For each first-read page, the highest sequence delivered on it or before it (undefined while
 * none has been); the last entry is the highest the whole first read delivered.
 */
function deliveredHighs(
  pages: readonly ObservedPage[],
  events: readonly unknown[],
): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let offset = 0;
  let high: number | undefined;
  for (const page of pages) {
    const count =
      Number.isSafeInteger(page.eventCount) && page.eventCount > 0 ? page.eventCount : 0;
    for (let k = offset; k < offset + count && k < events.length; k += 1) {
      const sequence = member(events[k], 'sequence');
      if (typeof sequence === 'number' && Number.isSafeInteger(sequence)) {
        high = high === undefined ? sequence : Math.max(high, sequence);
      }
    }
    offset += count;
    out.push(high);
  }
  return out;
}

/** What is wrong with one first-read page's lastSequence, or undefined when nothing is. */
function firstReadProblem(
  last: unknown,
  deliveredSoFar: number | undefined,
  highest: number | undefined,
): string | undefined {
  if (typeof last !== 'number' || !Number.isSafeInteger(last) || last < -1) {
    return `says ${describe(last)}, which is no sequence and not −1`;
  }
  if (deliveredSoFar !== undefined && last < deliveredSoFar) {
    return `says ${last}, below sequence ${deliveredSoFar}, which the log already held`;
  }
  if (last > (highest ?? -1)) {
    return `says ${last}, above ${highest === undefined ? 'an empty log (−1)' : `the finished log's highest sequence ${highest}`}`;
  }
  return undefined;
}
