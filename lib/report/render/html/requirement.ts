// One requirement as a folded block: its disposition and reason, the command that runs it again
// alone, each finding with the evidence it was judged on, expected beside reported, the pictures,
// each trial's trajectory aligned, generated cases, and the recorded evidence itself. Failing
// and blocked blocks are open; the rest are folded and show their reason and findings alone: the
// evidence of a requirement that held is what makes a page of a passing run some 800 KB and most
// of a run's rendering time, and a reader comes to the page for what failed. That evidence stays
// in eval-gate-report.json.

import type {
  Finding,
  GeneratedCaseRecord,
  RunObservation,
  StreamedGeneratedRecord,
} from '../../../types.ts';
import type { ReportRow, EvalGateReport } from '../../report.ts';
import type { Expectations } from '../../side-by-side.ts';
import { sideBySide } from '../../side-by-side.ts';
import { anchorId, esc, tag } from './escape.ts';
import type { EvidenceLink } from './evidence.ts';
import { evidenceOf, ids } from './evidence.ts';
import { recordedEvidence } from './recorded.ts';
import { generatedFixtureCommand, reproduceCommand } from './reproduce.ts';
import { caseReproduceCommand, reproducibleReason } from '../reproduce-case.ts';
import type { FixtureTrials } from './trajectory.ts';
import { pictures } from './pictures.ts';
import { trajectorySection } from './trajectory-html.ts';
import type { CaseViews, SidecarCases } from './views.ts';

export function rowAnchor(index: number): string {
  return anchorId('req', index);
}

const OPEN: ReadonlySet<string> = new Set(['executed-fail', 'blocked']);

/** Whether a requirement or case of this disposition is shown open, with its evidence. */
export const showsEvidence = (disposition: string): boolean => OPEN.has(disposition);

export function requirementBlock(
  report: EvalGateReport,
  row: ReportRow,
  index: number,
  expectations: Expectations,
  trials: FixtureTrials | undefined,
  cases: CaseViews = new Map(),
  sidecarCases: SidecarCases = new Map(),
): string {
  const p = rowAnchor(index);
  const open = OPEN.has(row.disposition);
  const parts: string[] = [];
  parts.push(
    `<summary><span class="disp ${esc(row.disposition)}">${esc(row.disposition)}</span> ${esc(row.id)}` +
      `${row.fixtureId === undefined ? '' : ` <span class="muted">(fixture ${esc(row.fixtureId)})</span>`}</summary>`,
  );
  const reason = reproducibleReason(report, row);
  if (reason !== undefined) parts.push(`<p><strong>Reason:</strong> ${esc(reason)}</p>`);
  if (open) {
    parts.push(
      '<p>Run this requirement again, alone:</p>',
      `<pre class="command">${esc(reproduceCommand(report, row))}</pre>`,
    );
  }
  const evidence = open ? row.observation : undefined;
  parts.push(findingsTable(row.findings, evidence, p, open));
  if (evidence !== undefined) {
    parts.push(expectedTable(row, expectations, p));
    parts.push(pictures(evidence, row.findings, trials, p));
    if (trials !== undefined) parts.push(trajectorySection(trials, evidence, p));
  }
  parts.push(generatedSection(report, row, p, cases, sidecarCases));
  if (row.observation !== undefined && !open) parts.push(EVIDENCE_IN_REPORT);
  if (evidence !== undefined) {
    parts.push(
      tag(
        'details',
        { class: 'recorded', open },
        `<summary>Recorded evidence (what the report holds of the run)</summary>${recordedEvidence(evidence, p)}`,
      ),
    );
  }
  return tag('details', { id: p, class: `req ${row.disposition}`, open }, parts.join('\n'));
}

const EVIDENCE_IN_REPORT =
  '<p class="muted">The recorded evidence of a requirement that did not fail or block is in eval-gate-report.json; this page shows it under the failing and blocked ones.</p>';

function linksHtml(links: readonly EvidenceLink[]): string {
  return links
    .map((l) => `<a class="evidence-link" href="#${esc(l.id)}">${esc(l.label)}</a>`)
    .join(', ');
}

/**
 * Failed MUST findings first, then SHOULD warnings, then what held (folded). A block shown without
 * its evidence (`full` false) names each rule that held once, with its reference, and leaves the
 * messages to the report.
 */
export function findingsTable(
  findings: readonly Finding[],
  obs: RunObservation | undefined,
  p: string,
  full = true,
): string {
  if (findings.length === 0)
    return '<p class="muted">No findings: nothing was judged on this requirement.</p>';
  const row = (f: Finding): string => {
    const cls = f.ok ? 'held' : f.severity === 'MUST' ? 'failed' : 'warned';
    const links = obs === undefined ? '' : linksHtml(evidenceOf(f, obs, p));
    return tag(
      'tr',
      { class: `finding ${cls}` },
      `<td><code>${esc(f.rule)}</code></td><td>${f.ok ? 'held' : esc(f.severity === 'MUST' ? 'FAILED' : 'warning')}</td>` +
        `<td>${esc(f.ref)}</td><td>${esc(f.message)}${f.consequenceOf === undefined ? '' : ` <span class="muted">(follows from ${esc(f.consequenceOf)})</span>`}</td><td>${links}</td>`,
    );
  };
  const head =
    '<thead><tr><th>rule</th><th>outcome</th><th>ref</th><th>expected and reported</th><th>judged on</th></tr></thead>';
  const failed = findings.filter((f) => !f.ok);
  const held = findings.filter((f) => f.ok);
  const failedTable =
    failed.length === 0
      ? ''
      : `<table class="findings">${head}<tbody>${failed.map(row).join('')}</tbody></table>`;
  const heldRows = full
    ? `<table class="findings">${head}<tbody>${held.map(row).join('')}</tbody></table>`
    : heldRules(held);
  // Beside failures the rules that held are folded; alone they are what the block has to show.
  const heldTable =
    held.length === 0
      ? ''
      : failed.length === 0
        ? heldRows
        : `<details><summary>${held.length} rule${held.length === 1 ? '' : 's'} held</summary>${heldRows}</details>`;
  return `<h4>Findings</h4>${failedTable}${heldTable}`;
}

/** Each rule that held, once, with its reference and how many of its findings held. */
function heldRules(held: readonly Finding[]): string {
  const rules = new Map<string, { ref: string; count: number }>();
  for (const f of held) {
    const seen = rules.get(f.rule);
    if (seen === undefined) rules.set(f.rule, { ref: f.ref, count: 1 });
    else seen.count += 1;
  }
  const rows = [...rules].map(
    ([rule, { ref, count }]) =>
      `<tr><td><code>${esc(rule)}</code></td><td>${esc(ref)}</td><td>${count}</td></tr>`,
  );
  return `<table class="findings"><thead><tr><th>rule that held</th><th>ref</th><th>findings</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/** Where a side-by-side subject's reported value is recorded. */
function reportedAt(
  subject: string,
  field: string,
  obs: RunObservation,
  p: string,
): string | undefined {
  const summary = record(obs.summary);
  const tasks = Array.isArray(summary?.tasks) ? summary.tasks : [];
  const match = /^task (.+?)(?: trial (\d+))?$/.exec(subject);
  if (subject === 'suite')
    return summary?.[field] === undefined ? ids.summary(p) : ids.summary(p, [field]);
  if (subject === 'run') {
    const i = obs.events.findIndex((e) => e.type === 'eval.scored');
    return i === -1 ? undefined : ids.event(p, i);
  }
  if (match === null) return undefined;
  const [, taskId, trial] = match;
  if (trial === undefined) {
    const t = tasks.findIndex((x) => record(x)?.taskId === taskId);
    if (t === -1) return ids.summary(p);
    return record(tasks[t])?.[field] === undefined
      ? ids.summary(p, ['tasks', t])
      : ids.summary(p, ['tasks', t, field]);
  }
  const i = obs.events.findIndex((e) => {
    const payload = record(e.payload);
    return (
      e.type === 'eval.scored' && payload?.taskId === taskId && payload?.trial === Number(trial)
    );
  });
  return i === -1 ? undefined : ids.event(p, i);
}

function expectedTable(row: ReportRow, expectations: Expectations, p: string): string {
  const items = sideBySide(row, expectations);
  if (items.length === 0 || row.observation === undefined) return '';
  const obs = row.observation;
  const ordered = [...items.filter((i) => !i.agrees), ...items.filter((i) => i.agrees)];
  const rows = ordered.map((i) => {
    const at = reportedAt(i.subject, i.field, obs, p);
    const reported =
      at === undefined ? esc(i.reported) : `<a href="#${esc(at)}">${esc(i.reported)}</a>`;
    return tag(
      'tr',
      { class: i.agrees ? 'agrees' : 'disagrees' },
      `<td>${esc(i.subject)}</td><td>${esc(i.field)}</td><td>${esc(i.expected)}</td><td>${reported}</td><td>${i.agrees ? '' : '✗'}</td>`,
    );
  });
  return (
    `<h4>Expected beside reported</h4><p class="muted">Expected: the witness on fixture ${esc(row.fixtureId ?? '')}; reported: the recorded run (each value links to where it is recorded).</p>` +
    `<table class="side-by-side"><thead><tr><th>subject</th><th>field</th><th>expected</th><th>reported</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function generatedSection(
  report: EvalGateReport,
  row: ReportRow,
  p: string,
  views: CaseViews,
  sidecarCases: SidecarCases,
): string {
  const pack = row.generated;
  if (pack === undefined) return '';
  if (!('cases' in pack)) {
    const shown = (sidecarCases.get(row.id) ?? []).map(({ index, record }) =>
      caseBlock(record, index, row.id, p, views),
    );
    return streamedSection(report, row, pack) + shown.join('\n');
  }
  const cases = pack.cases.map((c, j) => caseBlock(c, j, row.id, p, views));
  const fixtures = generatedFixtureCommand(row) ?? '';
  return (
    `<h4>Generated cases (seed ${pack.seed}, ${pack.count} cases)</h4>` +
    `<p>The pack is replayed whole by <code>${esc(reproduceCommand(report, row))}</code>; ` +
    `<code>${esc(fixtures)}</code> writes each case's fixture under the file name shown.</p>` +
    cases.join('\n')
  );
}

/** One generated case: its disposition, reason, findings, trajectories and recorded evidence. */
function caseBlock(
  c: GeneratedCaseRecord,
  j: number,
  rowId: string,
  p: string,
  views: CaseViews,
): string {
  const cp = anchorId(p, 'case', j);
  const open = OPEN.has(c.disposition);
  const view = views.get(`${rowId}#${j}`);
  const findings = c.findings ?? view?.findings ?? [];
  const evidence = open ? c.observation : undefined;
  const body = [
    `<summary><span class="disp ${esc(c.disposition)}">${esc(c.disposition)}</span> ${esc(c.fixtureId)} <span class="muted">(${esc(c.file)})</span></summary>`,
    c.reason === undefined ? '' : `<p><strong>Reason:</strong> ${esc(c.reason)}</p>`,
    findings.length === 0 ? '' : findingsTable(findings, evidence, cp, open),
    evidence === undefined || view?.trials === undefined
      ? ''
      : pictures(evidence, findings, view.trials, cp) +
        trajectorySection(view.trials, evidence, cp),
    evidence === undefined
      ? c.observation === undefined
        ? ''
        : EVIDENCE_IN_REPORT
      : tag(
          'details',
          { class: 'recorded', open },
          `<summary>Recorded evidence</summary>${recordedEvidence(evidence, cp)}`,
        ),
  ];
  return tag('details', { id: cp, class: `req ${c.disposition}`, open }, body.join('\n'));
}

/** A pack whose cases are in its sidecar: the tally, and each failing rule's smallest case, shown below it. */
function streamedSection(
  report: EvalGateReport,
  row: ReportRow,
  pack: StreamedGeneratedRecord,
): string {
  const tally = Object.entries(pack.tally)
    .filter(([, n]) => n > 0)
    .map(([d, n]) => `<span class="disp ${esc(d)}">${esc(d)}</span> ${n}`)
    .join(' ');
  const smallest =
    pack.smallest.length === 0
      ? ''
      : `<table><thead><tr><th>Rule</th><th>Smallest failing case</th><th>Tasks</th><th>Trials</th><th>Calls</th><th>Drive it alone</th></tr></thead><tbody>` +
        pack.smallest
          .map(
            (s) =>
              `<tr><td><code>${esc(s.rule)}</code></td><td>${esc(s.fixtureId)}</td><td>${s.tasks}</td><td>${s.trials}</td><td>${s.calls}</td><td><code>${esc(caseReproduceCommand(report, row, s.fixtureId))}</code></td></tr>`,
          )
          .join('') +
        '</tbody></table>';
  return (
    `<h4>Generated cases (seed ${pack.seed}, ${pack.count} cases)</h4>` +
    `<p>${tally}</p>` +
    `<p>Each case's record is in <code>${esc(pack.sidecar.file)}</code> (${pack.sidecar.bytes} bytes, sha256 <code>${esc(pack.sidecar.sha256)}</code>), one JSON line a case; the pack is replayed whole by <code>${esc(reproduceCommand(report, row))}</code>.</p>` +
    smallest
  );
}
