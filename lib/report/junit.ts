// JUnit XML from the report, for CI annotation. The three kinds of not-passing stay apart:
// `executed-fail` is a <failure> (the host is wrong), `blocked` is an <error> (the suite could
// not observe), and `inapplicable` / `skipped` are <skipped> with their reason.

import type { EvalGateReport, ReportRow } from './report.ts';
import type { Expectations } from './side-by-side.ts';
import { sideBySide, sideBySideLines } from './side-by-side.ts';

export const JUNIT_FILE = 'eval-gate-junit.xml';

/** `expectations` adds to each failure the witness's numbers beside the host's (lib/report/side-by-side.ts). */
export function renderJunit(
  report: EvalGateReport,
  expectations: Expectations = new Map(),
): string {
  const t = report.totals;
  const counts = {
    tests: report.requirements.length,
    failures: t['executed-fail'],
    errors: t.blocked,
    skipped: t.inapplicable + t.skipped,
  };
  // Legs run concurrently, so the suite's time is the wall clock, not the sum of the legs.
  const wall = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  const seconds = secondsOf(Number.isFinite(wall) && wall > 0 ? wall : 0);
  const attrs = `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds}"`;
  const name = escapeXml(`${report.suite.name} ${report.suite.version}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${attrs}>`,
    `  <testsuite name="RFC 0246 eval gate: ${escapeXml(report.target.baseUrl)}" ${attrs} timestamp="${escapeXml(report.startedAt)}">`,
    ...report.requirements.map((row) => testcase(row, expectations)),
    ...hostCheckOutput(report),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(row: ReportRow, expectations: Expectations): string {
  const open = `    <testcase classname="openwop.requirement.0246" name="${escapeXml(row.id)}" time="${secondsOf(row.durationMs)}"`;
  const reason = escapeXml(row.reason ?? '');
  switch (row.disposition) {
    case 'executed-pass':
      return `${open}/>`;
    case 'executed-fail': {
      const failed = row.findings
        .filter((f) => !f.ok && f.severity === 'MUST')
        .map(
          (f) =>
            `${f.rule} (${f.ref})${f.consequenceOf === undefined ? '' : `, following from ${f.consequenceOf}`}: ${f.message}`,
        );
      const numbers = sideBySideLines(sideBySide(row, expectations));
      const text = [
        ...(failed.length > 0 ? failed : [row.reason ?? '']),
        ...(numbers.length > 0 ? ['', 'expected next to reported:', ...numbers] : []),
      ];
      const body = escapeXml(text.join('\n'));
      return `${open}>\n      <failure type="executed-fail" message="${reason}">${body}</failure>\n    </testcase>`;
    }
    case 'blocked':
      return `${open}>\n      <error type="blocked" message="${reason}"/>\n    </testcase>`;
    case 'inapplicable':
    case 'skipped':
      return `${open}>\n      <skipped message="${escapeXml(`${row.disposition}: ${row.reason ?? ''}`)}"/>\n    </testcase>`;
  }
}

/**
 * The host checks as the suite's <system-out>: they are SHOULD findings that decide no
 * requirement, so they are no test case and change no count, yet a CI reader sees them.
 */
function hostCheckOutput(report: EvalGateReport): string[] {
  const checks = report.hostChecks;
  if (checks === undefined) return [];
  const lines = [
    ...checks.findings.filter((f) => !f.ok).map((f) => `SHOULD ${f.rule} (${f.ref}): ${f.message}`),
    ...checks.unexercised.map((u) => `unexercised ${u.rule}: ${u.reason}`),
  ];
  if (lines.length === 0) return [];
  return [`    <system-out>${escapeXml(['host checks:', ...lines].join('\n'))}</system-out>`];
}

function secondsOf(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Escapes markup and drops the characters XML 1.0 cannot hold at all. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
