// Both pages load nothing and run nothing but their own: a Content-Security-Policy of
// `default-src 'none'` that allows the one <style> and the one <script> by their hashes, and no
// markup the policy would refuse (a style attribute, an event handler, a script from elsewhere).

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../lib/report/render/html/render-html.ts';
import { pageViewsFor } from '../../lib/report/page-inputs.ts';
import { buildMatrix } from '../../lib/report/render/matrix/build.ts';
import { renderMatrixHtml } from '../../lib/report/render/matrix/render.ts';
import { expectationsFor } from '../../lib/report/side-by-side.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { failingReport, HOSTILE } from './html-example.ts';

const hash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function policyOf(html: string): Map<string, string[]> {
  const content = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1];
  if (content === undefined) throw new Error('no Content-Security-Policy');
  return new Map(
    content
      .replace(/&#39;/g, "'")
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** What the policy would refuse on this page; empty when it refuses nothing the page needs. */
function refused(html: string): string[] {
  const policy = policyOf(html);
  const out: string[] = [];
  if (policy.get('default-src')?.join(' ') !== "'none'") out.push('default-src is not none');
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  for (const s of styles)
    if (!(policy.get('style-src') ?? []).includes(hash(s))) out.push('a style not in style-src');
  for (const s of scripts)
    if (!(policy.get('script-src') ?? []).includes(hash(s))) out.push('a script not in script-src');
  if (/<script[^>]*\ssrc=/.test(html)) out.push('a script from elsewhere');
  if (/<[a-z][^>]*\sstyle="/i.test(html)) out.push('a style attribute');
  if (/<[a-z][^>]*\son[a-z]+=/i.test(html)) out.push('an event handler');
  return out;
}

describe('the pages under their Content-Security-Policy', () => {
  it("the report's page: one style and one script, each allowed by its hash, nothing refused", async () => {
    const report = failingReport({ task: HOSTILE, baseUrl: `http://h.test/${HOSTILE}` });
    const [expectations, views] = await Promise.all([
      expectationsFor(report),
      pageViewsFor(report, new Map()),
    ]);
    const html = renderHtml(report, runVerdict(report), expectations, views);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(refused(html)).toEqual([]);
  });

  it('the matrix page: its own style beside the shared one, allowed by the hash of both', () => {
    const html = renderMatrixHtml(
      buildMatrix([
        { verification: { state: 'verified', report: failingReport(), problems: [] }, file: './a' },
      ]),
    );
    expect(refused(html)).toEqual([]);
  });

  it('notices what the policy would refuse', () => {
    const html = renderMatrixHtml(buildMatrix([]));
    expect(refused(html.replace('<style>', '<style>p{}'))).toEqual(['a style not in style-src']);
    expect(refused(html.replace('<body>', '<body style="color:red">'))).toEqual([
      'a style attribute',
    ]);
    expect(refused(html.replace('<body>', '<body onload="x()">'))).toEqual(['an event handler']);
  });
});
