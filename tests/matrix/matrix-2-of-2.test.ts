// Part 2 of the falsifiability matrix; matrix-part.ts says what a part checks.
import { describeMatrixPart } from './matrix-part.ts';

describeMatrixPart(2, 2);
