// npm test's rows of the matrix whose runs never end, in a file of their own: they wait out
// their deadline, and nothing else in this thread delays the healthy part of their runs.
// matrix-part.ts says what a part checks.
import { describeMatrixPart } from './matrix-part.ts';
import { HANGING_ROWS } from './run-matrix.ts';

describeMatrixPart('npm test, rows whose runs never end', HANGING_ROWS);
