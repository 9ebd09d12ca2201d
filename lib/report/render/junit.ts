// JUnit XML rendered from the run's verdict, for CI annotation. The kinds of not-passing stay
// apart: an unexcused `executed-fail` is a <failure> (the host is wrong), `blocked` an <error>
// (the suite could not observe), `inapplicable` / `skipped` and a failure the baseline excuses
// are <skipped> with their reason. What fails the run beyond the rows (a stale baseline entry, a
// SHOULD warning under --fail-on should) is a failing test case of its own. A flaky row under
// --repeat carries Maven Surefire's <flakyFailure> / <flakyError> on its own test case.

import { REQUIREMENT_PREFIX } from '../../legs.ts';
import type { Finding } from '../../types.ts';
import type { Fault, ResolvedEntry } from '../verdict/baseline.ts';
import { faultName } from '../verdict/baseline.ts';
import type { EvalGateReport, ReportRow } from '../report.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { headline } from '../verdict/run-verdict.ts';
import type { Expectations } from '../side-by-side.ts';
import { implementationLabel } from '../verdict/certification.ts';
import { sideBySide, sideBySideLines } from '../side-by-side.ts';
import { runWideGaps } from '../verdict/unexercised.ts';
import { isBypass } from '../verdict/warnings.ts';

export const JUNIT_FILE = 'eval-gate-junit.xml';

/**
 * `expectations` adds to each failure the witness's numbers beside the host's
 * (lib/report/side-by-side.ts). Every count is taken from the test cases as rendered, so a CI
 * test view shows the colour the exit code has.
 */
export function renderJunit(
  report: EvalGateReport,
  verdict: RunVerdict,
  expectations: Expectations = new Map(),
): string {
  const cases = [
    ...report.requirements.map((row) =>
      withFlakiness(testcase(row, report, verdict, expectations), row, report, verdict),
    ),
    ...verdict.gate.stale.map((entry) => staleCase(entry, report)),
    ...verdict.gate.hostWarnings.map(hostWarningCase),
  ];
  const counts = {
    tests: cases.length,
    failures: cases.filter((c) => c.kind === 'failure').length,
    errors: cases.filter((c) => c.kind === 'error').length,
    skipped: cases.filter((c) => c.kind === 'skipped').length,
  };
  // Legs run concurrently, so the suite's time is the wall clock, not the sum of the legs.
  const wall = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  const seconds = secondsOf(Number.isFinite(wall) && wall > 0 ? wall : 0);
  const attrs = `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds}"`;
  const suiteAttrs = `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" time="${seconds}"`;
  const name = escapeXml(`${report.suite.name} ${report.suite.version}: ${headline(verdict)}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${suiteAttrs}>`,
    `  <testsuite name="RFC 0246 eval gate: ${escapeXml(report.target.baseUrl)}" ${attrs} timestamp="${escapeXml(report.startedAt)}">`,
    ...properties(report, verdict),
    ...cases.map((c) => c.xml),
    ...hostCheckOutput(report, verdict),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** What the run certifies and who judged it, as properties a CI test view shows beside the cases. */
function properties(report: EvalGateReport, verdict: RunVerdict): string[] {
  const { implementation: advertised, declared } = report.target;
  const named: [string, string | undefined][] = [
    ['certified', String(verdict.certification.certified)],
    ['implementation.name', verdict.implementation?.name],
    ['implementation.version', verdict.implementation?.version],
    [
      'implementation.advertised',
      advertised === undefined ? undefined : implementationLabel(advertised),
    ],
    ['implementation.declared', declared === undefined ? undefined : implementationLabel(declared)],
    ['suite', `${report.suite.name} ${report.suite.version}`],
    ['suite.judgingDigest', report.suite.judgingDigest],
  ];
  return [
    '    <properties>',
    ...named.flatMap(([name, value]) =>
      value === undefined ? [] : [`      <property name="${name}" value="${escapeXml(value)}"/>`],
    ),
    '    </properties>',
  ];
}

interface Case {
  readonly kind: 'pass' | 'failure' | 'error' | 'skipped';
  readonly xml: string;
}

/** Every test case's class: the requirement prefix without its closing dot. */
const CLASSNAME = REQUIREMENT_PREFIX.slice(0, -1);

function open(classname: string, name: string, ms: number): string {
  return `    <testcase classname="${escapeXml(classname)}" name="${escapeXml(name)}" time="${secondsOf(ms)}"`;
}

function withChild(head: string, child: string): string {
  return `${head}>\n      ${child}\n    </testcase>`;
}

function testcase(
  row: ReportRow,
  report: EvalGateReport,
  verdict: RunVerdict,
  expectations: Expectations,
): Case {
  const head = open(CLASSNAME, row.id, row.durationMs);
  const unexcused = verdict.gate.unexcused.filter((f) => f.requirement === row.id);
  switch (row.disposition) {
    case 'executed-pass':
      return passedCase(head, unexcused, report);
    case 'executed-fail':
      return unexcused.length === 0
        ? {
            kind: 'skipped',
            xml: withChild(
              head,
              `<skipped message="${escapeXml(`expected failure: ${excuseOf(row, report)}`)}"/>`,
            ),
          }
        : failedCase(head, row, expectations);
    case 'blocked':
      return {
        kind: 'error',
        xml: withChild(head, `<error type="blocked" message="${escapeXml(row.reason ?? '')}"/>`),
      };
    case 'inapplicable':
    case 'skipped':
      return {
        kind: 'skipped',
        xml: withChild(
          head,
          `<skipped message="${escapeXml(`${row.disposition}: ${row.reason ?? ''}`)}"/>`,
        ),
      };
  }
}

/** A passed row fails the run only on SHOULD findings: under --fail-on should, or raised to MUST. */
function passedCase(head: string, unexcused: readonly Fault[], report: EvalGateReport): Case {
  if (unexcused.length === 0) return { kind: 'pass', xml: `${head}/>` };
  const why =
    report.failOn === 'should'
      ? 'under --fail-on should'
      : "raised to MUST by the baseline's severity section";
  const text = escapeXml(unexcused.map((f) => `${faultName(f)} fails the run ${why}`).join('\n'));
  const message = escapeXml(
    `${unexcused.length} SHOULD warning${unexcused.length === 1 ? '' : 's'} ${why}`,
  );
  return {
    kind: 'failure',
    xml: withChild(head, `<failure type="should-warning" message="${message}">${text}</failure>`),
  };
}

/** A failed row no baseline entry excuses: its failed MUST findings and the numbers beside them. */
function failedCase(head: string, row: ReportRow, expectations: Expectations): Case {
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
  const reason = escapeXml(row.reason ?? '');
  return {
    kind: 'failure',
    xml: withChild(head, `<failure type="executed-fail" message="${reason}">${body}</failure>`),
  };
}

/** The baseline reasons that excuse every failure of a row. */
function excuseOf(row: ReportRow, report: EvalGateReport): string {
  const entries = (report.baseline?.entries ?? []).filter(
    (e) => e.requirement === row.id && e.status === 'excusing',
  );
  const lowered = (report.baseline?.severity ?? [])
    .filter((o) => o.severity === 'SHOULD' && row.findings.some((f) => !f.ok && f.rule === o.rule))
    .map((o) => `${o.rule} counted as SHOULD: ${o.reason}`);
  const reasons = [...entries.map((e) => e.reason), ...lowered];
  return [...new Set(reasons)].join('; ') || 'listed in the baseline';
}

function staleCase(entry: ResolvedEntry, report: EvalGateReport): Case {
  const file = report.baseline?.file ?? 'the baseline';
  const message = escapeXml(
    `stale baseline entry: ${faultName(entry)} now holds; remove it from ${file}`,
  );
  return {
    kind: 'failure',
    xml: withChild(
      open('openwop.baseline', `stale: ${faultName(entry)}`, 0),
      `<failure type="stale-baseline-entry" message="${message}">${escapeXml(entry.reason)}</failure>`,
    ),
  };
}

/**
 * A flaky row under --repeat, as Maven Surefire writes a test that passed on a rerun: the row's
 * own test case, with a `<flakyFailure>` (or `<flakyError>`, for a blocked attempt) for each
 * attempt that did not pass. A flaky row the baseline allows fails nothing, so its case passes;
 * one it does not allow fails the run, so its case keeps one `<failure type="flaky">` and CI shows
 * the colour the exit code has. No case is added: the counts stay one case per requirement.
 */
function withFlakiness(
  base: Case,
  row: ReportRow,
  report: EvalGateReport,
  verdict: RunVerdict,
): Case {
  const allowed = verdict.gate.allowedFlaky.find((f) => f.requirement === row.id);
  const flaky = allowed ?? verdict.gate.flaky.find((f) => f.requirement === row.id);
  if (flaky === undefined) return base;
  const attempts = [row, ...(row.repetitions ?? [])];
  const attemptLines = attempts.flatMap((attempt, i) => {
    if (attempt.disposition === 'executed-pass') return [];
    const tag = attempt.disposition === 'blocked' ? 'flakyError' : 'flakyFailure';
    const message = escapeXml(
      `repetition ${i + 1} of ${attempts.length}: ${attempt.disposition}${attempt.reason === undefined ? '' : `: ${attempt.reason}`}`,
    );
    return [`<${tag} type="${attempt.disposition}" message="${message}"/>`];
  });
  const head = open(CLASSNAME, row.id, row.durationMs);
  // A case that already fails or errs on its own faults keeps them; the attempts follow.
  const own = base.xml.endsWith('/>')
    ? []
    : [base.xml.slice(head.length + 2, -'\n    </testcase>'.length)];
  const failing = base.kind === 'failure' || base.kind === 'error';
  let kind: Case['kind'] = failing ? base.kind : 'pass';
  let first = failing ? own : [];
  if (!failing && allowed === undefined) {
    const seen = `${flaky.requirement} came to ${flaky.outcomes.join(', ')} across ${report.repeat?.count ?? attempts.length} repetitions`;
    const message = escapeXml(`flaky: ${flaky.outcomes.join(', ')}`);
    kind = 'failure';
    first = [`      <failure type="flaky" message="${message}">${escapeXml(seen)}</failure>`];
  }
  const children = [...first, ...attemptLines.map((line) => `      ${line}`)];
  return { kind, xml: `${head}>\n${children.join('\n')}\n    </testcase>` };
}

function hostWarningCase(finding: Finding): Case {
  const bypass = isBypass(finding);
  const message = escapeXml(
    bypass
      ? `${finding.rule} (${finding.ref}): an authentication bypass, which fails the run`
      : `${finding.rule} (${finding.ref}) fails the run under --fail-on should`,
  );
  return {
    kind: 'failure',
    xml: withChild(
      open('openwop.host-checks', finding.rule, 0),
      `<failure type="${bypass ? 'must-failure' : 'should-warning'}" message="${message}">${escapeXml(finding.message)}</failure>`,
    ),
  };
}

/**
 * The verdict and the host checks as the suite's <system-out>: the checks are SHOULD findings
 * that decide no requirement, so they are no test case unless they fail the run, yet a CI reader
 * sees them. A run-wide rule nothing judged is said here once, never on a test case.
 */
function hostCheckOutput(report: EvalGateReport, verdict: RunVerdict): string[] {
  const checks = report.hostChecks;
  const notJudged = [...(checks?.unexercised ?? []), ...runWideGaps(report)];
  const lines = [
    headline(verdict),
    ...(checks === undefined && notJudged.length === 0
      ? []
      : [
          '',
          'host checks:',
          ...(checks?.findings ?? [])
            .filter((f) => !f.ok)
            .map((f) => `${f.severity} ${f.rule} (${f.ref}): ${f.message}`),
          ...notJudged.map((u) => `unexercised ${u.rule}: ${u.reason}`),
          ...(checks?.inapplicable ?? []).map((u) => `inapplicable ${u.rule}: ${u.reason}`),
        ]),
  ];
  return [`    <system-out>${escapeXml(lines.join('\n'))}</system-out>`];
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
