// The results matrix from literal reports: each cell state kept apart, a report that does not
// verify never showing its claimed verdict, the verifier's limits (unanchored, another referee)
// shown before what the report recomputes to, and the same reports in any order giving the
// same bytes.

import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../lib/report/render/matrix/build.ts';
import type { MatrixInput } from '../../lib/report/render/matrix/build.ts';
import type { CellState, Matrix } from '../../lib/report/render/matrix/model.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from '../../lib/report/render/matrix/render.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { totalsOf } from '../../lib/report/report.ts';
import { formatSchemaErrors, validate } from '../../lib/schemas.ts';
import { failingReport, HOSTILE } from './html-example.ts';

const PREFIX = 'openwop.requirement.0246.';

function row(id: string, disposition: ReportRow['disposition'], rule = 'task.passed'): ReportRow {
  return {
    id: `${PREFIX}${id}`,
    disposition,
    assertions: disposition.startsWith('executed') ? 1 : 0,
    durationMs: 1,
    ...(disposition.startsWith('executed') ? {} : { reason: `${disposition} on purpose` }),
    findings: disposition.startsWith('executed')
      ? [
          {
            rule,
            ok: disposition === 'executed-pass',
            severity: 'MUST',
            ref: 'RFC 0246 §B',
            message: `${rule} as judged`,
          },
        ]
      : [],
  };
}

/** A report with one row of every disposition, one excused failure and one opted-out row. */
function everyState(name = 'acme-host', version = '1.2.0'): EvalGateReport {
  const base = failingReport();
  const rows = [
    row('mean-gated', 'executed-pass'),
    row('suite-gated', 'executed-fail', 'suite.passed'),
    row('gated-fields-shape', 'executed-fail', 'task.gated-score-value'),
    row('no-trajectory-ungated', 'blocked'),
    row('mean-partial-inclusive', 'inapplicable'),
    row('any-rule-unchanged', 'inapplicable'),
    row('all-rule-unchanged', 'skipped'),
  ];
  return {
    ...base,
    target: { baseUrl: 'http://127.0.0.1:1', embedded: false, implementation: { name, version } },
    requirements: rows,
    totals: totalsOf(rows),
    baseline: {
      file: 'expected-failures.yml',
      sha256: '0'.repeat(64),
      entries: [
        {
          requirement: `${PREFIX}gated-fields-shape`,
          rule: 'task.gated-score-value',
          reason: 'known, tracked',
          status: 'excusing',
        },
      ],
      excused: [{ requirement: `${PREFIX}gated-fields-shape`, rule: 'task.gated-score-value' }],
    },
    certification: {
      certified: false,
      reasons: [{ code: 'failed', short: '1 of 7 failed', text: '1 of 7 failed' }],
      optOuts: [{ gate: 'agents.evalSuite.trials', requirements: [`${PREFIX}any-rule-unchanged`] }],
      signer: { state: 'unsigned' },
    },
    hostChecks: {
      probes: [],
      findings: [
        {
          rule: 'wire.discovery',
          ok: true,
          severity: 'SHOULD',
          ref: 'contract §1',
          message: 'discovery held',
        },
        {
          rule: 'wire.unknown-run-not-found',
          ok: false,
          severity: 'SHOULD',
          ref: 'contract §2',
          message: 'answered 500',
        },
      ],
      unexercised: [{ rule: 'wire.wrong-key-refused', reason: 'the host takes no key' }],
      inapplicable: [],
    },
  };
}

function verified(report: unknown, file: string): MatrixInput {
  return { verification: { state: 'verified', report, problems: [] }, file };
}

function states(matrix: Matrix, column: number): Record<string, CellState | undefined> {
  return Object.fromEntries(
    matrix.rows.map((r) => [r.id.replace(PREFIX, ''), r.cells[column]?.state]),
  );
}

describe('the results matrix', () => {
  it('keeps every cell state apart, each linking to the finding behind it', () => {
    const matrix = buildMatrix([verified(everyState(), './acme.json')]);
    expect(formatSchemaErrors(validate('matrix', matrix))).toBe('');
    expect(states(matrix, 0)).toEqual({
      'mean-gated': 'pass',
      'suite-gated': 'fail',
      'gated-fields-shape': 'excused',
      'no-trajectory-ungated': 'blocked',
      'mean-partial-inclusive': 'inapplicable',
      'any-rule-unchanged': 'opted-out',
      'all-rule-unchanged': 'skipped',
      'wire.discovery': 'pass',
      'wire.unknown-run-not-found': 'warning',
      'wire.wrong-key-refused': 'not-judged',
      certification: 'not-certified',
    });
    const fail = matrix.rows[1]?.cells[0];
    expect(fail).toEqual({
      state: 'fail',
      detail: 'suite.passed: suite.passed as judged',
      anchor: 'req--1',
    });
    expect(matrix.columns[0]).toMatchObject({
      label: 'acme-host 1.2.0',
      file: `reports/${matrix.columns[0]?.digest ?? ''}/eval-gate-report.json`,
      source: './acme.json',
      baseUrl: 'http://127.0.0.1:1',
      startedAt: '2026-10-16T09:00:00Z',
      verification: 'verified',
    });
    expect(renderMatrixMarkdown(matrix)).toContain(
      `(reports/${matrix.columns[0]?.digest ?? ''}.html#req--1)`,
    );
  });

  it('shows a report that does not verify as unverified in every cell, never its claimed verdict', () => {
    const matrix = buildMatrix([
      {
        verification: {
          state: 'unverified',
          report: everyState(),
          problems: ['rows digest mismatch'],
        },
        file: './forged.json',
      },
    ]);
    expect(new Set(matrix.rows.flatMap((r) => r.cells.map((c) => c.state)))).toEqual(
      new Set(['unverified']),
    );
    expect(matrix.rows[0]?.cells[0]).toEqual({
      state: 'unverified',
      detail: 'rows digest mismatch',
    });
    expect(matrix.columns[0]?.page).toBeNull();
    expect(renderMatrixHtml(matrix)).not.toMatch(/data-state="(pass|fail)"/);
  });

  it('shows an unanchored or other-referee report as that first, with what it recomputes to', () => {
    const matrix = buildMatrix([
      {
        verification: {
          state: 'unanchored',
          report: everyState('a'),
          problems: ['no key outside the report'],
        },
        file: './a.json',
      },
      {
        verification: {
          state: 'different-referee',
          report: everyState('b'),
          problems: ['suite 0.0.9'],
        },
        file: './b.json',
      },
    ]);
    expect(formatSchemaErrors(validate('matrix', matrix))).toBe('');
    expect(matrix.rows[1]?.cells.map((c) => [c.state, c.recomputed])).toEqual([
      ['unanchored', 'fail'],
      ['different-referee', 'fail'],
    ]);
  });

  it('writes the same bytes for the same reports in any order, and names two runs of one version apart', () => {
    const inputs = [
      verified(everyState('acme-host', '1.2.0'), './a.json'),
      verified(failingReport(), './b.json'),
      verified(
        { ...everyState('acme-host', '1.2.0'), startedAt: '2026-10-17T09:00:00Z' },
        './c.json',
      ),
    ];
    const render = (list: readonly MatrixInput[]): string[] => {
      const m = buildMatrix(list);
      return [JSON.stringify(m), renderMatrixMarkdown(m), renderMatrixHtml(m)];
    };
    const first = render(inputs);
    expect(render([...inputs].reverse())).toEqual(first);
    expect(render([inputs[1]!, inputs[2]!, inputs[0]!])).toEqual(first);
    const labels = buildMatrix(inputs).columns.map((c) => c.label);
    expect(new Set(labels).size).toBe(3);
    expect(labels.filter((l) => l.startsWith('acme-host 1.2.0 @'))).toHaveLength(2);
    // The same report at a second path is the same column, whichever path comes first.
    const copy = verified(everyState('acme-host', '1.2.0'), './z-copy.json');
    expect(render([copy, ...inputs])).toEqual(first);
  });

  it('escapes an implementation name a host chose', () => {
    const matrix = buildMatrix([verified(everyState(HOSTILE, HOSTILE), './h.json')]);
    const html = renderMatrixHtml(matrix);
    expect(html.match(/<script>/g)?.length).toBe(1);
    expect(html).not.toContain('<img');
    expect(renderMatrixMarkdown(matrix)).not.toContain('<img');
  });
});

describe('the matrix page at a glance', () => {
  /** Each cell of a row on the page: its outcome class, its text, and its anchor mark if any. */
  function shownRow(html: string, id: string): { outcome: string; text: string }[] {
    const tr =
      html.match(new RegExp(`<tr data-row="${id.replace(/\./g, '\\.')}"[^>]*>(.*?)</tr>`))?.[1] ??
      '';
    return [...tr.matchAll(/<td class="cell o-([\w-]+)"[^>]*>(.*?)<\/td>/g)].map((m) => ({
      outcome: m[1] ?? '',
      text: (m[2] ?? '').replace(/<[^>]+>/g, ''),
    }));
  }

  it('colours cells by outcome and shows the anchor as a mark, never as the colour', () => {
    const report = everyState();
    const matrix = buildMatrix([
      verified(report, './v.json'),
      {
        verification: { state: 'unanchored', report: everyState('b'), problems: ['no key'] },
        file: './u.json',
      },
    ]);
    const html = renderMatrixHtml(matrix);
    // Sorted by label: acme-host (verified) first, then b (unanchored).
    expect(shownRow(html, `${PREFIX}suite-gated`)).toEqual([
      { outcome: 'fail', text: '✗ fail' },
      { outcome: 'fail', text: '✗ fail⚓' },
    ]);
    expect(shownRow(html, `${PREFIX}mean-gated`)).toEqual([
      { outcome: 'pass', text: '✓ pass' },
      { outcome: 'pass', text: '✓ pass⚓' },
    ]);
    const heads = [...html.matchAll(/<th class="column"[^>]*>(.*?)<\/th>/g)].map((m) =>
      (m[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(heads).toEqual([
      'acme-host 1.2.0 http://127.0.0.1:1 2026-10-16 09:00 ◇ integrity only',
      'b 1.2.0 http://127.0.0.1:1 2026-10-16 09:00 ⚓ unanchored',
    ]);
    // A legend of the four outcomes, each swatch coloured by its own class.
    for (const o of ['pass', 'fail', 'flaky', 'not-run'])
      expect(html).toMatch(new RegExp(`\\.swatch\\.o-${o} \\{ background: #[0-9a-f]{6}; \\}`));
  });

  it('says "not run" for a row a report did not drive, never an empty cell', () => {
    const short = { ...everyState('short'), requirements: everyState().requirements.slice(0, 2) };
    const matrix = buildMatrix([verified(everyState(), './a.json'), verified(short, './s.json')]);
    expect(formatSchemaErrors(validate('matrix', matrix))).toBe('');
    expect(shownRow(renderMatrixHtml(matrix), `${PREFIX}no-trajectory-ungated`)).toEqual([
      { outcome: 'blocked', text: '⊘ blocked' },
      { outcome: 'not-run', text: '· not run' },
    ]);
    expect(renderMatrixMarkdown(matrix)).toMatch(
      /\| `openwop\.requirement\.0246\.no-trajectory-ungated` \| \[⊘ blocked\]\([^)]+\) \| · not run \|/,
    );
  });

  it('shows a flaky row as flaky, allowed or not, never as excused', () => {
    const base = everyState();
    const id = `${PREFIX}gated-fields-shape`;
    const report: EvalGateReport = {
      ...base,
      repeat: {
        count: 3,
        rows: [
          {
            requirement: id,
            stability: 'flaky',
            outcomes: ['executed-fail', 'executed-pass'],
            allowed: true,
          },
        ],
      },
    };
    const matrix = buildMatrix([verified(report, './f.json')]);
    expect(formatSchemaErrors(validate('matrix', matrix))).toBe('');
    expect(states(matrix, 0)['gated-fields-shape']).toBe('flaky');
    expect(matrix.rows.find((r) => r.id === id)?.cells[0]?.detail).toBe(
      'flaky across 3 repetitions: executed-fail, executed-pass; the baseline allows it',
    );
    expect(shownRow(renderMatrixHtml(matrix), id)).toEqual([{ outcome: 'flaky', text: '~ flaky' }]);
    // Without --repeat the same row is the failure its baseline excuses.
    expect(states(buildMatrix([verified(base, './f.json')]), 0)['gated-fields-shape']).toBe(
      'excused',
    );
  });

  it('keeps the first column sticky and the table inside a box that scrolls', () => {
    const html = renderMatrixHtml(buildMatrix([verified(everyState(), './a.json')]));
    expect(html).toMatch(/\.matrix-scroll \{ overflow-x: auto;/);
    expect(html).toMatch(/table\.matrix th\.row-head \{ position: sticky; left: 0;/);
    expect(html).toContain('<div class="matrix-scroll"><table class="matrix">');
    expect(html).toMatch(/<th scope="row" class="row-head"/);
  });
});
