// The smallest-pack table of docs/generated-suites.md against the code: it names every defect of
// the reference host, and each row that records a pack size still holds at that size. The full
// search takes a minute (npm run generated-table); this check runs one fixture per row.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatePack } from '../../lib/generate/pack.ts';
import { DEFECTS, isDefectName } from '../../reference-host/defects.ts';
import { caughtOn, PACK_LIMIT, PACK_SEED } from './smallest-pack.ts';
import { HOW_CAUGHT, recordedRows } from './smallest-table.ts';

const page = readFileSync(new URL('../../docs/generated-suites.md', import.meta.url), 'utf8');
const rows = recordedRows(page);
const pack = generatePack({ count: PACK_LIMIT, seed: PACK_SEED });

describe('the smallest-pack table', () => {
  it('has one row per reference-host defect, in the order the host lists them', () => {
    expect(rows.map((r) => r.defect)).toEqual(DEFECTS.map((d) => d.name));
  });

  it('records a pack of at most 200 for every defect a run can show', () => {
    for (const row of rows) {
      if (row.n !== null) expect(row.n).toBeLessThanOrEqual(PACK_LIMIT);
    }
  });

  it.each(rows.filter((r) => r.n !== null))(
    '$defect is still shown at fixture $n, as the table says',
    async ({ defect, n, how }) => {
      const fixture = pack[(n ?? 0) - 1];
      if (fixture === undefined || !isDefectName(defect)) throw new Error(`no row for ${defect}`);
      const { caught } = await caughtOn(fixture, defect);
      expect(caught === null ? 'not caught' : HOW_CAUGHT[caught]).toBe(how);
    },
  );
});
