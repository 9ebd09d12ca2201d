// What the page needs beyond the report: each fixture the rows drove, loaded and aligned trial by
// trial. Read once before rendering, so the renderer stays a pure function of its inputs.

import { loadFixture } from '../../fixtures.ts';
import type { EvalGateReport } from '../report.ts';
import type { TrialsByFixture } from './render-html.ts';
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
