// Which generator drew a recorded pack: the version a record names, another referee's draw (a
// version this verifier lacks, a case whose fixture digest is not the one drawn there), and the
// newest version that replays a record that names none.

import { describe, expect, it } from 'vitest';
import type { PackRecomputation } from '../../lib/decide/generated-leg.ts';
import { blocked } from '../../lib/decide/decide.ts';
import { CURRENT_GENERATOR, GENERATOR_VERSIONS } from '../../lib/generate/versions.ts';
import { packDrawnBy } from '../../lib/report/verify/generator-version.ts';
import type { GeneratedCaseRecord, InlineGeneratedRecord } from '../../lib/types.ts';

const CASE: GeneratedCaseRecord = {
  fixtureId: 'generated-s1-n0001',
  file: 'generated-s1-n0001.json',
  disposition: 'blocked',
  reason: 'could not observe the run (create): connection reset',
};

const record = (generator?: number): InlineGeneratedRecord => ({
  seed: 1,
  count: 1,
  cases: [CASE],
  ...(generator === undefined ? {} : { generator }),
});

/** A recomputation that rebuilds `cases`, with the problems and other draws given. */
function recomputation(
  cases: readonly GeneratedCaseRecord[],
  problems: readonly string[] = [],
  differentReferee: readonly string[] = [],
): PackRecomputation {
  return {
    decision: blocked('x'),
    record: { seed: 1, count: 1, cases },
    problems,
    differentReferee,
    decidedCases: new Map(),
  };
}

describe('packDrawnBy', () => {
  it('replays a record with the version it names, and names no other', async () => {
    const asked: number[] = [];
    const drawn = await packDrawnBy(record(1), (v) => {
      asked.push(v);
      return recomputation([CASE]);
    });
    expect(asked).toEqual([1]);
    expect(drawn).toEqual({ again: recomputation([CASE]) });
  });

  it('a version this verifier does not have is another referee, and nothing is drawn', async () => {
    const unknown = CURRENT_GENERATOR + 1;
    const drawn = await packDrawnBy(record(unknown), () => {
      throw new Error('drew a version it does not have');
    });
    expect(drawn).toEqual({
      differentReferee: `generated: drawn by generator v${unknown}, which this verifier does not have (it has ${GENERATOR_VERSIONS.map((v) => `v${v}`).join(', ')}), so its cases cannot be drawn again`,
    });
  });

  it('a case whose digest is not the one drawn there is another referee, named with the count', async () => {
    const others = ['case 1: a', 'case 2: b', 'case 3: c', 'case 4: d'];
    const drawn = await packDrawnBy(record(2), () => recomputation([CASE], [], others));
    expect(drawn).toEqual({
      differentReferee:
        'generated: 4 case(s) recorded another fixture than generator v2 draws, so another referee drew them: case 1: a; case 2: b; case 3: c; and 1 more',
    });
  });

  it('a record that contradicts itself is named so, whatever its cases record', async () => {
    const drawn = await packDrawnBy(record(2), () =>
      recomputation([CASE], ['sidecar: recorded sha256 a, read b'], ['case 1: a']),
    );
    expect(drawn).toEqual({
      again: recomputation([CASE], ['sidecar: recorded sha256 a, read b'], ['case 1: a']),
    });
  });

  it('a record naming no version is replayed with the newest draw that rebuilds it as recorded', async () => {
    const asked: number[] = [];
    const other: GeneratedCaseRecord = { ...CASE, disposition: 'executed-fail' };
    const drawn = await packDrawnBy(record(), (v) => {
      asked.push(v);
      return recomputation([v <= 2 ? CASE : other]);
    });
    expect(asked).toEqual([...GENERATOR_VERSIONS].reverse().filter((v) => v >= 2));
    expect(drawn).toEqual({
      again: recomputation([CASE]),
      drawnBy:
        "generated: the report names no generator version; its cases decide again as recorded with generator v2's draw, the newest that does",
    });
  });

  it('a record no draw rebuilds is shown against the closest, its problems kept', async () => {
    const drawn = await packDrawnBy(record(), (v) =>
      recomputation([CASE], v === 1 ? ['one'] : ['one', 'two']),
    );
    expect(drawn).toEqual({
      again: recomputation([CASE], ['one']),
      drawnBy:
        "generated: the report names no generator version and no released generator draws its cases as recorded; compared with generator v1's draw, the closest",
    });
  });
});
