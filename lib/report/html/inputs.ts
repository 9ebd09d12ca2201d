// What the page needs beyond the report: each fixture the rows drove, loaded and aligned trial by
// trial. Read once before rendering, so the renderer stays a pure function of its inputs.

import { decideRun } from '../../decide/decide.ts';
import { loadFixture } from '../../fixtures.ts';
import { generatePack } from '../../generate/pack.ts';
import type { Finding } from '../../types.ts';
import type { EvalGateReport } from '../report.ts';
import type { CaseViews, PageViews, TrialsByFixture } from './views.ts';
import type { FixtureTrials } from './trajectory.ts';
import { alignFixture } from './trajectory.ts';

export async function trialsFor(report: EvalGateReport): Promise<TrialsByFixture> {
  const fixtureIds = new Set(
    report.requirements.flatMap((r) => (r.fixtureId === undefined ? [] : [r.fixtureId])),
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
export function caseViewsFor(report: EvalGateReport): CaseViews {
  const views = new Map<string, { findings: readonly Finding[]; trials?: FixtureTrials }>();
  for (const row of report.requirements) {
    const pack = row.generated;
    // A streamed pack's cases are in its sidecar; the page shows its tally and smallest cases.
    if (pack === undefined || !('cases' in pack)) continue;
    const failing = pack.cases.some(
      (c) => c.disposition === 'executed-fail' && c.observation !== undefined,
    );
    if (!failing) continue;
    const fixtures = generatePack({ count: pack.count, seed: pack.seed });
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

/** Everything the page shows beyond the report and its expectations. */
export async function pageViewsFor(report: EvalGateReport): Promise<PageViews> {
  return { trials: await trialsFor(report), cases: caseViewsFor(report) };
}
