// What the page shows beyond the report, prepared before rendering (lib/report/page-inputs.ts) so the renderer
// stays a pure function of its inputs.

import type { Finding, GeneratedCaseRecord } from '../../../types.ts';
import type { FixtureTrials } from './trajectory.ts';

/** The aligned trials of each fixture the rows drove, by fixture id (lib/report/page-inputs.ts). */
export type TrialsByFixture = ReadonlyMap<string, FixtureTrials>;

/** A failing generated case as its run or verify decided it, with its fixture's trials. */
export interface CaseView {
  readonly findings: readonly Finding[];
  readonly trials?: FixtureTrials;
}

/** Each case's view keyed `ROW-ID#CASE-INDEX` (lib/report/page-inputs.ts). */
export type CaseViews = ReadonlyMap<string, CaseView>;

/**
 * The records of a streamed pack's smallest failing cases, read from its sidecar, keyed by row id;
 * each with its place in the pack (0-based), which keys its view in CaseViews.
 */
export type SidecarCases = ReadonlyMap<
  string,
  readonly { readonly index: number; readonly record: GeneratedCaseRecord }[]
>;

export interface PageViews {
  readonly trials: TrialsByFixture;
  readonly cases: CaseViews;
  readonly sidecarCases?: SidecarCases;
}

export const NO_VIEWS: PageViews = { trials: new Map(), cases: new Map() };
