// `npm run falsifiability`: runs the matrix once and writes docs/falsifiability.md from it. Exits
// 1 when a cell disagrees with the expected table or a defect goes uncaught, after writing, so the
// document shows the disagreement.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFECTS } from '../../reference-host/index.ts';
import { EXPECTED } from './expected.ts';
import { DOC_PATH, matrixTable, render } from './render.ts';
import { BUSY_PARTS, runMatrix, ROW_NAMES, runRow } from './run-matrix.ts';

const started = Date.now();
// The whole table at once is every test part's load together; in shares, each run waits behind
// no more than one part's load, as it does in the tests.
const text = render(matrixTable(EXPECTED, DEFECTS), await runMatrix(ROW_NAMES, runRow, BUSY_PARTS));
writeFileSync(fileURLToPath(new URL(`../../${DOC_PATH}`, import.meta.url)), text);
const disagreements = text
  .split('\n')
  .filter(
    (line) => line.startsWith('| ') && (line.includes('(table: ') || line.endsWith('| **no** |')),
  );
process.stdout.write(`wrote ${DOC_PATH} in ${Date.now() - started} ms\n`);
if (disagreements.length > 0) {
  process.stdout.write(`${disagreements.length} rows disagree with tests/matrix/expected.ts:\n`);
  for (const line of disagreements) process.stdout.write(`${line}\n`);
  process.exitCode = 1;
}
