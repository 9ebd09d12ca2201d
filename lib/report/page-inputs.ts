// What the page shows beyond the report, made before rendering so that render/ only renders: each
// fixture the rows drove with its trials aligned (the witness's verdict of each trial), and each
// failing generated case the page opens with the decision `verify` makes of it. A generated case
// records its observation rather than its findings, so its findings are the replay's: the case
// decided again by recomputeCase, the one step of the replay, from the recorded discovery and
// settings, never judged by the page on its own.

import type * as GeneratedLeg from '../decide/generated-leg.ts';
import type { SidecarOpener } from '../decide/sidecar-opener.ts';
import { sidecarRecordsById } from '../decide/sidecar-records.ts';
import { loadFixture } from '../fixtures.ts';
import type * as PackGenerator from '../generate/pack.ts';
import type { Finding, Fixture, GeneratedCaseRecord } from '../types.ts';
import type { EvalGateReport } from './report.ts';
import { showsEvidence } from './render/html/requirement.ts';
import type { FixtureTrials } from './render/html/trajectory.ts';
import type { CaseViews, PageViews, SidecarCases, TrialsByFixture } from './render/html/views.ts';
import { alignFixture } from './trajectory-alignment.ts';
import type * as Replay from './verify/replay.ts';

/**
 * The pack generator, and fast-check with it, is loaded only for a report that holds a pack: the
 * page of a run of hand-written legs never needs it, nor the replay that decides a case again.
 */
type Generator = typeof PackGenerator;
type PackModules = readonly [Generator, typeof GeneratedLeg, typeof Replay];

type CaseView = { findings: readonly Finding[]; trials?: FixtureTrials };

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

/** How a failing case is shown: as verify decides it, with its trials; undefined where it cannot be decided. */
type CaseViewer = (fixture: Fixture, recorded: GeneratedCaseRecord) => CaseView | undefined;

function caseViewer(
  report: EvalGateReport,
  { recomputeCase }: typeof GeneratedLeg,
  { discoveryOf }: typeof Replay,
): CaseViewer {
  const discovery = discoveryOf(report).document;
  const settings: GeneratedLeg.GateSettings = { strict: report.strict, optedOut: report.optedOut };
  return (fixture, recorded) => {
    try {
      const decision = recomputeCase(fixture, recorded, discovery, settings);
      if (typeof decision === 'string') return undefined;
      return { findings: decision.findings, trials: alignFixture(fixture) };
    } catch {
      // A case the replay cannot decide shows what the report records of it; verify names why.
      return undefined;
    }
  };
}

/** Each failing inline case that recorded its observation, keyed `ROW-ID#CASE-INDEX`. */
function caseViewsFor(
  report: EvalGateReport,
  view: CaseViewer,
  { selectedFixtures }: Generator,
): CaseViews {
  const views = new Map<string, CaseView>();
  for (const row of report.requirements) {
    const pack = row.generated;
    // A streamed pack's cases are in its sidecar; the page shows its tally and smallest cases.
    if (pack === undefined || !('cases' in pack)) continue;
    const failing = (c: GeneratedCaseRecord): boolean =>
      c.disposition === 'executed-fail' && c.observation !== undefined;
    if (!pack.cases.some(failing)) continue;
    const fixtures = [...selectedFixtures(pack)];
    pack.cases.forEach((recorded, i) => {
      const fixture = fixtures[i];
      if (!failing(recorded) || fixture === undefined || fixture.id !== recorded.fixtureId) return;
      const shown = view(fixture, recorded);
      if (shown !== undefined) views.set(`${row.id}#${i}`, shown);
    });
  }
  return views;
}

/**
 * A streamed pack's smallest failing cases, the one case per failing rule a reader starts from:
 * their records read from the sidecar by the one sidecar reader, each decided as verify decides
 * it with the fixture drawn alone from the seed. A sidecar that cannot be read leaves the page
 * with the report's table of smallest cases.
 */
async function sidecarCaseViewsFor(
  report: EvalGateReport,
  view: CaseViewer,
  open: SidecarOpener,
  { packFixtureAt, parseGeneratedId }: Generator,
): Promise<{ readonly cases: CaseViews; readonly sidecarCases: SidecarCases }> {
  const views = new Map<string, CaseView>();
  const records = new Map<string, { index: number; record: GeneratedCaseRecord }[]>();
  for (const row of report.requirements) {
    const pack = row.generated;
    if (pack === undefined || 'cases' in pack || pack.smallest.length === 0) continue;
    const found: { index: number; record: GeneratedCaseRecord }[] = [];
    try {
      const wanted = new Set(pack.smallest.map((s) => s.fixtureId));
      for (const [id, { record }] of await sidecarRecordsById(open(pack.sidecar.file), wanted)) {
        const place = parseGeneratedId(id)?.index ?? 0;
        found.push({ index: place - 1, record });
        if (record.observation === undefined) continue;
        const shown = view(packFixtureAt(pack.seed, place, pack.generator), record);
        if (shown !== undefined) views.set(`${row.id}#${place - 1}`, shown);
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
  const [trials, modules] = await Promise.all([
    trialsFor(report),
    packed ? packModules() : undefined,
  ]);
  if (modules === undefined) {
    return openSidecar === undefined
      ? { trials, cases: new Map() }
      : { trials, cases: new Map(), sidecarCases: new Map() };
  }
  const [generator, generatedLeg, replay] = modules;
  const view = caseViewer(report, generatedLeg, replay);
  const inline = caseViewsFor(report, view, generator);
  if (openSidecar === undefined) return { trials, cases: inline };
  const streamed = await sidecarCaseViewsFor(report, view, openSidecar, generator);
  return {
    trials,
    cases: new Map([...inline, ...streamed.cases]),
    sidecarCases: streamed.sidecarCases,
  };
}

function packModules(): Promise<PackModules> {
  return Promise.all([
    import('../generate/pack.ts'),
    import('../decide/generated-leg.ts'),
    import('./verify/replay.ts'),
  ]);
}
