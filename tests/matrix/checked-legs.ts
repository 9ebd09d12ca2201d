// Which cells of the table `npm test` runs. The full table, every cell, is what
// `npm run falsifiability` runs and docs/falsifiability.md records; `npm test` runs the conformant
// row whole and, of each defect row, the legs the table expects to be caught there: a leg it
// expects to be anything but a plain executed-pass (a failure, a block, a gate, or a pass with a
// failed SHOULD wire finding). A defect row's plain passing cells are checked by the full run,
// and its committed line must show them passing (matrix-part.ts).

import {
  EXPECTED,
  LEG_SLUGS,
  type LegExpectation,
  type LegSlug,
  type Row,
  type RowName,
} from './expected.ts';

/** A cell that reads `pass`: executed-pass with no SHOULD finding expected. */
export const isPlainPass = (leg: LegExpectation): boolean =>
  leg.disposition === 'executed-pass' && (leg.warnings ?? []).length === 0;

/**
 * The legs of `row` that `npm test` runs: all of them for the conformant row, else those whose
 * expected cell is not a plain pass. Empty for a defect that only the host checks catch.
 */
export function legsCheckedInTests(name: RowName, row: Row = EXPECTED[name]): readonly LegSlug[] {
  if (name === 'conformant') return LEG_SLUGS;
  return LEG_SLUGS.filter((slug) => !isPlainPass(row[slug]));
}
