// The matrix page of three hosts (the conformant reference host, the reference host with exactly
// the score-zeroed defect, the embedded host), opened in headless Chromium: it loads cleanly and
// reaches for nothing, every cell shows the state matrix.json holds, and a failing cell leads to
// the finding on its report's page.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../lib/report/matrix/model.ts';
import { cli } from '../cli/support.ts';
import { runAgainstReferenceHost, runEmbedded } from '../support/reference-run.ts';
import type { WrittenRun } from '../support/reference-run.ts';
import { backgroundOf, openPage, screenshot } from './browser.ts';
import type { OpenedPage } from './browser.ts';

describe('the matrix page of three hosts, in Chromium', () => {
  const runs: WrittenRun[] = [];
  let out = '';
  let matrix: Matrix;
  let opened: OpenedPage | undefined;

  beforeAll(async () => {
    runs.push(await runAgainstReferenceHost(undefined));
    runs.push(await runAgainstReferenceHost('score-zeroed'));
    runs.push(await runEmbedded());
    expect(runs.map((r) => r.code)).toEqual([0, 1, 0]);
    out = join(runs[0]?.dir ?? '', 'matrix');
    const made = await cli([
      'matrix',
      ...runs.map((r) => join(r.dir, 'eval-gate-report.json')),
      '--out',
      out,
    ]);
    expect(made.code).toBe(0);
    matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
  });

  afterAll(async () => {
    await opened?.close();
    await Promise.all(runs.map((r) => rm(r.dir, { recursive: true, force: true })));
  });

  it('loads with no console error and requests nothing but the file itself', async () => {
    opened = await openPage(join(out, 'index.html'));
    await screenshot(opened.page, 'matrix-three-hosts.png');
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([`file://${join(out, 'index.html')}`]);
    expect(matrix.columns).toHaveLength(3);
  });

  it('shows in every cell the state matrix.json holds', async () => {
    const page = opened?.page;
    if (page === undefined) throw new Error('the page did not open');
    const shown = await page.locator('table.matrix tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-row'),
        states: [...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-state')),
      })),
    );
    expect(shown).toEqual(
      matrix.rows.map((r) => ({ id: r.id, states: r.cells.map((c) => c.state) })),
    );
    const states = new Set(shown.flatMap((r) => r.states));
    expect(states.has('fail')).toBe(true);
    expect(states.has('pass')).toBe(true);
  });

  it("leads from a failing cell to the finding on its report's page, highlighted", async () => {
    const page = opened?.page;
    if (page === undefined) throw new Error('the page did not open');
    const cell = page.locator(
      'tr[data-row="openwop.requirement.0246.mean-gated"] td[data-state="fail"] a',
    );
    await cell.click();
    await page.waitForURL(/reports\/[0-9a-f]{64}\.html#req--0$/);
    const target = page.locator('#req--0');
    expect(await target.evaluate((el) => el.matches(':target'))).toBe(true);
    expect(await backgroundOf(target)).toBe('rgb(255, 246, 204)');
    expect(opened?.errors).toEqual([]);
    await screenshot(page, 'matrix-cell-to-report.png');
  });
});
