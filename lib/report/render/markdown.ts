// The Markdown summary, for a person or a CI step summary: the dispositions, then per leg a table
// of its tasks with the two axes side by side (the scores the host reported, and the gate). The
// rows that need something done come first; the passed ones are folded into a <details> block.

import { markdownCode } from '../../untrusted-text.ts';
import { implementationLabel } from '../verdict/certification.ts';
import { reproducibleReason } from './reproduce-case.ts';
import type { EvalGateReport, ReportRow } from '../report.ts';
import type { Expectations } from '../side-by-side.ts';
import { sideBySide } from '../side-by-side.ts';
import {
  baselineSection,
  cell,
  certificationSection,
  gateBullets,
  repeatSection,
} from './markdown-ci.ts';
import { closingLineOf, headline } from '../verdict/run-verdict.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { legGaps, runWideGaps, unexercisedLine } from '../verdict/unexercised.ts';
import { focusRows, requirementTable, settledTitle } from './markdown-focus.ts';
import { isBypass, warningsOf } from '../verdict/warnings.ts';

export const MARKDOWN_FILE = 'eval-gate-summary.md';

/**
 * `expectations` (lib/report/side-by-side.ts) adds, under every failing leg, each number the witness
 * expects beside the number the host reported.
 */
export function renderMarkdown(
  report: EvalGateReport,
  verdict: RunVerdict,
  expectations: Expectations = new Map(),
): string {
  const lines: string[] = [];
  // The first line is the verdict, so a reader who stops there knows the result and its cause.
  lines.push(headline(verdict), '');
  // The one cause leads; every cause follows, each with what to do.
  if (verdict.causes.length > 0) lines.push(...verdict.causes.map((c) => `- ${cell(c)}`), '');
  lines.push(`# RFC 0246 eval gate: ${cell(report.target.baseUrl)}`, '');
  lines.push(
    `**${cell(closingLineOf(verdict))}** · ${cell(report.suite.name)} ${cell(report.suite.version)}`,
    '',
  );
  lines.push(`Not exercised: ${unexercisedLine(report)}.`, '');
  if (report.target.embedded) {
    lines.push(
      '> The embedded reference host was the target: this is no evidence about any other host.',
      '',
    );
  }
  lines.push(...certificationSection(verdict));
  const impl = report.target.implementation;
  lines.push(
    `- implementation (advertised): ${impl === undefined ? 'none' : markdownCode(implementationLabel(impl))}`,
    `- strict mode: ${report.strict ? 'on' : 'off'}; opted out: ${report.optedOut.length === 0 ? 'none' : report.optedOut.join(', ')}`,
    ...gateBullets(report),
  );
  const { attention, settled } = focusRows(report.requirements, verdict);
  // A pack's case commands as a reader pastes them: with this run's target and flags.
  const pasteable = (r: ReportRow): ReportRow => {
    const reason = reproducibleReason(report, r);
    return reason === undefined ? r : { ...r, reason };
  };
  if (attention.length > 0) lines.push('', ...requirementTable(attention.map(pasteable)));
  lines.push(...baselineSection(report, verdict));
  lines.push(...repeatSection(report));
  lines.push(...hostCheckSection(report));
  for (const row of attention) lines.push(...legSection(row, expectations));
  lines.push(...settledSection(settled, expectations));
  lines.push(
    '',
    "Trajectory verdicts read each trial's `eval.scored.trajectoryMatched`; where the host omits it, the trial's `passed` stands in and is marked †.",
    '',
  );
  return lines.join('\n');
}

/**
 * The passed and unselected rows, collapsed: GitHub renders the Markdown inside <details> only
 * after a blank line, so the summary line stands alone.
 */
function settledSection(rows: readonly ReportRow[], expectations: Expectations): string[] {
  if (rows.length === 0) return [];
  return [
    '',
    '<details>',
    `<summary>${settledTitle(rows)}</summary>`,
    '',
    ...requirementTable(rows),
    ...rows.flatMap((row) => legSection(row, expectations)),
    '',
    '</details>',
  ];
}

/**
 * Discovery and the provoked refusals: SHOULD findings that decide no requirement, listed with
 * every rule that could not be judged, so a reader sees what was and was not asked of the host.
 * A run-wide rule no leg and no check judged is listed here once (lib/report/verdict/unexercised.ts).
 */
function hostCheckSection(report: EvalGateReport): string[] {
  const checks = report.hostChecks;
  const runWide = runWideGaps(report);
  const notJudged = [...(checks?.unexercised ?? []), ...runWide];
  const gaps =
    notJudged.length === 0
      ? []
      : ['', 'Not judged:', '', ...notJudged.map((u) => `- \`${u.rule}\`: ${cell(u.reason)}`)];
  if (checks === undefined) {
    return gaps.length === 0
      ? []
      : ['', '## Host checks', '', 'The run made no host checks.', ...gaps];
  }
  const bypasses = checks.findings.filter(isBypass);
  const failed = checks.findings.filter((f) => !f.ok && !isBypass(f));
  const held = checks.findings.length - failed.length - bypasses.length;
  return [
    '',
    '## Host checks',
    '',
    `${held} held, ${bypasses.length === 0 ? '' : `${bypasses.length} MUST failed (authentication bypass), `}${failed.length} SHOULD warning${failed.length === 1 ? '' : 's'}, ${notJudged.length} unexercised, ${checks.inapplicable.length} inapplicable. They decide no requirement; an authentication bypass fails the run, a warning only under --fail-on should.`,
    ...(bypasses.length === 0
      ? []
      : [
          '',
          'Authentication bypass (MUST):',
          '',
          ...bypasses.map((f) => `- \`${f.rule}\` (${cell(f.ref)}): ${cell(f.message)}`),
        ]),
    ...(failed.length === 0
      ? []
      : [
          '',
          'Warnings (SHOULD):',
          '',
          ...failed.map((f) => `- \`${f.rule}\` (${cell(f.ref)}): ${cell(f.message)}`),
        ]),
    ...gaps,
    ...(checks.inapplicable.length === 0
      ? []
      : [
          '',
          'Inapplicable (a host fact, neither a pass nor a gap):',
          '',
          ...checks.inapplicable.map((u) => `- \`${u.rule}\`: ${cell(u.reason)}`),
        ]),
  ];
}

function legSection(row: ReportRow, expectations: Expectations): string[] {
  return [...tasksSection(row, expectations), ...warningSection(row), ...unexercisedSection(row)];
}

/** The rules that judged nothing on the leg's run, each with why; run-wide ones are listed once. */
function unexercisedSection(row: ReportRow): string[] {
  const gaps = legGaps(row);
  if (gaps.length === 0) return [];
  return [
    '',
    `Not exercised on ${row.id}:`,
    '',
    ...gaps.map((g) => `- \`${g.rule}\`: ${cell(g.reason)}`),
  ];
}

/** The SHOULD findings that did not hold: they never fail a leg, so they are listed apart. */
function warningSection(row: ReportRow): string[] {
  const warnings = warningsOf(row);
  if (warnings.length === 0) return [];
  return [
    '',
    `Warnings (SHOULD) on ${row.id}:`,
    '',
    ...warnings.map((w) => `- \`${w.rule}\` (${cell(w.ref)}): ${cell(w.message)}`),
  ];
}

function tasksSection(row: ReportRow, expectations: Expectations): string[] {
  const summary = row.observation?.summary;
  if (row.observation === undefined || !isRecord(summary)) {
    return row.disposition === 'executed-fail' ? comparison(row, expectations) : [];
  }
  const tasks = Array.isArray(summary.tasks) ? summary.tasks.filter(isRecord) : [];
  return [
    '',
    `## ${row.id}`,
    '',
    `Suite: aggregateScore ${show(summary.aggregateScore)}, gatedAggregateScore ${show(summary.gatedAggregateScore)}, passed ${show(summary.passed)}`,
    '',
    '| task | score | gatedScore | trajectory per trial | passed |',
    '| --- | --- | --- | --- | --- |',
    ...tasks.map((task) => {
      const verdicts = trialVerdicts(row, task.taskId);
      return `| ${show(task.taskId)} | ${show(task.score)} | ${show(task.gatedScore)} | ${verdicts} | ${show(task.passed)} |`;
    }),
    ...(row.disposition === 'executed-fail' ? comparison(row, expectations) : []),
  ];
}

/** Expected (the witness, from the fixture) beside reported (the recorded run), ✗ where they differ. */
function comparison(row: ReportRow, expectations: Expectations): string[] {
  const items = sideBySide(row, expectations);
  if (items.length === 0) return [];
  return [
    '',
    `Expected next to reported (\`openwop-eval-gate expect ${row.fixtureId ?? ''}\` lists the expected numbers):`,
    '',
    '| subject | field | expected | reported | |',
    '| --- | --- | --- | --- | --- |',
    ...items.map(
      (i) =>
        `| ${cell(i.subject)} | ${i.field} | ${cell(i.expected)} | ${cell(i.reported)} | ${i.agrees ? '' : '✗'} |`,
    ),
  ];
}

/** `1 ✓ · 2 ✗` from the task's eval.scored events, in trial order. */
function trialVerdicts(row: ReportRow, taskId: unknown): string {
  const scored = (row.observation?.events ?? [])
    .filter((e) => e.type === 'eval.scored' && isRecord(e.payload) && e.payload.taskId === taskId)
    .map((e, i) => {
      const p = e.payload as Readonly<Record<string, unknown>>;
      const trial = typeof p.trial === 'number' ? p.trial : i + 1;
      const verdict =
        typeof p.trajectoryMatched === 'boolean'
          ? mark(p.trajectoryMatched)
          : typeof p.passed === 'boolean'
            ? `${mark(p.passed)}†`
            : '?';
      return { trial, text: `${trial} ${verdict}` };
    })
    .sort((a, b) => a.trial - b.trial);
  return scored.length === 0 ? '—' : scored.map((s) => s.text).join(' · ');
}

function mark(ok: boolean): string {
  return ok ? '✓' : '✗';
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return cell(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return cell(JSON.stringify(value).slice(0, 60));
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
