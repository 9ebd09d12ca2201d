// Requirement sets per suite version: `run --requirements VERSION` runs exactly the set that
// version shipped and records it, the legs outside it are skipped as not selected, the closing
// line says what the current set would add, `verify` rebuilds the set from the version, and an
// unknown version is refused listing the known ones.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFrom } from '../../cli/run-options.ts';
import { LEGS, REQUIREMENT_PREFIX } from '../../lib/legs.ts';
import { ciLimits, ciVerdict } from '../../lib/report/verdict/ci-verdict.ts';
import { setBullet } from '../../lib/report/render/markdown-ci.ts';
import type { CiFacts } from '../../lib/report/verdict/ci-verdict.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { isSelected, resolveSelection, selectedIds } from '../../lib/report/run-options.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import type { RequirementSet } from '../../lib/requirement-sets.ts';
import { REQUIREMENT_SETS, requirementSetOf } from '../../lib/requirement-sets.ts';
import { cli, readReport, removeDir, scratchDir, verifyWritten } from './support.ts';

const PACKAGE = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};
const MEAN = `${REQUIREMENT_PREFIX}mean-gated`;
const SUITE = `${REQUIREMENT_PREFIX}suite-gated`;
/** A set as an earlier version with two legs would have recorded it. */
const EARLIER: RequirementSet = {
  version: '0.0.1',
  requirements: [MEAN, SUITE],
  pack: { count: 10, seed: 1 },
};

describe('the recorded sets', () => {
  it('the newest is the package version and holds every leg, in the order of the legs', () => {
    const newest = REQUIREMENT_SETS.at(-1);
    expect(newest?.version).toBe(PACKAGE.version);
    expect(newest?.requirements).toEqual(LEGS.map((l) => l.id));
  });

  it('every set names only legs of this suite, each once', () => {
    const ids = new Set(LEGS.map((l) => l.id));
    for (const set of REQUIREMENT_SETS) {
      expect(
        set.requirements.filter((id) => !ids.has(id)),
        set.version,
      ).toEqual([]);
      expect(new Set(set.requirements).size, set.version).toBe(set.requirements.length);
    }
  });

  it('a version is found with or without a leading v; an unknown one is refused listing the known ones', () => {
    expect(requirementSetOf(`v${PACKAGE.version}`)?.version).toBe(PACKAGE.version);
    expect(() => setFrom('9.9.9')).toThrow(
      `--requirements 9.9.9 names no suite version with a requirement set; the versions are ${REQUIREMENT_SETS.map((s) => s.version).join(', ')}`,
    );
  });
});

describe('a pinned set as a selection', () => {
  const selection = resolveSelection([], [], EARLIER);

  it('selects exactly the set, leaving out every leg it does not hold', () => {
    expect(selectedIds(selection)).toEqual([MEAN, SUITE]);
    for (const leg of LEGS.filter((l) => !EARLIER.requirements.includes(l.id))) {
      expect(isSelected(selection, leg.id), leg.id).toBe(false);
    }
  });

  it('refuses an --only outside the set', () => {
    expect(() => resolveSelection(['limits-hold'], [], EARLIER)).toThrow(
      '--only limits-hold is not in requirement set 0.0.1, which --requirements pinned',
    );
  });

  it('says on the closing line which set ran and how many the current set adds', () => {
    const rows = LEGS.map((l) => ({ id: l.id, disposition: 'executed-pass', findings: [] }));
    const report = {
      requirements: rows,
      ...runRecord({ selection }, rows),
    } as unknown as CiFacts;
    expect(ciLimits(report, ciVerdict(report))).toContain(
      `requirement set 0.0.1 (the current set adds ${LEGS.length - 2})`,
    );
  });
});

describe('run --requirements', () => {
  let dir = '';
  let report: EvalGateReport;
  let code = -1;
  beforeAll(async () => {
    dir = await scratchDir();
    const run = await cli([
      'run',
      '--requirements',
      PACKAGE.version,
      '--only',
      'mean-gated',
      '--report-dir',
      join(dir, 'run'),
    ]);
    code = run.code;
    report = await readReport(join(dir, 'run'));
  }, 120_000);
  afterAll(async () => {
    await removeDir(dir);
  });

  it('records the set the version shipped', () => {
    expect(code).toBe(0);
    expect(report.selection?.requirementSet).toEqual(requirementSetOf(PACKAGE.version));
  });

  it('verifies as written, and not once the recorded set is edited', async () => {
    expect((await verifyWritten(dir, report)).code).toBe(0);
    const selection = report.selection;
    if (selection?.requirementSet === undefined) throw new Error('the run recorded no set');
    const edited = {
      ...report,
      selection: {
        ...selection,
        requirementSet: { ...selection.requirementSet, requirements: [MEAN] },
      },
    };
    const checked = await verifyWritten(dir, edited);
    expect(checked.code).toBe(1);
    expect(checked.lines).toContainEqual(
      expect.stringMatching(/^selection\.requirementSet\.requirements\[\d+\]: recorded /),
    );
  });

  it('an unknown version is one line and exit 2, before any leg runs', async () => {
    const run = await cli(['run', '--requirements', '0.0.9', '--report-dir', join(dir, 'no')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --requirements 0.0.9 names no suite version with a requirement set; the versions are ${REQUIREMENT_SETS.map((s) => s.version).join(', ')}`,
    ]);
  });
});

describe('the summary names the set', () => {
  it('a run that pins nothing ran the current set', () => {
    const current = REQUIREMENT_SETS.at(-1)?.version ?? '';
    expect(setBullet(undefined)).toBe(
      `- requirement set: ${current}, the current one (pin it with --requirements ${current})`,
    );
  });

  it('a pinned earlier set lists what the current set adds', () => {
    const added = LEGS.map((l) => l.id).filter((id) => !EARLIER.requirements.includes(id));
    expect(setBullet(EARLIER)).toBe(
      `- requirement set: 0.0.1 (--requirements), 2 requirements; the current set ${PACKAGE.version} adds ${added.join(', ')}`,
    );
  });
});
