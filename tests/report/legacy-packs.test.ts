// Generated packs of 20 at seed 11 written by earlier commits, before a report named its generator
// version, each by that commit's own bins against its reference host with the defect
// strict-greater-than, strict and signed (the streamed one also against the embedded host):
// 954060f drew with generator v2, f9e8dc1 with v3, 6fe5c46 with v4 and a sidecar. verify replays
// each pack with the archived generator that rebuilds it as recorded. Before the generators were
// archived, the 954060f pack replayed with v4's draw and failed verify with 3,619 problems.

import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport } from '../../cli/verify.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';

const LEGACY = join(import.meta.dirname, 'legacy');
let dir = '';

beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

/** The report unpacked into the scratch folder, with its sidecar beside it under its own name. */
async function legacyPack(name: string): Promise<{ path: string; report: EvalGateReport }> {
  const text = gunzipSync(await readFile(join(LEGACY, `pack-${name}.json.gz`)));
  const report = JSON.parse(text.toString('utf8')) as EvalGateReport;
  const path = join(dir, `${name}.json`);
  await writeFile(path, text);
  const generated = report.requirements.find((r) => r.generated !== undefined)?.generated;
  if (generated !== undefined && 'sidecar' in generated) {
    await copyFile(join(LEGACY, `pack-${name}.jsonl.gz`), join(dir, generated.sidecar.file));
  }
  return { path, report };
}

const drawnWith = (version: number): string =>
  `generated: the report names no generator version; its cases decide again as recorded with generator v${version}'s draw, the newest that does`;

describe('a generated pack written before the generator version was recorded', () => {
  it('a streamed, signed, failing pack replays with v4 and verifies under its key', async () => {
    const { path, report } = await legacyPack('6fe5c46-signed');
    const run = await cli(['verify', path, '--key', join(LEGACY, 'pack-6fe5c46-signed.pub.pem')]);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(
      /^different referee: verified, not certified by this verifier: .*: 20 rows recomputed, 0 checked for consistency only, every digest matches$/,
    );
    const verified = await verifyReport(report, dir);
    expect(verified.problems).toEqual([]);
    expect(verified.refereeDifferences).toContain(drawnWith(4));
  });

  it('a streamed pack against the embedded host verifies', async () => {
    const { path } = await legacyPack('6fe5c46-embedded');
    const run = await cli(['verify', path, '--offline']);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(/^unsigned: integrity only, nobody vouches for it: /);
  });

  // These packs replay case for case; what still differs is one finding's wording, which a later
  // release made more precise for a task that failed closed at passScore 0 (CHANGELOG 0.2.0), and
  // the rows digest over it.
  it.each([
    ['954060f', 2],
    ['f9e8dc1', 4],
  ] as const)(
    'the pack %s wrote replays with generator v%i, every case as recorded',
    async (commit, version) => {
      const { report } = await legacyPack(`${commit}-signed`);
      const verified = await verifyReport(report, dir);
      expect(verified.refereeDifferences).toContain(drawnWith(version));
      expect(verified.problems.filter((p) => p.includes('generated.cases'))).toEqual([]);
      expect(verified.problems).toHaveLength(2);
      expect(verified.problems[0]).toMatch(
        /^requirements\[id=openwop\.requirement\.0246\.generated\]\.findings\[\d+\]\.message: recorded "task \\"task-1\\": passed MUST be false \(its one trial did not pass\); host reported false", rebuilt "task \\"task-1\\": passed MUST be false \(its one trial did not pass, it failed closed; not gatedScore 0 ≥ passScore 0\); host reported false"$/,
      );
      expect(verified.problems[1]).toMatch(/^digests\.rows: recorded /);
    },
  );
});
