// The failing generated cases a report's page opens, gathered by row from the outcomes that
// decided them: a run's, or verify's replay of a report. The page shows these findings as they
// were decided and decides nothing itself. A module of its own, with no import but types, because
// every run publishes through it while the pack's modules load only for a run that drives one.

import type { DecidedCasesByRow, LegOutcome } from '../types.ts';

/** The decided cases of each row that holds a pack, by requirement id. */
export function decidedCasesByRow(outcomes: readonly LegOutcome[]): DecidedCasesByRow {
  return new Map(
    outcomes.flatMap((o) =>
      o.decidedCases === undefined ? [] : [[o.requirement, o.decidedCases]],
    ),
  );
}
