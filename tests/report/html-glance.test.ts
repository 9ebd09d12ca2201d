// The page read in ten seconds: the failures column never 0 beside a failed row, charts with a
// coloured legend, a 0-1 axis, values, a visible zero bar and each task's deciding mean against
// passScore, and a run whose baseline allows flaky rows told what is left to do, with --repeat.

import { describe, expect, it } from 'vitest';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { renderHtml } from '../../lib/report/render/html/render-html.ts';
import { trialScoreChart } from '../../lib/report/render/html/charts.ts';
import { pageViewsFor } from '../../lib/report/page-inputs.ts';
import { expectationsFor } from '../../lib/report/side-by-side.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { totalsOf } from '../../lib/report/report.ts';
import { failingReport, failingRow } from './html-example.ts';

async function render(report: EvalGateReport): Promise<string> {
  const [expectations, views] = await Promise.all([
    expectationsFor(report),
    pageViewsFor(report, new Map()),
  ]);
  return renderHtml(report, runVerdict(report), expectations, views);
}

/** The index row of a requirement: its disposition badge, its id and the failures counted. */
function indexCount(html: string, id: string): string | undefined {
  const at = html.indexOf('<table class="index">');
  const table = html.slice(at, html.indexOf('</table>', at));
  const row = table.split('<tr>').find((r) => r.includes(`>${id}</a>`));
  return row?.match(/<td>(\d+)<\/td><\/tr>/)?.[1];
}

const SHOULD_ONLY: ReportRow = {
  id: 'openwop.requirement.0246.suite-gated',
  disposition: 'executed-fail',
  assertions: 1,
  durationMs: 1,
  reason: 'failed on a SHOULD the gate counts',
  findings: [
    {
      rule: 'suite.passed',
      ok: false,
      severity: 'SHOULD',
      ref: 'RFC 0246 §B',
      message: 'suite passed SHOULD be false',
    },
  ],
};

function withRows(report: EvalGateReport, rows: readonly ReportRow[]): EvalGateReport {
  return { ...report, requirements: rows, totals: totalsOf(rows) };
}

describe('the page at a glance', () => {
  it('counts in the failures column what fails the gate, never 0 beside a failed row', async () => {
    const base = failingReport();
    const must = await render(base);
    expect(indexCount(must, 'openwop.requirement.0246.mean-gated')).toBe('2');
    expect(indexCount(must, 'openwop.requirement.0246.gated-fields-shape')).toBe('0');
    // A failed row with no failing MUST finding: the row itself fails the gate.
    const should = await render(withRows(base, [SHOULD_ONLY]));
    expect(indexCount(should, SHOULD_ONLY.id)).toBe('1');
    // Under --fail-on should, a SHOULD failure is one of the gate's failures.
    const strict = await render({ ...withRows(base, [SHOULD_ONLY]), failOn: 'should' });
    expect(indexCount(strict, SHOULD_ONLY.id)).toBe('1');
    const twoRules = {
      ...SHOULD_ONLY,
      findings: [...SHOULD_ONLY.findings, { ...SHOULD_ONLY.findings[0]!, rule: 'suite.other' }],
    };
    expect(
      indexCount(await render({ ...withRows(base, [twoRules]), failOn: 'should' }), twoRules.id),
    ).toBe('2');
  });

  it('draws the scores with a coloured legend, a 0-1 axis, values and the mean against passScore', async () => {
    const html = await render(failingReport());
    const legend = html.match(/<p class="legend">(.*?)<\/p>/)?.[1] ?? '';
    expect([...legend.matchAll(/class="swatch (\w+)"/g)].map((m) => m[1])).toEqual([
      'reported',
      'score',
      'gating',
      'mean',
      'limit',
    ]);
    for (const cls of ['reported', 'score', 'gating', 'mean'])
      expect(html).toMatch(new RegExp(`\\.swatch\\.${cls} \\{ background: #[0-9a-f]{6}; \\}`));
    const chart = html.match(/<svg class="chart"[^>]*><title>Each trial[\s\S]*?<\/svg>/)?.[0] ?? '';
    expect(chart).not.toBe('');
    expect([...chart.matchAll(/class="tick-label">([^<]*)</g)].map((m) => m[1])).toEqual([
      '0',
      '0.25',
      '0.5',
      '0.75',
      '1',
    ]);
    // The fixture's one task, with a forbidden call in both trials: gating mean 0 below passScore.
    expect(chart).toMatch(
      /class="mean-label">mean [^<]+<\/text><rect [^>]*width="2"[^>]*class="mean"\/><text [^>]*class="value">0 &lt; 0\.\d+</,
    );
  });

  it('draws a score of 0 as a thin bar with its value, and a score of 1 across the whole scale', () => {
    const chart = trialScoreChart([{ label: 't #1', reported: 0, score: 1, gating: 0 }], 0.7, [
      { label: 't mean', mean: 0.5 },
    ]);
    const rects = [
      ...chart.matchAll(
        /<rect [^>]*width="([\d.]+)"[^>]*class="(\w+)[^"]*"\/><text [^>]*>([^<]*)</g,
      ),
    ].map((m) => [m[2], m[1], m[3]]);
    expect(rects).toEqual([
      ['reported', '2', '0'],
      ['score', '360', '1'],
      ['gating', '2', '0'],
      ['mean', '180', '0.5 &lt; 0.7'],
    ]);
    expect(chart).toContain('passScore 0.7');
  });

  it('does not say "Nothing to do" when the baseline allows flaky rows: it says what is allowed and gives --repeat', async () => {
    const base = failingReport();
    const pass = base.requirements[0]!;
    const flaky: ReportRow = {
      ...pass,
      repetitions: [{ ...pass, disposition: 'executed-fail' }, { ...pass }],
    };
    const report: EvalGateReport = {
      ...withRows(base, [flaky]),
      repeat: {
        count: 3,
        rows: [
          {
            requirement: flaky.id,
            stability: 'flaky',
            outcomes: ['executed-pass', 'executed-fail'],
            allowed: true,
          },
        ],
      },
      baseline: {
        file: 'expected-failures.yml',
        sha256: '0'.repeat(64),
        entries: [
          {
            requirement: flaky.id,
            outcomes: ['executed-pass', 'executed-fail'],
            reason: 'intermittent, tracked',
            status: 'excusing',
          },
        ],
        excused: [],
      },
    };
    const verdict = runVerdict(report);
    expect(verdict.causes).toEqual([]);
    expect(verdict.gate.allowedFlaky.map((f) => f.requirement)).toEqual([flaky.id]);
    const html = await render(report);
    const todo = html.slice(html.indexOf('<section id="todo">'), html.indexOf('</section>'));
    expect(todo).not.toContain('Nothing to do');
    expect(todo).toContain('the baseline allows 1 flaky requirement');
    expect(todo).toContain('executed-pass, executed-fail');
    expect(todo).toMatch(
      /<pre class="command">openwop-eval-gate run --only \S+gated-fields-shape .*--repeat 3<\/pre>/,
    );
    // A run with no flaky row still has nothing to do.
    const clean = await render(withRows(base, [pass]));
    expect(clean).toContain('Nothing to do: the run passed.');
  });

  it('adds --repeat to the command of a flaky failing row, and only to it', async () => {
    const base = failingReport();
    const row = failingRow();
    const repeated: EvalGateReport = {
      ...base,
      repeat: {
        count: 4,
        rows: [
          { requirement: row.id, stability: 'flaky', outcomes: ['executed-fail', 'executed-pass'] },
          {
            requirement: base.requirements[0]!.id,
            stability: 'stable',
            outcomes: ['executed-pass'],
          },
        ],
      },
    };
    const commands = (html: string): string[] =>
      [...html.matchAll(/<pre class="command">([^<]*)<\/pre>/g)].map((m) => m[1] ?? '');
    expect(commands(await render(repeated)).some((c) => c.endsWith('--repeat 4'))).toBe(true);
    expect(commands(await render(base)).some((c) => c.includes('--repeat'))).toBe(false);
  });
});

describe('the score chart with long task ids', () => {
  it("cuts a label in its middle, keeping the trial's number, with the whole label in its title", () => {
    const chart = trialScoreChart(
      [1, 2].map((n) => ({
        label: `forbidden-in-every-trial #${n}`,
        reported: 1,
        score: 1,
        gating: 0,
      })),
      0.6,
    );
    const labels = [...chart.matchAll(/<text x="4" y="\d+">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['forbidden-in-…trial #1', 'forbidden-in-…trial #2']);
    expect(chart).toContain('<title>forbidden-in-every-trial #2: reported 1');
  });
});
