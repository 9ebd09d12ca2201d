// What the parts of the matrix cannot check one by one: that the table has a row for every
// defect, and that docs/falsifiability.md is the page its own row lines assemble into, so that
// with every part's rows fresh the whole page is fresh.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../../reference-host/index.ts';
import { EXPECTED } from './expected.ts';
import { assemble, DOC_PATH, linesOnPage, matrixTable, REGENERATE } from './render.ts';
import { BUSY_PARTS, HANGING_ROWS, ROW_NAMES, rowsOfPart } from './run-matrix.ts';

describe('the falsifiability page', () => {
  it('has one row per reference-host defect, plus the conformant host, and no other', () => {
    const defects = DEFECTS.map((d) => d.name as string).sort();
    const rows = ROW_NAMES.filter((r) => r !== 'conformant').sort();
    expect(rows, 'a defect without a row, or a row without a defect').toEqual(defects);
    expect(ROW_NAMES[0]).toBe('conformant');
  });

  it(`the ${BUSY_PARTS} parts of busy rows and the part of hanging rows hold every row once, each in its file`, () => {
    const parts = [
      ...Array.from({ length: BUSY_PARTS }, (_, i) => rowsOfPart(i + 1, BUSY_PARTS)),
      HANGING_ROWS,
    ];
    expect(parts.flat().sort()).toEqual([...ROW_NAMES].sort());
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    const files = [
      ...Array.from({ length: BUSY_PARTS }, (_, i) => `matrix-${i + 1}-of-${BUSY_PARTS}.test.ts`),
      'matrix-hanging.test.ts',
    ];
    for (const file of files) expect(existsSync(new URL(file, import.meta.url)), file).toBe(true);
  });

  it(`${DOC_PATH} is the assembly of its own row lines, one pair per row (else run \`${REGENERATE}\`)`, () => {
    const page = readFileSync(fileURLToPath(new URL(`../../${DOC_PATH}`, import.meta.url)), 'utf8');
    const table = matrixTable(EXPECTED, DEFECTS);
    const lines = linesOnPage(page, table);
    const missing = table
      .filter((row) => {
        const found = lines.get(row.name);
        return found === undefined || (row.name !== 'conformant') !== (found.failed !== undefined);
      })
      .map((row) => row.name);
    expect(missing, 'rows without their lines').toEqual([]);
    expect(page === assemble(table, lines), `${DOC_PATH} is stale: run \`${REGENERATE}\``).toBe(
      true,
    );
  });
});
