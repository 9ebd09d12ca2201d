// The smallest-pack table of docs/generated-suites.md against the code: it names every defect of
// the reference host, and each row that records a pack size still holds at that size. The full
// search takes a minute (npm run generated-table); this check runs one fixture per row.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generatePack } from '../../lib/generate/pack.ts';
import { DEFECTS, isDefectName } from '../../reference-host/defects.ts';
import { packDir } from './pack-drive.ts';
import { caughtOn, caughtOverHttp, HTTP_LIMIT, PACK_LIMIT, PACK_SEED } from './smallest-pack.ts';
import { HOW_CAUGHT, OVER_HTTP, recordedRows } from './smallest-table.ts';

const page = readFileSync(new URL('../../docs/generated-suites.md', import.meta.url), 'utf8');
const rows = recordedRows(page);
const pack = generatePack({ count: PACK_LIMIT, seed: PACK_SEED });

/** The directory an HTTP row's host seeds, written once for every such row. */
let written: Promise<{ dir: string; remove: () => Promise<void> }> | undefined;
const httpDir = async (): Promise<string> =>
  (await (written ??= packDir(HTTP_LIMIT, PACK_SEED))).dir;
afterAll(async () => {
  await (await written)?.remove();
});

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
    { timeout: 60_000 },
    async ({ defect, n, how }) => {
      const fixture = pack[(n ?? 0) - 1];
      if (fixture === undefined || !isDefectName(defect)) throw new Error(`no row for ${defect}`);
      const http = how.endsWith(OVER_HTTP);
      const { caught } = http
        ? await caughtOverHttp(defect, n ?? 0, await httpDir())
        : await caughtOn(fixture, defect);
      const shown = caught === null ? 'not caught' : HOW_CAUGHT[caught];
      expect(http ? `${shown}${OVER_HTTP}` : shown).toBe(how);
    },
  );
});
