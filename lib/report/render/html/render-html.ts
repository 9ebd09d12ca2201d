// eval-gate-report.html: one self-contained page of a run, rendered from the report, the
// expectations and the run's one verdict, deciding nothing again. The verdict comes first in the
// closing line's words, then what to do; failing and blocked requirements are open, the rest
// folded to the rules that held; every finding of an open block links to the recorded evidence it
// was judged on.

import type { EvalGateReport } from '../../report.ts';
import type { RunVerdict } from '../../verdict/run-verdict.ts';
import { closingLineOf, headline } from '../../verdict/run-verdict.ts';
import type { Expectations } from '../../side-by-side.ts';
import { esc, tag } from './escape.ts';
import { hostChecksSection } from './host-checks-html.ts';
import { page } from './page.ts';
import { requirementBlock, rowAnchor } from './requirement.ts';
import { gateFailures, todoSection } from './todo.ts';
import type { PageViews } from './views.ts';
import { NO_VIEWS } from './views.ts';

export const HTML_FILE = 'eval-gate-report.html';
export type { CaseViews, PageViews, TrialsByFixture } from './views.ts';

/** Failing first, then blocked, then the rest in report order: a reader meets the causes first. */
const ORDER: Readonly<Record<string, number>> = {
  'executed-fail': 0,
  blocked: 1,
  'executed-pass': 2,
  inapplicable: 3,
  skipped: 4,
};

export function renderHtml(
  report: EvalGateReport,
  verdict: RunVerdict,
  expectations: Expectations,
  views: PageViews = NO_VIEWS,
): string {
  const rows = report.requirements
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        (ORDER[a.row.disposition] ?? 9) - (ORDER[b.row.disposition] ?? 9) || a.index - b.index,
    );
  const todo = todoSection(report, verdict);
  const impl = report.target.implementation;
  const declared = report.target.declared;
  const index = rows.map(
    ({ row, index: i }) =>
      `<tr><td><span class="disp ${esc(row.disposition)}">${esc(row.disposition)}</span>${flakyNote(report, row.id)}</td><td><a href="#${esc(rowAnchor(i))}">${esc(row.id)}</a></td><td>${gateFailures(report, row)}</td></tr>`,
  );
  const certification = verdict.certification;
  const body = [
    tag(
      'header',
      { id: 'verdict' },
      [
        tag('p', { class: `headline ${verdict.result}` }, esc(headline(verdict))),
        tag('p', { class: 'closing' }, esc(closingLineOf(verdict))),
      ].join(''),
    ),
    `<section id="todo"><h2>What to do</h2>${todo}</section>`,
    '<section id="target"><h2>Target</h2><ul>',
    `<li>base URL: <code>${esc(report.target.baseUrl)}</code>${report.target.embedded ? ' (the embedded reference host: no evidence about any other host)' : ''}</li>`,
    `<li>implementation (advertised): ${impl === undefined ? 'none' : esc(`${impl.name} ${impl.version ?? ''}`.trim())}; declared: ${declared === undefined ? 'none' : esc(`${declared.name} ${declared.version ?? ''}`.trim())}</li>`,
    `<li>strict mode ${report.strict ? 'on' : 'off'}; opted out: ${report.optedOut.length === 0 ? 'none' : esc(report.optedOut.join(', '))}; fail on: ${esc(report.failOn ?? 'must')}</li>`,
    ...severityItems(report),
    `<li>certification: ${certification.certified ? 'certified' : 'not certified'}${certification.reasons.map((r) => `<br>· ${esc(r.text)}`).join('')}</li>`,
    `<li>run: ${esc(report.startedAt)} to ${esc(report.finishedAt)}; ${esc(report.suite.name)} ${esc(report.suite.version)}</li>`,
    '</ul></section>',
    '<section id="requirements"><h2>Requirements</h2>',
    `<table class="index"><thead><tr><th>disposition</th><th>requirement</th><th title="the rules that fail the gate at its --fail-on, after the baseline's severities">failures</th></tr></thead><tbody>${index.join('')}</tbody></table>`,
    ...rows.map(({ row, index: i }) =>
      requirementBlock(
        report,
        row,
        i,
        expectations,
        row.fixtureId === undefined ? undefined : views.trials.get(row.fixtureId),
        views.cases,
        views.sidecarCases,
      ),
    ),
    '</section>',
    hostChecksSection(
      report.hostChecks,
      report.discovery.ok ? report.discovery.text : `not read: ${report.discovery.reason}`,
    ),
    `<footer><p class="muted">Report digest of rows: <code>sha256:${esc(report.digests.rows)}</code>. This page renders eval-gate-report.json and decides nothing; <code>openwop-eval-gate verify</code> checks the report.</p></footer>`,
  ].join('\n');
  return page(`RFC 0246 eval gate: ${verdict.result} · ${report.target.baseUrl}`, body);
}

/** Under --repeat, a flaky row's outcomes beside its disposition, and whether the baseline allows them. */
function flakyNote(report: EvalGateReport, id: string): string {
  const row = report.repeat?.rows.find((r) => r.requirement === id && r.stability === 'flaky');
  if (row === undefined) return '';
  const allowed = row.allowed === true ? ', allowed by the baseline' : '';
  return ` <span class="disp executed-fail">flaky: ${esc(row.outcomes.join(', '))}${allowed}</span>`;
}

/** The baseline's scoped severities, each with its reason. */
function severityItems(report: EvalGateReport): string[] {
  return (report.baseline?.severity ?? []).map(
    (o) =>
      `<li>severity override: ${esc(o.rule)} counts as ${o.severity} on ${esc(o.requirements.join(', '))}: ${esc(o.reason)}</li>`,
  );
}
