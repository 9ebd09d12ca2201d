// The HTML report of a failing run (the reference host with exactly the score-zeroed defect),
// opened in headless Chromium: it loads cleanly and reaches for nothing, the verdict is the
// first thing on it, a failing requirement shows its findings and aligned trajectory, and an
// evidence link scrolls to the recorded event and highlights it, with and without script.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { headline, runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { backgroundOf, openPage, screenshot } from './browser.ts';
import type { OpenedPage } from './browser.ts';
import { runAgainstReferenceHost } from '../support/reference-run.ts';

const FAILING = 'openwop.requirement.0246.mean-gated';
const HIGHLIGHT = 'rgb(255, 246, 204)';

describe('the HTML report of a failing run, in Chromium', () => {
  let dir = '';
  let file = '';
  let report: EvalGateReport;
  let opened: OpenedPage | undefined;

  beforeAll(async () => {
    const run = await runAgainstReferenceHost('score-zeroed');
    dir = run.dir;
    expect(run.code).toBe(1);
    file = join(dir, 'eval-gate-report.html');
    report = JSON.parse(
      await readFile(join(dir, 'eval-gate-report.json'), 'utf8'),
    ) as EvalGateReport;
  });

  afterAll(async () => {
    await opened?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads with no console error and requests nothing but the file itself', async () => {
    opened = await openPage(file);
    await screenshot(opened.page, 'failing-run.png');
    expect(opened.errors).toEqual([]);
    expect(opened.requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual(
      [],
    );
    expect(opened.requests).toEqual([`file://${file}`]);
  });

  it('shows the verdict as its first text, in the words of the summary headline', async () => {
    const page = opened?.page;
    if (page === undefined) throw new Error('the page did not open');
    const text = (await page.evaluate('document.body.innerText')) as string;
    expect(text.trim().split('\n')[0]).toBe(headline(runVerdict(report)));
  });

  it('shows a failing requirement open with its findings and aligned trajectory; a passing one folded', async () => {
    const page = opened?.page;
    if (page === undefined) throw new Error('the page did not open');
    const failing = page.locator('details.req.executed-fail', { hasText: FAILING }).first();
    await failing.locator('> summary').click();
    expect(await failing.locator('table.findings').first().isVisible()).toBe(false);
    await failing.locator('> summary').click();
    const findings = failing.locator('table.findings').first();
    expect(await findings.isVisible()).toBe(true);
    expect(await findings.innerText()).toContain('trial.score-unchanged');
    const trajectory = failing.locator('div.trajectory').nth(1);
    expect(await trajectory.isVisible()).toBe(true);
    const forbidden = trajectory.locator('tr', { hasText: 'crm:delete-customer' });
    expect(await forbidden.innerText()).toContain('forbidden');
    await trajectory.scrollIntoViewIfNeeded();
    await screenshot(page, 'failing-requirement-trajectory.png');

    const passing = page.locator('details.req.executed-pass').first();
    expect(await passing.locator('table.findings').first().isVisible()).toBe(false);
    await passing.locator('> summary').click();
    expect(await passing.locator('table.findings').first().isVisible()).toBe(true);
  });

  it('follows an evidence link to the recorded eval.scored event and highlights it', async () => {
    const page = opened?.page;
    if (page === undefined) throw new Error('the page did not open');
    const failing = page.locator('details.req.executed-fail', { hasText: FAILING }).first();
    const row = failing.locator('tr.finding.failed', { hasText: 'trial.score-unchanged' }).first();
    const link = row.locator('a.evidence-link').first();
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^#req--\d+--event--\d+$/);
    await link.click();
    const target = page.locator(href);
    expect(await target.innerText()).toContain('eval.scored');
    expect(await target.evaluate((el) => el.matches(':target'))).toBe(true);
    expect(await backgroundOf(target)).toBe(HIGHLIGHT);
    const box = await target.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(900);
    await screenshot(page, 'evidence-highlighted.png');
  });

  it('highlights the evidence without script too, by :target alone', async () => {
    const plain = await openPage(file, { javaScript: false, hash: 'req--0--event--10' });
    try {
      const target = plain.page.locator('#req--0--event--10');
      expect(await target.evaluate((el) => el.matches(':target'))).toBe(true);
      expect(await backgroundOf(target)).toBe(HIGHLIGHT);
      expect(plain.errors).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
