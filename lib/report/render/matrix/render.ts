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
  skipped: '· skipped',
  warning: '! warning',
  'not-judged': '? not judged',
  absent: '',
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
  skipped: 'not selected in that run',
  warning: 'a SHOULD host check did not hold',
  'not-judged': 'the run could not judge the check',
  absent: 'the report has no such row',
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
        if (column === undefined || cell.state === 'absent') return '';
        return `[${cellText(cell)}](${href(column, cell)})`;
      });
      return `| ${row.kind === 'requirement' ? '' : `${row.kind}: `}\`${mdCell(row.id)}\` | ${cells.join(' | ')} |`;
    }),
    '',
    '## Reports',
    '',
    '| column | verification | digest (sha256) | file |',
    '| --- | --- | --- | --- |',
    ...matrix.columns.map(
      (c) =>
        `| ${mdCell(c.label)} | ${c.verification}${c.problems.length === 0 ? '' : `: ${mdCell(c.problems[0] ?? '')}`} | \`${c.digest}\` | ${mdCell(c.file)} |`,
    ),
    '',
    '## States',
    '',
    ...Object.entries(STATE_MEANING).map(([state, meaning]) => `- \`${state}\`: ${meaning}`),
    '',
  ];
  return lines.join('\n');
}

const STYLE = `
table.matrix td.cell { text-align: center; white-space: nowrap; }
table.matrix td.cell a { text-decoration: none; color: inherit; display: block; }
td.pass, td.certified { background: #e3f4e8; } td.fail, td.not-certified { background: #fbe3e1; }
td.blocked, td.warning { background: #fdf0d5; } td.unverified { background: #f3d7f0; }
td.unanchored, td.different-referee { background: #e6e6f7; } td.excused, td.opted-out { background: #eef3f8; }
th.column { writing-mode: vertical-rl; transform: rotate(180deg); max-height: 14rem; }
`;

export function renderMatrixHtml(matrix: Matrix): string {
  const head = matrix.columns
    .map((c, i) =>
      tag(
        'th',
        { class: 'column', 'data-col': i, title: `sha256:${c.digest}` },
        esc(columnHead(c)),
      ),
    )
    .join('');
  const rows = matrix.rows.map((row) => {
    const cells = row.cells.map((cell, i) => {
      const column = matrix.columns[i];
      if (column === undefined) return '';
      const body =
        cell.state === 'absent'
          ? ''
          : tag('a', { href: href(column, cell), title: cell.detail }, esc(cellText(cell)));
      return tag(
        'td',
        { class: `cell ${cell.state}`, 'data-col': i, 'data-state': cell.state },
        body,
      );
    });
    return tag(
      'tr',
      { 'data-row': row.id, 'data-kind': row.kind },
      `<th scope="row">${row.kind === 'requirement' ? '' : `<span class="muted">${esc(row.kind)}:</span> `}<code>${esc(row.id)}</code></th>${cells.join('')}`,
    );
  });
  const reports = matrix.columns.map((c) =>
    tag(
      'tr',
      {},
      `<td>${esc(c.label)}</td><td>${esc(c.verification)}${c.problems.length === 0 ? '' : `: ${esc(c.problems[0] ?? '')}`}</td>` +
        `<td><code>${esc(c.digest)}</code></td><td>${tag('a', { href: c.file }, esc(c.file))}${c.page === null ? '' : ` · ${tag('a', { href: c.page }, 'page')}`}</td>`,
    ),
  );
  const body = [
    `<header id="verdict"><h1>RFC 0246 eval gate: results matrix</h1><p>${matrix.columns.length} reports, each verified before any cell is read (${esc(matrix.suite.name)} ${esc(matrix.suite.version)}). A cell links to its report's page at the finding behind it.</p></header>`,
    `<table class="matrix"><thead><tr><th>requirement</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
    `<h2>Reports</h2><table><thead><tr><th>column</th><th>verification</th><th>digest (sha256)</th><th>file</th></tr></thead><tbody>${reports.join('')}</tbody></table>`,
    `<h2>States</h2><ul>${Object.entries(STATE_MEANING)
      .map(([state, meaning]) => `<li><code>${esc(state)}</code>: ${esc(meaning)}</li>`)
      .join('')}</ul>`,
  ].join('\n');
  return page('RFC 0246 eval gate: results matrix', body, STYLE);
}
