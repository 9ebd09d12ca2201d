// The generated requirement's row in `verify`: its pack regenerated from the recorded seed and
// size, each case decided again from what it recorded, and the row decided from those cases.

import { recomputeGeneratedRow } from '../lib/decide/generated-leg.ts';
import type { ReportRow } from '../lib/report/report.ts';
import type { Discovery, Recomputed, RunSettings } from './verify-verdicts.ts';

/**
 * What the generated row recomputes to; a string naming every case whose record contradicts the
 * pack or itself; undefined for a row that drove no pack (no host), whose consistency is checked.
 */
export function recomputeGenerated(
  row: ReportRow,
  settings: RunSettings,
  discovery: Discovery,
): Recomputed | string | undefined {
  if (row.generated === undefined) return undefined;
  const again = recomputeGeneratedRow(row.generated, discovery, settings);
  return again.problems.length > 0 ? again.problems.join('; ') : again.decision;
}
