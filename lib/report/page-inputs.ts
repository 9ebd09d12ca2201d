// What the page shows beyond the report, made before rendering so that render/ only renders: each
// fixture the rows drove with its trials aligned (the witness's verdict of each trial), and each
// failing generated case the page opens with the findings its decider gave it. A generated case
// records its observation rather than its findings, so the page takes them from the decision the
// run made of the case, or the one verify's replay made again (DecidedCases): it never decides a
// case itself, and draws no fixture.

import type { SidecarOpener } from '../decide/sidecar-opener.ts';
import { sidecarRecordsById } from '../decide/sidecar-records.ts';
import { loadFixture } from '../fixtures.ts';
import { placeInPack } from '../generate/generated-id.ts';
import type { DecidedCasesByRow, Fixture, GeneratedCaseRecord } from '../types.ts';
import type { EvalGateReport } from './report.ts';
import { showsEvidence } from './render/html/requirement.ts';
import type { FixtureTrials } from './render/html/trajectory.ts';
import type {
  CaseView,
  CaseViews,
  PageViews,
  SidecarCases,
  TrialsByFixture,
} from './render/html/views.ts';
import { alignFixture } from './trajectory-alignment.ts';

export async function trialsFor(report: EvalGateReport): Promise<TrialsByFixture> {
  // Only a block shown with its evidence draws its trials.
  const fixtureIds = new Set(
    report.requirements.flatMap((r) =>
      r.fixtureId === undefined || !showsEvidence(r.disposition) ? [] : [r.fixtureId],
    ),
  );
  const loaded = await Promise.all(
    [...fixtureIds].map(async (id): Promise<(readonly [string, FixtureTrials])[]> => {
      const fixture = await loadFixture(id);
      const trials = fixture.ok ? trialsOf(fixture.fixture) : undefined;
      return trials === undefined ? [] : [[id, trials]];
    }),
  );
  return new Map(loaded.flat());
}

/**
 * A fixture's trials as the page draws them; none for a fixture the witness cannot grade, whose
 * row says why.
 */
function trialsOf(fixture: Fixture): FixtureTrials | undefined {
  try {
    return alignFixture(fixture);
  } catch {
    return undefined;
  }
}

/** Each decided case of each row, keyed `ROW-ID#PLACE` as the renderer finds it. */
function caseViewsOf(decided: DecidedCasesByRow): CaseViews {
  const views = new Map<string, CaseView>();
  for (const [rowId, cases] of decided) {
    for (const [place, { fixture, findings }] of cases) {
      const trials = trialsOf(fixture);
      views.set(`${rowId}#${place}`, trials === undefined ? { findings } : { findings, trials });
    }
  }
  return views;
}

/**
 * A streamed pack's smallest failing cases, the one case per failing rule a reader starts from:
 * their records read from the sidecar by the one sidecar reader, each at its place in the pack.
 * A sidecar that cannot be read leaves the page with the report's table of smallest cases.
 */
async function sidecarCasesOf(report: EvalGateReport, open: SidecarOpener): Promise<SidecarCases> {
  const records = new Map<string, { index: number; record: GeneratedCaseRecord }[]>();
  for (const row of report.requirements) {
    const pack = row.generated;
    if (pack === undefined || 'cases' in pack || pack.smallest.length === 0) continue;
    const found: { index: number; record: GeneratedCaseRecord }[] = [];
    try {
      const wanted = new Set(pack.smallest.map((s) => s.fixtureId));
      for (const [id, { record }] of await sidecarRecordsById(open(pack.sidecar.file), wanted)) {
        found.push({ index: placeInPack(id), record });
      }
    } catch {
      // The page shows the report's table of smallest cases; verify names what is wrong.
    }
    records.set(row.id, found);
  }
  return records;
}

/**
 * Everything the page shows beyond the report and its expectations; `decided` holds the failing
 * generated cases as the run or verify decided them.
 */
export async function pageViewsFor(
  report: EvalGateReport,
  decided: DecidedCasesByRow,
  openSidecar?: SidecarOpener,
): Promise<PageViews> {
  const [trials, sidecarCases] = await Promise.all([
    trialsFor(report),
    openSidecar === undefined ? undefined : sidecarCasesOf(report, openSidecar),
  ]);
  const cases = caseViewsOf(decided);
  return sidecarCases === undefined ? { trials, cases } : { trials, cases, sidecarCases };
}
