// Whether the reference host and the witness disagree on one fixture: the witness judges the
// reference host's own run of it, and the host's summary is compared with the oracle's.

import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import type { Finding, Fixture } from '../../lib/types.ts';
import type { DefectName } from '../../reference-host/defects.ts';
import { grade, sameReport } from '../property/oracle.ts';
import { referenceObservation } from './reference-run.ts';

export interface Disagreement {
  readonly failing: readonly string[];
  readonly summaryMatchesOracle: boolean;
}

/** What the two sides disagree on for one suite; null when they agree on everything. */
export async function disagreement(
  fixture: Fixture,
  defect?: DefectName,
): Promise<Disagreement | null> {
  const observation = await referenceObservation(fixture, defect);
  const findings: readonly Finding[] = judgeEvalRun(fixture, observation);
  const failing = findings.filter((f) => !f.ok).map((f) => `${f.rule}: ${f.message}`);
  const summaryMatchesOracle = sameReport(observation.summary, grade(fixture).summary);
  // Zero findings would be no agreement at all: the witness must have checked the run.
  if (findings.length > 0 && failing.length === 0 && summaryMatchesOracle) return null;
  return { failing, summaryMatchesOracle };
}
