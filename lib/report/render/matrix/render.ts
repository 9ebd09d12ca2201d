// matrix.md and index.html: the same matrix for a pull request and for a browser. Every cell
// links to its report's page by digest, at the finding behind it; a report whose digests do not
// recompute has no page, and its cells link to the file and say why.

import { consoleText, mixedScripts } from '../../../untrusted-text.ts';
import { esc, tag } from '../html/escape.ts';
import { page } from '../html/page.ts';
import type { CellState, Matrix, MatrixCell, MatrixColumn } from './model.ts';

export const MATRIX_JSON = 'matrix.json';
export const MATRIX_MARKDOWN = 'matrix.md';
export const MATRIX_HTML = 'index.html';

const SYMBOL: Readonly<Record<CellState, string>> = {
  pass: '✓ pass',
  fail: '✗ fail',
  blocked: '⊘ blocked',
  inapplicable: '– inapplicable',
  'opted-out': '○ opted out',
  excused: '≈ excused',
  flaky: '~ flaky',
  skipped: '· skipped',
  warning: '! warning',
  'not-judged': '? not judged',
  absent: '· not run',
  certified: '★ certified',
  'not-certified': '✗ not certified',
  unverified: '⚠ unverified',
  unanchored: '⚓ unanchored',
  'different-referee': '≠ other referee',
};

export const STATE_MEANING: Readonly<Record<CellState, string>> = {
  pass: 'executed and every MUST rule held',
  fail: 'executed and a MUST rule failed',
  blocked: 'the suite could not observe',
  inapplicable: 'a host fact leaves the requirement out',
  'opted-out': 'the host declared an opt-out that leaves it out',
  excused: "a failure the report's baseline excuses",
  flaky:
    'under --repeat the requirement came to more than one outcome (the detail says which, and whether the baseline allows it)',
  skipped: 'not selected in that run',
  warning: 'a SHOULD host check did not hold',
  'not-judged': 'the run could not judge the check',
  absent: 'not run: the report did not drive this requirement or check',
  certified: 'the report certifies the host',
  'not-certified': 'the report does not certify the host',
  unverified: "the report's digests or verdicts do not recompute: its claims are not shown",
  unanchored: 'the report recomputes, but no key outside it vouches for it',
  'different-referee': 'judged by another suite version or requirement set',
};

/** The state, and for a report the verifier limits, what it recomputes to: `⚓ unanchored · ✗ fail`. */
function cellText(cell: MatrixCell): string {
  return cell.recomputed === undefined
    ? SYMBOL[cell.state]
    : `${SYMBOL[cell.state]} · ${SYMBOL[cell.recomputed]}`;
}

function href(column: MatrixColumn, cell: MatrixCell): string {
  if (column.page === null) return column.file;
  return cell.anchor === undefined ? column.page : `${column.page}#${cell.anchor}`;
}

function columnHead(column: MatrixColumn): string {
  const mixed = mixedScripts(column.implementation);
  return (
    `${column.label}${mixed === undefined ? '' : ` (mixed scripts: ${mixed})`}` +
    (column.verification === 'verified' ? '' : ` (${column.verification})`)
  );
}

export function renderMatrixMarkdown(matrix: Matrix): string {
  // A host chose the names: no markup of theirs may render, and no pipe may split a cell.
  const mdCell = (text: string): string =>
    consoleText(text)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\|/g, '\\|')
      .replace(/[\r\n]+/g, ' ');
  const lines = [
    `# RFC 0246 eval gate: results matrix (${matrix.suite.name} ${matrix.suite.version})`,
    '',
    `${matrix.columns.length} report${matrix.columns.length === 1 ? '' : 's'}; a cell links to its report's page at the finding behind it.`,
    '',
    `| requirement | ${matrix.columns.map((c) => mdCell(columnHead(c))).join(' | ')} |`,
    `| --- | ${matrix.columns.map(() => '---').join(' | ')} |`,
    ...matrix.rows.map((row) => {
      const cells = row.cells.map((cell, i) => {
        const column = matrix.columns[i];
        if (column === undefined) return '';
        if (cell.state === 'absent') return cellText(cell);
        return `[${cellText(cell)}](${href(column, cell)})`;
      });
      return `| ${row.kind === 'requirement' ? '' : `${row.kind}: `}\`${mdCell(row.id)}\` | ${cells.join(' | ')} |`;
    }),
    '',
    '## Reports',
    '',
    '| column | host | run started | verification | digest (sha256) | file | read from |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...matrix.columns.map(
      (c) =>
        `| ${mdCell(c.label)} | ${mdCell(c.baseUrl ?? 'none named')} | ${mdCell(c.startedAt ?? 'none named')} | ${c.verification}${c.problems.length === 0 ? '' : `: ${mdCell(c.problems[0] ?? '')}`} | \`${c.digest}\` | [${mdCell(c.file)}](${c.file}) | ${mdCell(c.source)} |`,
    ),
    '',
    '## States',
    '',
    ...Object.entries(STATE_MEANING).map(([state, meaning]) => `- \`${state}\`: ${meaning}`),
    '',
  ];
  return lines.join('\n');
}

/**
 * The outcome a cell is coloured by: what the run came to, whoever vouches for the report. An
 * unanchored or other-referee cell is coloured by what it recomputes to and carries the anchor as
 * a mark; a report that does not verify has no outcome to show.
 */
export type Outcome =
  | 'pass'
  | 'fail'
  | 'flaky'
  | 'not-run'
  | 'blocked'
  | 'warning'
  | 'excused'
  | 'neutral'
  | 'unverified';

const OUTCOME: Readonly<Record<CellState, Outcome>> = {
  pass: 'pass',
  certified: 'pass',
  fail: 'fail',
  'not-certified': 'fail',
  flaky: 'flaky',
  skipped: 'not-run',
  absent: 'not-run',
  blocked: 'blocked',
  'not-judged': 'blocked',
  warning: 'warning',
  excused: 'excused',
  inapplicable: 'neutral',
  'opted-out': 'neutral',
  unverified: 'unverified',
  unanchored: 'unverified',
  'different-referee': 'unverified',
};

export function outcomeOf(cell: MatrixCell): Outcome {
  return OUTCOME[cell.recomputed ?? cell.state];
}

/** Who stands behind a column, as a mark: the certification, integrity only, or nobody outside it. */
export function anchorMark(
  column: MatrixColumn,
  certification: MatrixCell | undefined,
): { readonly mark: string; readonly text: string } {
  if (column.verification === 'unverified') return { mark: '⚠', text: 'unverified' };
  if (column.verification === 'unanchored') return { mark: '⚓', text: 'unanchored' };
  if (column.verification === 'verified' && certification?.state === 'certified')
    return { mark: '★', text: 'certified' };
  return { mark: '◇', text: 'integrity only' };
}

const STYLE = `
body { max-width: 96rem; }
.matrix-scroll { overflow-x: auto; max-width: 100%; border: 1px solid #ddd; }
table.matrix { margin: 0; border-collapse: separate; border-spacing: 0; display: table; max-width: none; overflow: visible; }
table.matrix th, table.matrix td { border: 0; border-right: 1px solid #ddd; border-bottom: 1px solid #ddd; }
table.matrix th.row-head { position: sticky; left: 0; z-index: 2; background: #fff; min-width: 13rem; max-width: 18rem; white-space: normal; overflow-wrap: anywhere; }
table.matrix thead th.row-head { z-index: 3; }
table.matrix th.column { min-width: 8.5rem; max-width: 11rem; font-weight: 400; font-size: .8rem; vertical-align: bottom; word-break: break-all; }
table.matrix th.column .name { font-weight: 700; font-size: .9rem; word-break: normal; }
table.matrix td.cell { text-align: center; white-space: nowrap; }
table.matrix td.cell a { text-decoration: none; color: inherit; display: block; }
.anchor-mark { font-size: .75rem; color: #333; margin-left: .25rem; }
td.o-pass { background: #cdebd6; } td.o-fail { background: #f6c9c5; } td.o-flaky { background: #f9ddb0; }
td.o-not-run { background: #eceff1; color: #555; } td.o-blocked, td.o-warning { background: #fdf0d5; }
td.o-excused { background: #fbe3e1; } td.o-neutral { background: #f5f7fa; } td.o-unverified { background: #e5e5e5; color: #555; }
.legend .swatch { display: inline-block; width: .8em; height: .8em; margin-right: .3em; border: 1px solid #999; vertical-align: -.05em; }
.swatch.o-pass { background: #cdebd6; } .swatch.o-fail { background: #f6c9c5; } .swatch.o-flaky { background: #f9ddb0; } .swatch.o-not-run { background: #eceff1; }
`;

const SHORT_PREFIX = 'openwop.requirement.';

function columnHeadHtml(column: MatrixColumn, index: number, cert: MatrixCell | undefined): string {
  const mixed = mixedScripts(column.implementation);
  const anchor = anchorMark(column, cert);
  const lines = [
    `<div class="name">${esc(column.label)}${mixed === undefined ? '' : ` (mixed scripts: ${esc(mixed)})`}</div>`,
    `<div>${column.baseUrl === null ? 'no address' : `<code>${esc(column.baseUrl)}</code>`}</div>`,
    `<div>${esc(column.startedAt === null ? 'no date' : column.startedAt.replace('T', ' ').slice(0, 16))}</div>`,
    `<div><span class="anchor-mark" title="${esc(anchor.text)}">${anchor.mark}</span> ${esc(anchor.text)}</div>`,
  ];
  return tag(
    'th',
    { class: 'column', 'data-col': index, scope: 'col', title: `sha256:${column.digest}` },
    lines.join(''),
  );
}

function cellHtml(cell: MatrixCell, column: MatrixColumn, index: number): string {
  const outcome = outcomeOf(cell);
  const shown = SYMBOL[cell.recomputed ?? cell.state];
  // An unanchored or other-referee cell: coloured by its outcome, its anchor a mark beside it.
  const mark =
    cell.recomputed === undefined
      ? ''
      : `<span class="anchor-mark" title="${esc(STATE_MEANING[cell.state])}">${esc(SYMBOL[cell.state].split(' ')[0] ?? '')}</span>`;
  const body =
    cell.state === 'absent'
      ? esc(shown)
      : tag('a', { href: href(column, cell), title: cell.detail }, `${esc(shown)}${mark}`);
  return tag(
    'td',
    {
      class: `cell o-${outcome}`,
      'data-col': index,
      'data-state': cell.state,
      'data-outcome': outcome,
    },
    body,
  );
}

export function renderMatrixHtml(matrix: Matrix): string {
  const certRow = matrix.rows.find((r) => r.kind === 'certification');
  const head = matrix.columns.map((c, i) => columnHeadHtml(c, i, certRow?.cells[i])).join('');
  const rows = matrix.rows.map((row) => {
    const cells = row.cells.map((cell, i) => {
      const column = matrix.columns[i];
      return column === undefined ? '' : cellHtml(cell, column, i);
    });
    const id = row.id.startsWith(SHORT_PREFIX) ? row.id.slice(SHORT_PREFIX.length) : row.id;
    return tag(
      'tr',
      { 'data-row': row.id, 'data-kind': row.kind },
      `<th scope="row" class="row-head" title="${esc(row.id)}">${row.kind === 'requirement' ? '' : `<span class="muted">${esc(row.kind)}:</span> `}<code>${esc(id)}</code></th>${cells.join('')}`,
    );
  });
  const reports = matrix.columns.map((c, i) =>
    tag(
      'tr',
      {},
      `<td>${esc(c.label)}</td><td>${c.baseUrl === null ? '' : `<code>${esc(c.baseUrl)}</code>`}</td><td>${esc(c.startedAt ?? '')}</td>` +
        `<td>${esc(anchorMark(c, certRow?.cells[i]).text)}; ${esc(c.verification)}${c.problems.length === 0 ? '' : `: ${esc(c.problems[0] ?? '')}`}</td>` +
        `<td><code>${esc(c.digest)}</code></td><td>${tag('a', { href: c.file }, 'report')}${c.page === null ? '' : ` · ${tag('a', { href: c.page }, 'page')}`}<br><span class="muted">read from ${esc(c.source)}</span></td>`,
    ),
  );
  const swatch = (o: Outcome, text: string): string =>
    `<span><i class="swatch o-${o}"></i>${esc(text)}</span>`;
  const legend =
    '<p class="legend">' +
    swatch('pass', 'pass') +
    swatch('fail', 'fail') +
    swatch('flaky', 'flaky') +
    swatch('not-run', 'not run') +
    '<span>marks: ★ certified · ◇ integrity only · ⚓ unanchored · ⚠ unverified</span></p>';
  const body = [
    `<header id="verdict"><h1>RFC 0246 eval gate: results matrix</h1><p>${matrix.columns.length} reports, each verified before any cell is read (${esc(matrix.suite.name)} ${esc(matrix.suite.version)}). A cell is coloured by what the run came to and links to its report's page at the finding behind it; who vouches for the report is its column's mark.</p>${legend}</header>`,
    `<div class="matrix-scroll"><table class="matrix"><thead><tr><th class="row-head" scope="col">requirement</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
    `<h2>Reports</h2><table><thead><tr><th>column</th><th>host</th><th>run started</th><th>anchor; verification</th><th>digest (sha256)</th><th>files</th></tr></thead><tbody>${reports.join('')}</tbody></table>`,
    `<h2>States</h2><ul>${Object.entries(STATE_MEANING)
      .map(([state, meaning]) => `<li><code>${esc(state)}</code>: ${esc(meaning)}</li>`)
      .join('')}</ul>`,
  ].join('\n');
  return page('RFC 0246 eval gate: results matrix', body, STYLE);
}
