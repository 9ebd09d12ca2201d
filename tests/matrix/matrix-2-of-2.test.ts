// npm test's part 2 of the matrix's busy rows: the cells checked-legs.ts names; matrix-part.ts
// says what a part checks.
import { describeMatrixPart } from './matrix-part.ts';
import { BUSY_PARTS, rowsOfPart } from './run-matrix.ts';

describeMatrixPart(`npm test, busy rows, part 2 of ${BUSY_PARTS}`, rowsOfPart(2, BUSY_PARTS));
