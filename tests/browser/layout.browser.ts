// The page and the matrix laid out for a reader at 1400 and 800 CSS pixels, in Chromium: the page
// body never scrolls sideways, a wide table scrolls inside its own box, the first column of the
// matrix stays put while it scrolls, and every legend swatch is drawn in a colour. Each layout
// is kept as a screenshot under test-output/browser/.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { buildMatrix } from '../../lib/report/render/matrix/build.ts';
import type { MatrixInput } from '../../lib/report/render/matrix/build.ts';
import { renderMatrixHtml } from '../../lib/report/render/matrix/render.ts';
import { runAgainstReferenceHost } from '../support/reference-run.ts';
import type { WrittenRun } from '../support/reference-run.ts';
import { openPage, screenshot } from './browser.ts';

const WIDTHS = [1400, 800] as const;

interface Layout {
  readonly viewport: number;
  readonly bodyScroll: number;
  readonly boxes: readonly { readonly client: number; readonly scroll: number }[];
}

/** How wide the document is against the viewport, and each scrolling box against its content. */
async function layoutOf(page: Page, boxSelector: string): Promise<Layout> {
  type El = { clientWidth: number; scrollWidth: number };
  type Doc = { documentElement: El; querySelectorAll(s: string): Iterable<El> };
  return page.evaluate((selector) => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    return {
      viewport: doc.documentElement.clientWidth,
      bodyScroll: doc.documentElement.scrollWidth,
      boxes: [...doc.querySelectorAll(selector)].map((b) => ({
        client: b.clientWidth,
        scroll: b.scrollWidth,
      })),
    };
  }, boxSelector);
}

/** Each legend swatch's fill: its background, or for a line swatch its left border. */
async function swatchColours(page: Page): Promise<string[]> {
  type Style = { backgroundColor: string; borderLeftColor: string; borderLeftStyle: string };
  type Win = { getComputedStyle(el: unknown): Style };
  return page.locator('.legend .swatch').evaluateAll((els) =>
    els.map((el) => {
      const style = (globalThis as unknown as Win).getComputedStyle(el);
      return style.borderLeftStyle === 'dashed' ? style.borderLeftColor : style.backgroundColor;
    }),
  );
}

const BLANK = new Set(['rgb(0, 0, 0)', 'rgba(0, 0, 0, 0)', 'transparent', '']);

describe('the page of a failing run at 1400 and 800 pixels', () => {
  let run: WrittenRun;
  beforeAll(async () => {
    run = await runAgainstReferenceHost('score-zeroed');
    expect(run.code).toBe(1);
  });
  afterAll(async () => {
    await rm(run.dir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    it(`at ${width} px the body does not scroll sideways and every swatch has a colour`, async () => {
      const opened = await openPage(join(run.dir, 'eval-gate-report.html'), { width });
      try {
        await screenshot(opened.page, `report-page-${width}.png`);
        const chart = opened.page.locator('h4:text("Scores by trial") + p.legend').first();
        await chart.scrollIntoViewIfNeeded();
        await screenshot(opened.page, `report-chart-${width}.png`);
        const layout = await layoutOf(opened.page, 'table');
        expect(layout.viewport).toBeLessThanOrEqual(width);
        expect(layout.bodyScroll).toBe(layout.viewport);
        const colours = await swatchColours(opened.page);
        expect(colours.length).toBeGreaterThanOrEqual(5);
        for (const c of colours) expect(BLANK.has(c), `swatch colour ${c}`).toBe(false);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    });
  }
});

describe('a matrix of seven columns at 1400 and 800 pixels', () => {
  let run: WrittenRun;
  let file = '';
  beforeAll(async () => {
    run = await runAgainstReferenceHost('score-zeroed');
    const report = JSON.parse(
      await readFile(join(run.dir, 'eval-gate-report.json'), 'utf8'),
    ) as EvalGateReport;
    // Seven hosts as the layout meets them: the verification is given, as the matrix command's
    // injected verifier gives it, since only the page's layout is under test here.
    const inputs: MatrixInput[] = Array.from({ length: 7 }, (_, i) => ({
      verification: {
        state: i % 3 === 2 ? 'unanchored' : 'verified',
        report: {
          ...report,
          target: {
            ...report.target,
            baseUrl: `https://eval-gate-host-${i}.example.org/api/v1`,
            implementation: { name: `implementation-${i}`, version: `${i + 1}.0.0` },
          },
        },
        problems: i % 3 === 2 ? ['no key outside the report vouches for it'] : [],
      },
      file: `./host-${i}/eval-gate-report.json`,
    }));
    file = join(run.dir, 'matrix.html');
    await writeFile(file, renderMatrixHtml(buildMatrix(inputs)));
  });
  afterAll(async () => {
    await rm(run.dir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    it(`at ${width} px the body never scrolls sideways: the table fits, or scrolls in its box past a sticky first column`, async () => {
      const opened = await openPage(file, { width });
      try {
        const page = opened.page;
        expect(await page.locator('table.matrix thead th.column').count()).toBe(7);
        await screenshot(page, `matrix-seven-${width}.png`);
        const layout = await layoutOf(page, '.matrix-scroll');
        expect(layout.bodyScroll).toBe(layout.viewport);
        const [box] = layout.boxes;
        if (width === 1400) {
          // Seven columns fit beside the requirement names: nothing to scroll.
          expect(box?.scroll).toBe(box?.client);
        } else {
          expect(box?.scroll ?? 0).toBeGreaterThan(box?.client ?? 0);
          // Scrolled to its far right, the box still shows each row's name at its left edge.
          const head = page.locator('table.matrix tbody th.row-head').first();
          const cell = page.locator('table.matrix tbody td.cell').first();
          const before = await head.boundingBox();
          const cellBefore = await cell.boundingBox();
          await page.locator('.matrix-scroll').evaluate((el) => {
            (el as unknown as { scrollLeft: number }).scrollLeft = 1e6;
          });
          expect((await head.boundingBox())?.x).toBe(before?.x);
          expect((await cell.boundingBox())?.x ?? 0).toBeLessThan(cellBefore?.x ?? 0);
          await screenshot(page, `matrix-seven-${width}-scrolled.png`);
        }
        const colours = await swatchColours(page);
        expect(colours).toHaveLength(4);
        for (const c of colours) expect(BLANK.has(c), `swatch colour ${c}`).toBe(false);
        // Cells are coloured by outcome: a fail and a pass differ, whatever the column's anchor.
        type Win = { getComputedStyle(el: unknown): { backgroundColor: string } };
        const bg = (selector: string): Promise<string> =>
          page
            .locator(selector)
            .first()
            .evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el).backgroundColor);
        const fail = await bg('td.cell[data-outcome="fail"]');
        const pass = await bg('td.cell[data-outcome="pass"]');
        expect(fail).not.toBe(pass);
        expect(await bg('td.cell[data-state="unanchored"][data-outcome="fail"]')).toBe(fail);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    });
  }
});
