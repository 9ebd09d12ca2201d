// The full lane's rows whose runs never end: every cell, in every mode; matrix-part.ts says what
// a part checks.
import { describeMatrixPart, FULL_LANE } from './matrix-part.ts';
import { HANGING_ROWS } from './run-matrix.ts';

describeMatrixPart('the whole table, rows whose runs never end', HANGING_ROWS, FULL_LANE);
