// What the page needs beyond the report: each fixture the rows drove, loaded and aligned trial by
// trial. Read once before rendering, so the renderer stays a pure function of its inputs.

import { decideRun } from '../../../decide/decide.ts';
import { loadFixture } from '../../../fixtures.ts';
import type { SidecarOpener } from '../../../decide/sidecar-opener.ts';
import type * as PackGenerator from '../../../generate/pack.ts';
import type { Finding, GeneratedCaseRecord } from '../../../types.ts';
import type { EvalGateReport } from '../../report.ts';
import type { CaseViews, PageViews, SidecarCases, TrialsByFixture } from './views.ts';
import type { FixtureTrials } from './trajectory.ts';
import { alignFixture } from './trajectory.ts';
import { showsEvidence } from './requirement.ts';

/**
 * The pack generator, and fast-check with it, is loaded only for a report that holds a pack: the
 * page of a run of hand-written legs never needs it.
 */
type Generator = typeof PackGenerator;

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
      if (!fixture.ok) return [];
      try {
        return [[id, alignFixture(fixture.fixture)]];
      } catch {
        // A fixture the witness cannot grade has no trials to show; its leg says why.
        return [];
      }
    }),
  );
  return new Map(loaded.flat());
}

/**
 * A failing generated case records its observation, not its findings (verify recomputes them):
 * for the page, each such case is judged again on its recorded observation, with the fixture the
 * seed regenerates, and its trials aligned. Keyed `ROW-ID#CASE-INDEX`.
 */
function caseViewsFor(report: EvalGateReport, { selectedFixtures }: Generator): CaseViews {
  const views = new Map<string, { findings: readonly Finding[]; trials?: FixtureTrials }>();
  for (const row of report.requirements) {
    const pack = row.generated;
    // A streamed pack's cases are in its sidecar; the page shows its tally and smallest cases.
    if (pack === undefined || !('cases' in pack)) continue;
    const failing = pack.cases.some(
      (c) => c.disposition === 'executed-fail' && c.observation !== undefined,
    );
    if (!failing) continue;
    const fixtures = [...selectedFixtures(pack)];
    pack.cases.forEach((recorded, i) => {
      const fixture = fixtures[i];
      if (recorded.observation === undefined || recorded.disposition !== 'executed-fail') return;
      if (fixture === undefined || fixture.id !== recorded.fixtureId) return;
      try {
        views.set(`${row.id}#${i}`, {
          findings: decideRun(fixture, recorded.observation).findings,
          trials: alignFixture(fixture),
        });
      } catch {
        // A case the witness cannot judge again shows what the report records of it.
      }
    });
  }
  return views;
}

/**
 * A streamed pack's smallest failing cases, the one case per failing rule a reader starts from:
 * their lines read from the sidecar (the rest are passed over by their first characters, without
 * parsing), each judged again with the fixture drawn alone from the seed. A sidecar that cannot
 * be read leaves the page with the report's table of smallest cases.
 */
async function sidecarCaseViewsFor(
  report: EvalGateReport,
  open: SidecarOpener,
  { packFixtureAt, parseGeneratedId }: Generator,
): Promise<{ readonly cases: CaseViews; readonly sidecarCases: SidecarCases }> {
  const views = new Map<string, { findings: readonly Finding[]; trials?: FixtureTrials }>();
  const records = new Map<string, { index: number; record: GeneratedCaseRecord }[]>();
  for (const row of report.requirements) {
    const pack = row.generated;
    if (pack === undefined || 'cases' in pack || pack.smallest.length === 0) continue;
    const wanted = new Set(pack.smallest.map((s) => s.fixtureId));
    const found: { index: number; record: GeneratedCaseRecord }[] = [];
    try {
      for await (const line of open(pack.sidecar.file).lines) {
        const id = [...wanted].find((w) => line.startsWith(`{"fixtureId":${JSON.stringify(w)}`));
        if (id === undefined) continue;
        wanted.delete(id);
        const record = JSON.parse(line) as GeneratedCaseRecord;
        const place = parseGeneratedId(id)?.index ?? 0;
        found.push({ index: place - 1, record });
        if (record.observation !== undefined) {
          const fixture = packFixtureAt(pack.seed, place, pack.generator);
          views.set(`${row.id}#${place - 1}`, {
            findings: decideRun(fixture, record.observation).findings,
            trials: alignFixture(fixture),
          });
        }
        if (wanted.size === 0) break;
      }
    } catch {
      // The page shows the report's table of smallest cases; verify names what is wrong.
    }
    records.set(row.id, found);
  }
  return { cases: views, sidecarCases: records };
}

/** Everything the page shows beyond the report and its expectations. */
export async function pageViewsFor(
  report: EvalGateReport,
  openSidecar?: SidecarOpener,
): Promise<PageViews> {
  const packed = report.requirements.some((r) => r.generated !== undefined);
  const [trials, generator] = await Promise.all([
    trialsFor(report),
    packed ? import('../../../generate/pack.ts') : undefined,
  ]);
  if (generator === undefined) {
    return openSidecar === undefined
      ? { trials, cases: new Map() }
      : { trials, cases: new Map(), sidecarCases: new Map() };
  }
  const inline = caseViewsFor(report, generator);
  if (openSidecar === undefined) return { trials, cases: inline };
  const streamed = await sidecarCaseViewsFor(report, openSidecar, generator);
  return {
    trials,
    cases: new Map([...inline, ...streamed.cases]),
    sidecarCases: streamed.sidecarCases,
  };
}
