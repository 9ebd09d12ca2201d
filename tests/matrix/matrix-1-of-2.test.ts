// Part 1 of the matrix's busy rows; matrix-part.ts says what a part checks.
import { describeMatrixPart } from './matrix-part.ts';
import { BUSY_PARTS, rowsOfPart } from './run-matrix.ts';

describeMatrixPart(`busy rows, part 1 of ${BUSY_PARTS}`, rowsOfPart(1, BUSY_PARTS));
