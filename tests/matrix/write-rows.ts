// `npx tsx tests/matrix/write-rows.ts ROW...`:
// runs only the named rows of the matrix in every mode, compares them with the expected table,
// and writes their two lines into docs/falsifiability.md, leaving every other row's lines as
// they are. For a row added or changed alone, where the whole matrix is a long run on a shared
// machine; `npm run falsifiability` remains the one that refreshes every row.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFECTS } from '../../reference-host/index.ts';
import { EXPECTED, type RowName } from './expected.ts';
import { assemble, DOC_PATH, linesOnPage, matrixTable, rowLines } from './render.ts';
import { ROW_NAMES, runMatrix, runRow } from './run-matrix.ts';

const rows = process.argv.slice(2);
const unknown = rows.filter((r) => !(ROW_NAMES as readonly string[]).includes(r));
if (rows.length === 0 || unknown.length > 0) {
  process.stderr.write(
    `usage: write-rows ROW... (unknown: ${unknown.join(', ') || 'none given'})\n`,
  );
  process.exit(2);
}
const path = fileURLToPath(new URL(`../../${DOC_PATH}`, import.meta.url));
const table = matrixTable(EXPECTED, DEFECTS);
const lines = linesOnPage(readFileSync(path, 'utf8'), table);
const results = await runMatrix(rows as RowName[], runRow);
let disagree = 0;
for (const row of table.filter((r) => rows.includes(r.name))) {
  const fresh = rowLines(row, results);
  lines.set(row.name, fresh);
  process.stdout.write(`${fresh.matrix}\n${fresh.failed ?? ''}\n`);
  if (fresh.matrix.includes('(table: ') || fresh.matrix.endsWith('| **no** |')) disagree += 1;
}
writeFileSync(path, assemble(table, lines));
process.exitCode = disagree > 0 ? 1 : 0;
