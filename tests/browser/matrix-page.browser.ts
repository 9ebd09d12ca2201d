// The matrix page of three hosts (the conformant reference host and the reference host with
// exactly the score-zeroed defect, each signing with a key pinned in a keyring, and the embedded
// host, unsigned), opened in headless Chromium: it loads cleanly and reaches for nothing, every
// cell shows the state matrix.json holds, and a failing cell leads to the finding on its report's
// page.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../lib/report/render/matrix/model.ts';
import { cli } from '../cli/support.ts';
import {
  runAgainstReferenceHost,
  runEmbedded,
  signingPair,
  writeKeyring,
} from '../support/reference-run.ts';
import type { WrittenRun } from '../support/reference-run.ts';
import { backgroundOf, openPage, screenshot } from './browser.ts';
import type { OpenedPage } from './browser.ts';

describe('the matrix page of three hosts, in Chromium', () => {
  const runs: WrittenRun[] = [];
  let out = '';
  let matrix: Matrix;
  let opened: OpenedPage | undefined;

  beforeAll(async () => {
    const embedded = await runEmbedded();
    runs.push(embedded);
    const keys = [
      await signingPair(embedded.dir, 'conformant-1'),
      await signingPair(embedded.dir, 'defective-1'),
    ];
    const keyring = await writeKeyring(join(embedded.dir, 'keyring.json'), keys);
    runs.push(await runAgainstReferenceHost(undefined, keys[0]));
    runs.push(await runAgainstReferenceHost('score-zeroed', keys[1]));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1]);
    out = join(embedded.dir, 'matrix');
    const reports = runs.map((r) => join(r.dir, 'eval-gate-report.json'));
    const made = await cli(['matrix', ...reports, '--out', out, '--trusted-keys', keyring]);
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
    expect(matrix.columns.map((c) => c.verification).sort()).toEqual([
      'unanchored',
      'verified',
      'verified',
    ]);
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
    expect(states.has('unanchored')).toBe(true);
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
