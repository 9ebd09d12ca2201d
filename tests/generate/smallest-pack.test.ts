// The smallest-pack table of docs/generated-suites.md against the code: it names every defect of
// the reference host, every one is caught by the pack or the host checks of `run --generate`,
// each row that records a pack size still holds at that size, and each host-check cell still
// holds and agrees with the defect matrix. The full search takes minutes (npm run
// generated-table); this check runs one fixture per row.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generatePack } from '../../lib/generate/pack.ts';
import { DEFECTS, isDefectName, type DefectName } from '../../reference-host/defects.ts';
import type { LegSlug } from '../../lib/legs.ts';
import { EXPECTED } from '../matrix/expected.ts';
import { packDir } from './pack-drive.ts';
import { hostCheckFailures } from '../matrix/host-checks-expected.ts';
import {
  caughtOn,
  caughtOverHttp,
  hostChecksFailing,
  HTTP_LIMIT,
  PACK_LIMIT,
  PACK_SEED,
} from './smallest-pack.ts';
import { caughtBy, HOW_CAUGHT, OVER_HTTP, recordedRows } from './smallest-table.ts';

/**
 * Defects the pack of 200 does not reach yet, each with the hand-written leg that catches it:
 * the generator draws no task whose one slow trial makes a per-task p95 differ from the p95 over
 * every trial, and a task order is a SHOULD, which fails no case. An entry fails the test once
 * the pack catches it.
 */
const GENERATOR_BIAS: Readonly<Partial<Record<DefectName, LegSlug>>> = {
  'summary-tasks-sorted': 'readings-args',
  'p95-over-task-maxima': 'latency-limit-over-trials',
};

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

  it('every defect is caught by a run of at most 200 but the listed biases, and each row says by what', () => {
    for (const row of rows) {
      const caught = row.n === null ? null : 'MUST';
      expect(row.caughtBy, row.defect).toBe(caughtBy({ caught, hostChecks: row.hostChecks }));
    }
    expect(rows.filter((r) => r.caughtBy === 'nothing').map((r) => r.defect)).toEqual(
      Object.keys(GENERATOR_BIAS),
    );
  });

  it('each defect the pack misses is caught by the hand-written leg listed for it', () => {
    for (const [defect, leg] of Object.entries(GENERATOR_BIAS)) {
      if (!isDefectName(defect) || leg === undefined) throw new Error(`no defect ${defect}`);
      const expected = EXPECTED[defect][leg];
      // A SHOULD clause is caught by its warning, which fails no leg.
      const caught =
        expected.disposition === 'executed-fail' || (expected.warnings ?? []).length > 0;
      expect(caught, defect).toBe(true);
    }
  });

  it('the pack of 200 still misses each listed bias, so the list is not stale', async () => {
    for (const defect of Object.keys(GENERATOR_BIAS)) {
      if (!isDefectName(defect)) throw new Error(`no defect ${defect}`);
      // One run at a time: each in-process run has its own deadline, and two hundred at once on
      // one thread can each outlast it on a loaded machine, which would read as a catch.
      const shown: (string | null)[] = [];
      for (const f of pack) shown.push((await caughtOn(f, defect)).caught);
      expect(
        shown.filter((c) => c !== null),
        defect,
      ).toEqual([]);
    }
  }, 120_000);

  it('records the host-check rules the defect matrix expects of each defect', () => {
    for (const row of rows) {
      if (!isDefectName(row.defect)) throw new Error(`no defect ${row.defect}`);
      expect(row.hostChecks, row.defect).toEqual(hostCheckFailures(row.defect));
    }
  });

  it.each(rows.filter((r) => r.hostChecks.length > 0))(
    '$defect still fails the host checks the table names',
    { timeout: 60_000 },
    async ({ defect, hostChecks }) => {
      if (!isDefectName(defect)) throw new Error(`no defect ${defect}`);
      expect(await hostChecksFailing(defect, await httpDir())).toEqual(hostChecks);
    },
  );

  // Side by side: the rows whose run never ends each wait out a deadline.
  it.concurrent.each(rows.filter((r) => r.n !== null))(
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
