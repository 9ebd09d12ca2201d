// Reports the released 0.2.0 (commit 123b8b9) wrote with its own bins, pinned to its requirement
// set with `run --requirements 0.2.0 --require-behavior`, so each drove the set's pack of 40 at
// seed 1 drawn by generator v4 and streamed it to a sidecar: one signed, against its reference host
// with the defect strict-greater-than seeded with what `fixtures --out DIR --generate 40 --seed 1`
// writes, and one against the embedded host. A later release must replay them with v4 and judge
// them against the set they ran under, not the set it ships.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport } from '../../cli/verify.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { withCertification } from '../../lib/report/verdict/certification.ts';
import { currentSet, requirementSetOf } from '../../lib/requirement-sets.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';
import { LEGACY, unpackLegacyPack } from './legacy-pack.ts';

let dir = '';

beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

/** The report 0.2.0 wrote, unpacked into the scratch folder with its streamed pack's sidecar. */
async function legacyPack(name: string): Promise<{ path: string; report: EvalGateReport }> {
  const unpacked = await unpackLegacyPack(dir, `123b8b9-${name}`);
  const generated = unpacked.report.requirements.find((r) => r.generated !== undefined)?.generated;
  if (generated === undefined || !('sidecar' in generated)) {
    throw new Error(`the ${name} report streamed no pack`);
  }
  return unpacked;
}

/** Why the report is not certified, judged again as if unsigned, so only the run's facts count. */
const codes = (report: EvalGateReport): readonly string[] =>
  (withCertification(report, { state: 'unsigned' }).certification?.reasons ?? []).map(
    (r) => r.code,
  );

describe.each([
  ['signed', ['failed', 'unsigned']],
  ['embedded', ['embedded', 'unsigned']],
] as const)('the %s report 0.2.0 wrote', (name, reasons) => {
  it('recorded the set 0.2.0 shipped, its pack drawn by generator v4', async () => {
    const { report } = await legacyPack(name);
    expect(report.suite.version).toBe('0.2.0');
    expect(report.selection?.requirementSet).toEqual(requirementSetOf('0.2.0'));
    const generated = report.requirements.find((r) => r.generated !== undefined)?.generated;
    expect(generated).toMatchObject({ count: 40, seed: 1, generator: 4 });
  });

  it('replays every row with v4 and verifies with no problem; what differs is only the schemas a later release changed', async () => {
    const { report } = await legacyPack(name);
    const verified = await verifyReport(report, dir);
    expect(verified.problems).toEqual([]);
    // A later release's schema is not the one that ran (0.3.0 changed the matrix's): the earlier
    // referee's, named. Nothing about the rows differs.
    expect(
      verified.refereeDifferences.filter(
        (d) => !/^digests\.schemas\.\S+: .*is not the schema that ran\)$/.test(d),
      ),
    ).toEqual([]);
    expect(verified.recomputed).toBe(report.requirements.length);
    expect(verified.consistencyOnly).toBe(0);
  });

  it('holds v4 cases: recorded as drawn by v5, not one is the case v5 draws', async () => {
    const { report } = await legacyPack(name);
    const row = report.requirements.find((r) => r.generated !== undefined);
    if (row?.generated === undefined) throw new Error('the report recorded no pack');
    const edited: EvalGateReport = {
      ...report,
      requirements: report.requirements.map((r) =>
        r === row ? { ...row, generated: { ...row.generated, generator: 5 } } : r,
      ),
    } as EvalGateReport;
    const verified = await verifyReport(edited, dir);
    expect(verified.refereeDifferences).toContainEqual(
      expect.stringMatching(/^generated: 40 case\(s\) recorded another fixture than generator v5/),
    );
    expect(verified.consistencyOnly).toBe(1);
    expect(verified.problems).toContainEqual(
      expect.stringMatching(/^certification\.reasons\[code=pack-not-driven\]: recorded nothing/),
    );
  });

  it('counts the pack it drove as driven under its own set, and not under the current one', async () => {
    const { report } = await legacyPack(name);
    expect(codes(report)).toEqual(reasons);
    const selection = report.selection;
    if (selection?.requirementSet === undefined) throw new Error('the run recorded no set');
    // The same record judged against the set this release ships asks for a v5 pack.
    const underCurrent = {
      ...report,
      selection: { ...selection, requirementSet: currentSet() },
    };
    expect(codes(underCurrent)).toContain('pack-not-driven');
  });
});

describe('verify on the reports 0.2.0 wrote', () => {
  it('the signed report verifies under its key, naming the earlier referee, not a problem', async () => {
    const { path } = await legacyPack('signed');
    const run = await cli(['verify', path, '--key', join(LEGACY, 'pack-123b8b9-signed.pub.pem')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `referee: judged by openwop-eval-gate-conformance 0.2.0; this verifier is ${currentSet().version}`,
    );
    expect(run.stdout).toContainEqual(
      expect.stringMatching(/^certification: not certified: 4 of 22 failed, .*different referee/),
    );
    expect(run.stdout.at(-1)).toMatch(
      /: 22 rows recomputed, 0 checked for consistency only, every digest matches$/,
    );
  });

  it('the embedded report verifies offline', async () => {
    const { path } = await legacyPack('embedded');
    const run = await cli(['verify', path, '--offline']);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(/^unsigned: integrity only, nobody vouches for it, as of /);
  });
});
