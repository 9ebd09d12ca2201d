// The full lane's part 2 of the matrix's busy rows: every cell, in every mode; matrix-part.ts says
// what a part checks.
import { describeMatrixPart, FULL_LANE } from './matrix-part.ts';
import { BUSY_PARTS, rowsOfPart } from './run-matrix.ts';

describeMatrixPart(
  `the whole table, busy rows, part 2 of ${BUSY_PARTS}`,
  rowsOfPart(2, BUSY_PARTS),
  FULL_LANE,
);
