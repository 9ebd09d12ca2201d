// Which cells of the table `npm test` runs. The full table, every leg of every row in every mode,
// is what the full lane (`npm run test:matrix-full`) checks and `npm run falsifiability` writes
// to docs/falsifiability.md. `npm test` runs the conformant row whole, in every mode, and of each
// defect row the legs the table expects to be caught there (a leg it expects to be anything but a
// plain executed-pass: a failure, a block, a gate, or a pass with a failed SHOULD wire finding), in
// two modes that between them hold both variants and both pacings. The table expects the same
// mark of a leg in every mode, so two such modes show a defect caught on each variant and at each
// pacing; the other two modes, and a defect row's plain passing cells, are the full lane's, and
// the committed page must agree with every cell `npm test` ran (matrix-part.ts).

import {
  EXPECTED,
  LEG_SLUGS,
  type LegExpectation,
  type LegSlug,
  type Row,
  type RowName,
} from './expected.ts';
import { MODE_NAMES, ROW_NAMES, type MatrixPlan, type ModeName } from './run-matrix.ts';

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

/**
 * The two ways of pairing the four modes so that each pair holds both variants and both pacings.
 * Defect rows take them in turn down the table, so each mode carries about half the rows.
 */
export const CROSSED: readonly (readonly ModeName[])[] = [
  ['plain/instant', 'varied/slow'],
  ['varied/instant', 'plain/slow'],
];

/** The modes `npm test` runs `name` in: every mode for the conformant row, else a crossed pair. */
export function modesInTests(name: RowName): readonly ModeName[] {
  if (name === 'conformant') return MODE_NAMES;
  return CROSSED[ROW_NAMES.indexOf(name) % CROSSED.length] ?? MODE_NAMES;
}

/** What `npm test` runs of the table. */
export const TESTS_PLAN: MatrixPlan = (row, mode) =>
  modesInTests(row).includes(mode) ? legsCheckedInTests(row) : [];

/** The whole table: every leg of every row in every mode, as the full lane and the page have it. */
export const FULL_PLAN: MatrixPlan = () => LEG_SLUGS;
