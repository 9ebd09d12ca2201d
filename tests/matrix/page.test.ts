// What the parts of the matrix cannot check one by one: that the table has a row for every
// defect, and that docs/falsifiability.md is the page its own row lines assemble into, so that
// with every part's rows fresh the whole page is fresh.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../../reference-host/index.ts';
import { EXPECTED, LEG_SLUGS, type LegSlug } from './expected.ts';
import {
  agreesWhereRun,
  agreesWhole,
  assemble,
  DOC_PATH,
  linesOnPage,
  matrixTable,
  REGENERATE,
  type RowLines,
} from './render.ts';
import { FULL_PLAN, legsCheckedInTests, modesInTests, TESTS_PLAN } from './checked-legs.ts';
import { BUSY_PARTS, HANGING_ROWS, MODE_NAMES, ROW_NAMES, rowsOfPart } from './run-matrix.ts';

describe('the falsifiability page', () => {
  it('has one row per reference-host defect, plus the conformant host, and no other', () => {
    const defects = DEFECTS.map((d) => d.name as string).sort();
    const rows = ROW_NAMES.filter((r) => r !== 'conformant').sort();
    expect(rows, 'a defect without a row, or a row without a defect').toEqual(defects);
    expect(ROW_NAMES[0]).toBe('conformant');
  });

  it(`the ${BUSY_PARTS} parts of busy rows and the part of hanging rows hold every row once, each in its file in both lanes`, () => {
    const parts = [
      ...Array.from({ length: BUSY_PARTS }, (_, i) => rowsOfPart(i + 1, BUSY_PARTS)),
      HANGING_ROWS,
    ];
    expect(parts.flat().sort()).toEqual([...ROW_NAMES].sort());
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    const files = [
      ...Array.from({ length: BUSY_PARTS }, (_, i) => `matrix-${i + 1}-of-${BUSY_PARTS}.test.ts`),
      'matrix-hanging.test.ts',
      ...Array.from(
        { length: BUSY_PARTS },
        (_, i) => `full-table-${i + 1}-of-${BUSY_PARTS}.check.ts`,
      ),
      'full-table-hanging.check.ts',
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

  it('npm test runs the conformant row in every mode, and each defect row in two modes that hold both variants and both pacings, each mode about half the rows', () => {
    expect(modesInTests('conformant')).toEqual(MODE_NAMES);
    const defects = ROW_NAMES.filter((r) => r !== 'conformant');
    const narrow = defects.filter((row) => {
      const modes = modesInTests(row);
      const variants = new Set(modes.map((m) => m.split('/')[0]));
      const pacings = new Set(modes.map((m) => m.split('/')[1]));
      return modes.length !== 2 || variants.size !== 2 || pacings.size !== 2;
    });
    expect(narrow, 'rows not crossed over both variants and both pacings').toEqual([]);
    for (const mode of MODE_NAMES) {
      const carried = defects.filter((row) => TESTS_PLAN(row, mode).length > 0).length;
      const running = defects.filter((row) => legsCheckedInTests(row).length > 0).length;
      expect(Math.abs(carried - running / 2), mode).toBeLessThanOrEqual(1);
    }
    expect(ROW_NAMES.every((row) => MODE_NAMES.every((m) => FULL_PLAN(row, m).length > 0))).toBe(
      true,
    );
  });

  describe('a row checked in some modes agrees with its committed lines', () => {
    /** A matrix line of row `d` whose legs read `pass` but for those given. */
    const line = (marks: Partial<Record<LegSlug, string>>): string =>
      `| d | §B | ${LEG_SLUGS.map((slug) => marks[slug] ?? 'pass').join(' | ')} | - | yes |`;
    const failed = '| d | breaks B | mean-gated: a.rule, b.rule; readings-exact: not observed |';
    const page = {
      matrix: line({ 'mean-gated': 'FAIL', 'readings-exact': 'blocked' }),
      failed,
    };
    const run = (lost: string, matrix = page.matrix): RowLines => ({ matrix, failed: lost });
    const checked: readonly LegSlug[] = ['mean-gated', 'readings-exact'];

    it('when its legs fail some of the rules the page names for them', () => {
      const fewer = run('| d | breaks B | mean-gated: b.rule; readings-exact: not observed |');
      expect(agreesWhereRun(page, fewer, checked)).toBe(true);
      expect(agreesWhereRun(page, run(failed), checked)).toBe(true);
      expect(agreesWhole(page, fewer)).toBe(false);
      expect(agreesWhole(page, run(failed))).toBe(true);
    });

    it('not when a leg fails a rule the page lacks, or the legs named differ', () => {
      const more = '| d | breaks B | mean-gated: a.rule, c.rule; readings-exact: not observed |';
      expect(agreesWhereRun(page, run(more), checked)).toBe(false);
      expect(agreesWhereRun(page, run('| d | breaks B | mean-gated: a.rule |'), checked)).toBe(
        false,
      );
      const gate = '| d | breaks B | mean-gated: gate; readings-exact: not observed |';
      expect(agreesWhereRun(page, run(gate), checked)).toBe(false);
      const other = '| e | breaks B | mean-gated: a.rule, b.rule; readings-exact: not observed |';
      expect(agreesWhereRun(page, run(other), checked)).toBe(false);
    });

    it('not when a checked cell differs, or a cell left out does not read pass on the page', () => {
      const differs = run(failed, line({ 'mean-gated': 'FAIL', 'readings-exact': 'FAIL' }));
      expect(agreesWhereRun(page, differs, ['mean-gated'])).toBe(false);
      expect(agreesWhereRun(page, differs, checked)).toBe(false);
      const unrun = run(failed, line({ 'mean-gated': 'FAIL', 'readings-exact': 'not run' }));
      expect(agreesWhereRun(page, unrun, ['mean-gated'])).toBe(false);
      expect(agreesWhereRun(undefined, run(failed), checked)).toBe(false);
    });
  });
});
