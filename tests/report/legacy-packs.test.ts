// Generated packs of 20 at seed 11 written by earlier commits, before a report named its generator
// version, each by that commit's own bins against its reference host with the defect
// strict-greater-than, strict and signed (the streamed one also against the embedded host):
// 637f719 (the first commit with generated packs) drew with generator v1, d9dcc67 and 954060f with
// v2, f9e8dc1 with v4, 6fe5c46 with v4 and a sidecar. verify replays each pack with the archived
// generator that rebuilds it as recorded. Before the generators were archived, the 954060f pack
// replayed with v4's draw and failed verify with 3,619 problems; before an earlier referee's wording
// and report shape were read as its own, every pack but 6fe5c46's failed with two to four.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport, type Verification } from '../../cli/verify.ts';
import { thisReferee } from '../../lib/report/verify/referee.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import type { Finding } from '../../lib/types.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';
import { LEGACY, unpackLegacyPack } from './legacy-pack.ts';

let dir = '';

beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

/** The report unpacked into the scratch folder, with its sidecar beside it under its own name. */
const legacyPack = (name: string) => unpackLegacyPack(dir, name);

const verifications = new Map<string, Promise<Verification>>();

/**
 * verify's integrity check of a pack as it was written, made once per pack: several tests read
 * the same check of the same unedited report, and each replays a pack under several generators.
 */
function verifiedAsWritten(name: string): Promise<Verification> {
  let pending = verifications.get(name);
  if (pending === undefined) {
    pending = legacyPack(name).then(({ report }) => verifyReport(report, dir));
    verifications.set(name, pending);
  }
  return pending;
}

const drawnWith = (version: number): string =>
  `generated: the report names no generator version; its cases decide again as recorded with generator v${version}'s draw, the newest that does`;

describe('a generated pack written before the generator version was recorded', () => {
  it('a streamed, signed, failing pack replays with v4 and verifies under its key', async () => {
    const { path } = await legacyPack('6fe5c46-signed');
    const run = await cli(['verify', path, '--key', join(LEGACY, 'pack-6fe5c46-signed.pub.pem')]);
    expect(run.code).toBe(0);
    // A key file binds no implementation, so its line leads; the referee line names the other suite.
    expect(run.stdout.at(-1)).toMatch(
      /^integrity under the key file .*, as of .*: 20 rows recomputed, 0 checked for consistency only, every digest matches$/,
    );
    expect(run.stdout).toContainEqual(
      expect.stringMatching(/^certification: not certified: .*different referee/),
    );
    const verified = await verifiedAsWritten('6fe5c46-signed');
    expect(verified.problems).toEqual([]);
    expect(verified.refereeDifferences).toContain(drawnWith(4));
  });

  it('a streamed pack against the embedded host verifies', async () => {
    const { path } = await legacyPack('6fe5c46-embedded');
    const run = await cli(['verify', path, '--offline']);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(/^unsigned: integrity only, nobody vouches for it, as of /);
  });

  // These packs replay case for case; what differs is one finding's wording, which a later release
  // made more precise for a task that failed closed at passScore 0 (CHANGELOG 0.2.0), the digest
  // over the rows, and in the two oldest the host checks' inapplicable list, which their schema
  // did not have yet. Each is the earlier referee's, named, and none is a problem.
  it.each([
    ['637f719', 1, true],
    ['d9dcc67', 2, true],
    ['954060f', 2, false],
    ['f9e8dc1', 4, false],
  ] as const)(
    'the pack %s wrote replays with generator v%i and verifies with no problem',
    async (commit, version, beforeInapplicable) => {
      const { path } = await legacyPack(`${commit}-signed`);
      const run = await cli([
        'verify',
        path,
        '--key',
        join(LEGACY, `pack-${commit}-signed.pub.pem`),
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout.at(-1)).toMatch(
        /^integrity under the key file .*, as of .*: 17 rows recomputed, 0 checked for consistency only/,
      );
      expect(run.stdout).toContainEqual(
        expect.stringMatching(/^certification: not certified: .*different referee/),
      );
      const verified = await verifiedAsWritten(`${commit}-signed`);
      expect(verified.problems).toEqual([]);
      expect(verified.refereeDifferences).toContain(drawnWith(version));
      expect(verified.refereeDifferences).toContainEqual(
        expect.stringMatching(
          /^requirements\[id=openwop\.requirement\.0246\.generated\]\.findings\[\d+\]\.message: recorded "task \\"task-1\\": passed MUST be false \(its one trial did not pass\); host reported false", rebuilt .*it failed closed; not gatedScore 0 ≥ passScore 0\).* \(worded by an earlier referee\)$/,
        ),
      );
      expect(verified.refereeDifferences).toContainEqual(
        expect.stringMatching(/^digests\.rows: recomputes over requirements as recorded; /),
      );
      const shape = verified.refereeDifferences.filter((d) =>
        d.startsWith('hostChecks.inapplicable'),
      );
      expect(shape).toEqual(
        beforeInapplicable
          ? [
              'hostChecks.inapplicable: absent, as the report schema of an earlier referee allowed (host checks record an inapplicable list since commit 6230871; builds numbered 0.1.0 before it wrote none); read as []',
            ]
          : [],
      );
    },
  );
});

describe('the commands that read a verified report', () => {
  // A report from before the inapplicable list reaches the matrix, badge and diff in the current
  // shape; before it did, the matrix stopped on the missing list.
  it("the matrix shows the two oldest packs as another referee's", async () => {
    const paths = [
      (await legacyPack('637f719-signed')).path,
      (await legacyPack('d9dcc67-signed')).path,
    ];
    const run = await cli(['matrix', ...paths, '--offline', '--out', join(dir, 'matrix')]);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout.filter((l) => l.startsWith('different-referee: '))).toHaveLength(2);
    expect(run.stdout.at(-1)).toMatch(/: 2 reports, \d+ rows$/);
  });
});

describe('what an earlier referee may not explain', () => {
  // The finding a later release reworded, found by what verify names of the pack as written, so
  // an edit of this copy lands on it.
  const reworded = async (report: EvalGateReport) => {
    const named = (await verifiedAsWritten('637f719-signed')).refereeDifferences
      .map((d) => /\.generated\]\.findings\[(\d+)\]\.message: .*earlier referee/.exec(d)?.[1])
      .find((i) => i !== undefined);
    const row = report.requirements.find((r) => r.id.endsWith('.generated'));
    const finding = row?.findings[Number(named)];
    if (finding === undefined) throw new Error('no reworded finding');
    return { finding, index: Number(named) };
  };

  it.each([
    [
      "a finding's outcome",
      (_report: EvalGateReport, finding: Finding) => {
        (finding as { ok: boolean }).ok = false;
      },
      (i: number) =>
        `requirements[id=openwop.requirement.0246.generated].findings[${i}].ok: recorded false, rebuilt true`,
    ],
    [
      'a number in a reworded message',
      (_report: EvalGateReport, finding: Finding) => {
        (finding as { message: string }).message = finding.message.replace('task-1', 'task-7');
      },
      (i: number) =>
        `requirements[id=openwop.requirement.0246.generated].findings[${i}].message: recorded "task \\"task-7\\"`,
    ],
    [
      "a row's disposition",
      (report: EvalGateReport) => {
        const row = report.requirements.find((r) => r.id.endsWith('.mean-partial-inclusive'));
        (row as { disposition: string }).disposition = 'executed-pass';
      },
      () =>
        'requirements[id=openwop.requirement.0246.mean-partial-inclusive].disposition: recorded "executed-pass", rebuilt "executed-fail"',
    ],
  ] as const)(
    '%s edited in the 637f719 pack is a problem, and so is the rows digest',
    async (_, edit, named) => {
      const { report } = await legacyPack('637f719-signed');
      const { finding, index } = await reworded(report);
      edit(report, finding);
      const verified = await verifyReport(report, dir);
      expect(verified.problems).toContainEqual(expect.stringContaining(named(index)));
      expect(verified.problems).toContainEqual(expect.stringMatching(/^digests\.rows: recorded /));
    },
  );

  it('the same report claiming this suite as its referee has its wording and shape as problems', async () => {
    const { report } = await legacyPack('637f719-signed');
    const verified = await verifyReport({ ...report, suite: await thisReferee() }, dir);
    expect(verified.problems).toContainEqual(
      expect.stringMatching(
        /^requirements\[id=openwop\.requirement\.0246\.generated\]\.findings\[\d+\]\.message: recorded /,
      ),
    );
    expect(verified.problems).toContain('hostChecks.inapplicable: recorded nothing, rebuilt []');
    expect(verified.problems).toContainEqual(expect.stringMatching(/^digests\.rows: recorded /));
    expect(verified.refereeDifferences.filter((d) => d.includes('earlier referee'))).toEqual([]);
  });
});
