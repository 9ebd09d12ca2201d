// The HTML page of a run, rendered from literal reports: the verdict first, failing requirements
// open and passing ones folded, every evidence link landing on an element of the page, each
// trial's trajectory aligned with its faults marked, and host text escaped wherever it lands.

import { describe, expect, it } from 'vitest';
import { headline, runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { renderHtml } from '../../lib/report/render/html/render-html.ts';
import { alignCalls } from '../../lib/report/trajectory-alignment.ts';
import { reproduceCommand, shellWord } from '../../lib/report/render/html/reproduce.ts';
import { pageViewsFor } from '../../lib/report/page-inputs.ts';
import { expectationsFor } from '../../lib/report/side-by-side.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { failingReport, HOSTILE } from './html-example.ts';

async function render(report: EvalGateReport): Promise<string> {
  const [expectations, views] = await Promise.all([
    expectationsFor(report),
    pageViewsFor(report, new Map()),
  ]);
  return renderHtml(report, runVerdict(report), expectations, views);
}

const unescape = (s: string): string =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function linkTargets(html: string): string[] {
  return [...html.matchAll(/href="#([^"]*)"/g)].map((m) => unescape(m[1] ?? ''));
}

function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => unescape(m[1] ?? ''));
}

function bodyText(html: string): string {
  const body = html.slice(html.indexOf('<body>') + 6);
  return unescape(body.replace(/<script>[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, '\n'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
}

describe('the HTML report', () => {
  it('says the verdict first, in the words of the summary headline, then what to do', async () => {
    const report = failingReport();
    const html = await render(report);
    const text = bodyText(html);
    const verdict = runVerdict(report);
    expect(text.split('\n')[0]).toBe(headline(verdict));
    expect(verdict.causes.length).toBeGreaterThan(0);
    for (const cause of verdict.causes) expect(text).toContain(cause);
    expect(text.indexOf('What to do')).toBeLessThan(text.indexOf('Requirements'));
  });

  it('opens the failing requirement and folds the passing one', async () => {
    const html = await render(failingReport());
    expect(html).toMatch(/<details id="req--1" class="req executed-fail" open>/);
    expect(html).toMatch(/<details id="req--0" class="req executed-pass">/);
    // The failing one is listed first, so a reader meets the cause first.
    expect(html.indexOf('id="req--1"')).toBeLessThan(html.indexOf('id="req--0"'));
  });

  it('shows a passing requirement by the rules that held alone: its evidence stays in the report', async () => {
    const report = failingReport();
    const failed = report.requirements[1];
    if (failed?.observation === undefined) throw new Error('no observed row');
    // The same observed row, passing: only its disposition and findings differ.
    const held = {
      ...failed,
      disposition: 'executed-pass' as const,
      findings: failed.findings.map((f) => ({ ...f, ok: true })),
    };
    const html = await render({ ...report, requirements: [held, failed] });
    const [passing = '', failing = ''] = html.split('<details id="req--').slice(1).sort();
    expect(passing).toMatch(/^0" class="req executed-pass">/);
    expect(passing).toContain('<th>rule that held</th>');
    expect(passing).toContain('recorded evidence of a requirement that did not fail or block');
    expect(passing).not.toMatch(/id="req--0--|href="#req--0--|<svg /);
    expect(failing).toContain('<tr id="req--1--event--10">');
    expect(failing).toMatch(/<svg /);
  });

  it('links every finding to evidence that is on the page, and every id is unique', async () => {
    const html = await render(failingReport());
    const present = ids(html);
    expect(new Set(present).size).toBe(present.length);
    const targets = linkTargets(html);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => !present.includes(t))).toEqual([]);
  });

  it('links a task rule to the summary member and a trial rule to its eval.scored event', async () => {
    const html = await render(failingReport());
    const links = [...html.matchAll(/<tr class="finding failed">[\s\S]*?<\/tr>/g)].map((m) => m[0]);
    const task = links.find((l) => l.includes('task.score-unchanged')) ?? '';
    const trial = links.find((l) => l.includes('trial.score-unchanged')) ?? '';
    expect(task).toContain('href="#req--1--summary--tasks--0--score"');
    // Trial 1's eval.scored is the 11th event read (index 10).
    expect(trial).toContain('href="#req--1--event--10"');
    expect(trial).not.toContain('href="#req--1--event--20"');
    expect(html).toContain('<tr id="req--1--event--10">');
  });

  it('shows each trial aligned: the forbidden call marked, linked to its tool-called event', async () => {
    const html = await render(failingReport());
    const trial2 = /<div id="req--1--trajectory--0--2"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    expect(trial2).toContain('trajectory failed');
    expect(trial2).toMatch(/crm:delete-customer<\/code>.*?event 14<\/a>.*?forbidden/);
    expect(trial2).toContain('host reported trajectoryMatched <code>false</code>');
  });

  it('gives the command that runs the failing requirement alone with the recorded settings', async () => {
    const report = failingReport();
    const row = report.requirements[1];
    if (row === undefined) throw new Error('no row');
    const command =
      'openwop-eval-gate run --only openwop.requirement.0246.mean-gated --base-url http://127.0.0.1:8080 --require-behavior --opt-out agents.evalSuite.trials';
    expect(reproduceCommand(report, row)).toBe(command);
    expect(await render(report)).toContain(`<pre class="command">${command}</pre>`);
    expect(shellWord("http://h/'x y")).toBe(`'http://h/'\\''x y'`);
  });

  it('gives a generated case driven alone its --case, so the command drives that case alone again', () => {
    const report = failingReport();
    const row = report.requirements[1];
    if (row === undefined) throw new Error('no row');
    const alone = {
      ...row,
      generated: { seed: 1, count: 12, case: 'generated-s1-n0011', cases: [] },
    };
    expect(reproduceCommand(report, alone)).toMatch(
      / --generate 12 --seed 1 --case generated-s1-n0011$/,
    );
  });

  it('draws the pictures inline and loads nothing: no src, no external link', async () => {
    const html = await render(failingReport());
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(2);
    expect(html).not.toMatch(/\ssrc=/);
    expect([...html.matchAll(/href="([^"]*)"/g)].every((m) => m[1]?.startsWith('#'))).toBe(true);
    expect(html).toContain('default-src &#39;none&#39;');
  });

  it('escapes a hostile host: its task id, event type, summary member and base URL stay text', async () => {
    const report = failingReport({
      baseUrl: `http://h/${HOSTILE}`,
      task: HOSTILE,
      extraType: HOSTILE,
    });
    const hostileSummary = {
      ...(report.requirements[1]?.observation?.summary as object),
      [HOSTILE]: HOSTILE,
    };
    const row = report.requirements[1];
    if (row?.observation === undefined) throw new Error('no observation');
    const hostile: EvalGateReport = {
      ...report,
      requirements: [
        report.requirements[0]!,
        { ...row, observation: { ...row.observation, summary: hostileSummary } },
      ],
    };
    const html = await render(hostile);
    expect(html.match(/<script>/g)?.length).toBe(1);
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<[^>]*\sonerror=/);
    expect(bodyText(html)).toContain(HOSTILE);
    // Every link still lands: a host string never becomes an id or a target.
    const present = ids(html);
    expect(linkTargets(html).filter((t) => !present.includes(t))).toEqual([]);
  });
});

describe('a trial aligned with its expected trajectory', () => {
  const lookup = { tool: 'crm:lookup', args: { id: 'C-1' } };
  const merge = { tool: 'crm:merge' };

  it('marks a forbidden call, an argument mismatch and a missing call', () => {
    const steps = alignCalls(
      'in-order',
      [lookup, merge],
      [{ tool: 'crm:lookup', args: { id: 'C-2' } }, { tool: 'crm:delete' }],
      { forbidden: ['crm:delete'], missedTool: null },
    );
    expect(steps.map((s) => s.marks)).toEqual([['args'], ['extra', 'forbidden'], ['missing']]);
    expect(steps[2]?.expected).toEqual(merge);
  });

  it('marks the first call without a recorded response as the miss', () => {
    const steps = alignCalls('any-order', [lookup], [{ tool: 'crm:ghost' }, lookup], {
      forbidden: [],
      missedTool: 'crm:ghost',
    });
    expect(steps.map((s) => s.marks)).toEqual([['extra', 'miss'], ['match']]);
  });

  it('pairs exact mode position by position', () => {
    const steps = alignCalls('exact', [lookup, merge], [merge, lookup], {
      forbidden: [],
      missedTool: null,
    });
    expect(steps.map((s) => s.marks)).toEqual([['extra'], ['extra'], ['missing'], ['missing']]);
  });
});
