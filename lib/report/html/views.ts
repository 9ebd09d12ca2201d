// What the page shows beyond the report, prepared before rendering (inputs.ts) so the renderer
// stays a pure function of its inputs.

import type { Finding } from '../../types.ts';
import type { FixtureTrials } from './trajectory.ts';

/** The aligned trials of each fixture the rows drove, by fixture id (lib/report/html/inputs.ts). */
export type TrialsByFixture = ReadonlyMap<string, FixtureTrials>;

/** A failing generated case judged again for the page, keyed `ROW-ID#CASE-INDEX` (inputs.ts). */
export type CaseViews = ReadonlyMap<
  string,
  { readonly findings: readonly Finding[]; readonly trials?: FixtureTrials }
>;

export interface PageViews {
  readonly trials: TrialsByFixture;
  readonly cases: CaseViews;
}

export const NO_VIEWS: PageViews = { trials: new Map(), cases: new Map() };
