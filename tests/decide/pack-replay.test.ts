// The one replay loop of a generated pack, through its two record shapes: cases inline in the
// report and cases streamed to a sidecar. The shapes read the same cases through the same loop and
// differ only where their reports always said things differently: how a place is named, which of a
// misplaced case and another referee's draw is named first, a case past the pack's end, and how
// many contradicting cases are named before the rest are counted.

import { describe, expect, it } from 'vitest';
import { fixtureDigest } from '../../lib/canonical-json.ts';
import { recomputeGeneratedRow } from '../../lib/decide/generated-leg.ts';
import { recomputeStreamedRow } from '../../lib/decide/streamed-pack.ts';
import type { SidecarOpener } from '../../lib/decide/sidecar-opener.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { CURRENT_GENERATOR } from '../../lib/generate/versions.ts';
import type { GeneratedCaseRecord } from '../../lib/types.ts';

const LENIENT = { strict: false, optedOut: [] } as const;
const UNREAD = { ok: false } as const;
const SIDECAR = { file: 'cases.jsonl.gz', sha256: 'f'.repeat(64), bytes: 1 } as const;
const TALLY = { 'executed-pass': 0, 'executed-fail': 0, inapplicable: 0, skipped: 0, blocked: 0 };

const COUNT = 8;
const PACK = generatePack({ count: COUNT, seed: 1, generator: CURRENT_GENERATOR });
const id = (place: number): string => PACK[place - 1]?.id ?? '';

/** The record a blocked case at `place` writes, in the member order a run writes it. */
function blockedAt(place: number, as: number = place): GeneratedCaseRecord {
  const fixture = PACK[as - 1];
  if (fixture === undefined) throw new Error(`no fixture ${as}`);
  return {
    fixtureId: fixture.id,
    file: `${fixture.id}.json`,
    disposition: 'blocked',
    reason: 'could not observe the run (create): connection reset',
    fixtureDigest: fixtureDigest(fixture),
  };
}

function inline(cases: readonly GeneratedCaseRecord[], count = COUNT) {
  return recomputeGeneratedRow(
    { seed: 1, count, generator: CURRENT_GENERATOR, cases },
    UNREAD,
    LENIENT,
  );
}

function streamed(lines: readonly string[], count = COUNT) {
  const open: SidecarOpener = () => ({
    lines: (async function* () {
      yield* lines;
    })(),
    digest: () => ({ sha256: SIDECAR.sha256, bytes: SIDECAR.bytes }),
  });
  const record = { seed: 1, count, generator: CURRENT_GENERATOR, sidecar: SIDECAR };
  return recomputeStreamedRow({ ...record, tally: TALLY, smallest: [] }, UNREAD, LENIENT, open);
}

const lines = (cases: readonly GeneratedCaseRecord[]): string[] =>
  cases.map((c) => JSON.stringify(c));

const every = Array.from({ length: COUNT }, (_, i) => blockedAt(i + 1));

describe('the pack replayed through either shape', () => {
  it('decides the same cases to the same disposition, with no problem', async () => {
    const [one, other] = [await inline(every), await streamed(lines(every))];
    expect([one.problems, other.problems]).toEqual([[], []]);
    expect(one.decision.disposition).toBe('blocked');
    expect(other.decision.disposition).toBe('blocked');
    expect(one.record.cases).toEqual(every);
    expect(other.record.tally.blocked).toBe(COUNT);
  });

  it('an inline misplaced case with another draw digest is another referee, a misplaced line is a problem', async () => {
    const swapped = [blockedAt(1, 2), ...every.slice(1)];
    const one = await inline(swapped);
    expect(one.problems).toEqual([]);
    expect(one.differentReferee).toEqual([
      expect.stringMatching(
        new RegExp(`^generated case 1 \\(${id(2)}\\): records fixture digest [0-9a-f]{12}…`),
      ),
    ]);
    const other = await streamed(lines(swapped));
    expect(other.differentReferee).toEqual([]);
    expect(other.problems).toEqual([
      `${SIDECAR.file} line 1: records ${id(2)}, the pack places ${id(1)} there`,
    ]);
  });

  it('a case past the end of the pack is passed over inline and named in a sidecar', async () => {
    const longer = [...every, blockedAt(1)];
    const one = await inline(longer);
    expect(one.problems).toEqual([]);
    expect(one.record.cases).toHaveLength(COUNT);
    const other = await streamed(lines(longer));
    expect(other.problems).toEqual([
      `${SIDECAR.file} line ${COUNT + 1}: beyond the pack of ${COUNT} at seed 1`,
    ]);
  });

  it('inline names every contradicting case; a sidecar names five lines and counts the rest', async () => {
    const misfiled = every.map((c) => ({ ...c, file: 'elsewhere.json' }));
    const one = await inline(misfiled);
    expect(one.problems).toHaveLength(COUNT);
    expect(one.problems[0]).toBe(
      `generated case 1 (${id(1)}): recorded as elsewhere.json, the pack places ${id(1)} there`,
    );
    const other = await streamed(lines(misfiled));
    expect(other.problems).toEqual([
      ...Array.from(
        { length: 5 },
        (_, i) =>
          `${SIDECAR.file} line ${i + 1}: records ${id(i + 1)}, the pack places ${id(i + 1)} there`,
      ),
      `${SIDECAR.file}: and ${COUNT - 5} more lines that contradict the pack`,
    ]);
  });

  it('a line is held to the record its case decides to; an inline case is compared by verify', async () => {
    const spaced = lines(every).map((l, i) => (i === 2 ? l.replace(':', ': ') : l));
    const other = await streamed(spaced);
    expect(other.problems).toEqual([
      `${SIDECAR.file} line 3 (${id(3)}): the line is not the record its case decides to again`,
    ]);
    // The case still counts: its line differs in its spelling, not in its decision.
    expect(other.record.tally.blocked).toBe(COUNT);
  });

  it('a case too few is named by either shape, each its own way', async () => {
    const one = await inline(every.slice(0, -1));
    expect(one.problems).toEqual([
      `generated: ${COUNT - 1} cases recorded, the pack of ${COUNT} at seed 1 has ${COUNT}`,
    ]);
    const other = await streamed(lines(every.slice(0, -1)));
    expect(other.problems).toEqual([
      `${SIDECAR.file}: ${COUNT - 1} lines, the pack of ${COUNT} at seed 1 has ${COUNT}`,
    ]);
  });
});
