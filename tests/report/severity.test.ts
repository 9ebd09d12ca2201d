// Scoped severity: the baseline's `severity` section raises or lowers one rule for named
// requirements (or `*`). The dispositions and findings keep the RFC's severities; the exit code
// follows the override; every override is recorded with its reason, shown on every channel and
// withholds the certification; verify rebuilds it and refuses an edited one.

import { describe, expect, it } from 'vitest';
import { withCertification } from '../../lib/report/verdict/certification.ts';
import { describeDifference, jsonDifferences } from '../../lib/report/verify/json-diff.ts';
import { signerOf } from '../../lib/report/verify/signature.ts';

import { readBaselineDocument } from '../../lib/report/verdict/baseline-file.ts';
import { badgeFor } from '../../lib/report/render/badge.ts';
import { renderJunit } from '../../lib/report/render/junit.ts';
import { renderMarkdown } from '../../lib/report/render/markdown.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import { closingLineOf, runVerdict, stepOutputs } from '../../lib/report/verdict/run-verdict.ts';
import type { SeverityOverride } from '../../lib/report/verdict/severity.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { EXIT } from '../../lib/report/verdict/verdict.ts';
import {
  broken,
  HOST_LEGS,
  hostKey,
  KEY_ID,
  passingRows,
  reportWith,
} from '../channels/support.ts';

/** What verify's replay says of the certification: the recorded one beside the one rebuilt. */
function checkRunRecord(report: EvalGateReport): string[] {
  const rebuilt = withCertification(report, signerOf(report)).certification;
  return jsonDifferences({ certification: report.certification }, { certification: rebuilt }).map(
    describeDifference,
  );
}

const KEY = hostKey();
const FIRST = HOST_LEGS[0]?.id ?? '';
const SECOND = HOST_LEGS[1]?.id ?? '';
const FILE = { file: 'eval-gate/baseline.yml', sha256: 'b'.repeat(64) };

/** Every row passing, the first host leg also warning on wire.version-header. */
const warning: ReportRow[] = passingRows().map((r) =>
  r.id === FIRST ? { ...r, findings: [...r.findings, broken('wire.version-header', 'SHOULD')] } : r,
);
/** Every row passing but the first host leg, which fails suite.passed (a MUST). */
const failing: ReportRow[] = passingRows().map((r) =>
  r.id === FIRST
    ? {
        ...r,
        disposition: 'executed-fail',
        reason: '1 MUST finding failed: suite.passed',
        findings: [broken('suite.passed')],
      }
    : r,
);

const RAISE: SeverityOverride = {
  rule: 'wire.version-header',
  requirements: [FIRST],
  severity: 'MUST',
  reason: 'our proxy must keep the header',
};
const LOWER: SeverityOverride = {
  rule: 'suite.passed',
  requirements: [FIRST],
  severity: 'SHOULD',
  reason: 'the cost figure is disputed upstream',
  ticket: 'ACME-9',
};

function signed(rows: readonly ReportRow[], options: RunOptions): EvalGateReport {
  return certifiedReport(reportWith(rows, KEY, runRecord(options, rows)), KEY.privateKey, KEY_ID);
}

const withOverride = (severity: readonly SeverityOverride[], failOn: 'must' | 'should' = 'must') =>
  ({ failOn, baseline: { ...FILE, entries: [], severity } }) as const;

describe('reading the severity section', () => {
  it('reads an override with full ids, and "*" for every requirement', () => {
    const read = readBaselineDocument({
      severity: [
        {
          rule: 'wire.version-header',
          requirements: ['mean-gated'],
          severity: 'MUST',
          reason: 'r',
        },
        { rule: 'wire.version-header', requirements: '*', severity: 'MUST', reason: 'r' },
      ],
    });
    expect(read.entries).toEqual([]);
    expect(read.severity.map((o) => o.requirements)).toEqual([
      ['openwop.requirement.0246.mean-gated'],
      ['*'],
    ]);
  });

  it.each([
    [
      {
        rule: 'wire.version-header',
        requirements: ['mean-gated'],
        severity: 'SHOULD',
        reason: 'r',
      },
      'severity[0]: wire.version-header is already SHOULD; an override must change it',
    ],
    [
      { rule: 'suite.passed', requirements: ['mean-gated'], severity: 'SHOULD' },
      'severity[0] (suite.passed) needs a reason: say why its severity differs',
    ],
    [
      { rule: 'suite.passed', requirements: ['mean-gated'], severity: 'MAY', reason: 'r' },
      'severity[0] (suite.passed) severity is MUST or SHOULD',
    ],
    [
      { rule: 'suite.passed', severity: 'SHOULD', reason: 'r' },
      'severity[0] (suite.passed) needs requirements: a list of requirement ids, or "*"',
    ],
    [
      { rule: 'no.such-rule', requirements: ['mean-gated'], severity: 'MUST', reason: 'r' },
      'severity[0] names rule no.such-rule, which openwop.requirement.0246.mean-gated never records',
    ],
  ])('refuses %j', (override, message) => {
    expect(() => readBaselineDocument({ severity: [override] })).toThrow(message);
  });
});

describe('a SHOULD rule raised to MUST for one requirement', () => {
  it('fails the run under --fail-on must, which it would not without the override', () => {
    expect(runVerdict(signed(warning, { failOn: 'must' })).exitCode).toBe(EXIT.ok);
    const report = signed(warning, withOverride([RAISE]));
    const verdict = runVerdict(report);
    expect(verdict.exitCode).toBe(EXIT.failed);
    expect(report.requirements.find((r) => r.id === FIRST)?.disposition).toBe('executed-pass');
    expect(verdict.causes.join('\n')).toContain(
      `1 SHOULD warning fail the run raised to MUST by the baseline's severity section (${FIRST} wire.version-header)`,
    );
  });

  it('does not reach a requirement it does not name', () => {
    const elsewhere = { ...RAISE, requirements: [SECOND] };
    expect(runVerdict(signed(warning, withOverride([elsewhere]))).exitCode).toBe(EXIT.ok);
  });

  it('is recorded with its reason and shown on the closing line, the summary, JUnit, the badge and the outputs', () => {
    const report = signed(warning, withOverride([RAISE]));
    const verdict = runVerdict(report);
    expect(report.baseline?.severity).toEqual([RAISE]);
    expect(closingLineOf(verdict)).toContain(
      `severity: wire.version-header raised to MUST on ${FIRST.split('.').at(-1) ?? ''}`,
    );
    const markdown = renderMarkdown(report, verdict);
    expect(markdown).toContain(
      `| wire.version-header | ${FIRST} | MUST | our proxy must keep the header |`,
    );
    expect(renderJunit(report, verdict)).toContain(
      'wire.version-header fails the run raised to MUST by the baseline&apos;s severity section',
    );
    // The badge has room for the first reason; the override is among the two more it counts.
    expect(verdict.certification.reasons.map((r) => r.code)).toContain('severity-override');
    expect(badgeFor(verdict).message).toMatch(/ not certified: SHOULD warnings \+2$/);
    expect(stepOutputs(verdict).find((l) => l.startsWith('verdict='))).toContain('FAIL');
  });
});

describe('a MUST rule lowered to SHOULD for one requirement', () => {
  it('no longer fails the exit code under must, keeps the row failed, and fails it under should', () => {
    expect(runVerdict(signed(failing, { failOn: 'must' })).exitCode).toBe(EXIT.failed);
    const report = signed(failing, withOverride([LOWER]));
    const verdict = runVerdict(report);
    expect(verdict.exitCode).toBe(EXIT.ok);
    expect(verdict.counts.failed).toBe(1);
    expect(renderJunit(report, verdict)).toContain(
      'expected failure: suite.passed counted as SHOULD: the cost figure is disputed upstream',
    );
    expect(runVerdict(signed(failing, withOverride([LOWER], 'should'))).exitCode).toBe(EXIT.failed);
  });

  it('withholds the certification of a run that is otherwise clean, naming the override', () => {
    const clean = signed(passingRows(), withOverride([LOWER]));
    expect(clean.certification?.certified).toBe(false);
    const codes = clean.certification?.reasons.map((r) => r.code);
    expect(codes).toContain('severity-override');
    expect(
      clean.certification?.reasons.find((r) => r.code === 'severity-override')?.text,
    ).toContain(`suite.passed lowered to SHOULD on ${FIRST.split('.').at(-1) ?? ''}`);
  });
});

describe('verify and the severity section', () => {
  it('rebuilds a recorded override', () => {
    expect(checkRunRecord(signed(failing, withOverride([LOWER])))).toEqual([]);
  });

  it('refuses a report whose override was edited to name another rule', () => {
    const report = signed(failing, withOverride([LOWER]));
    const baseline = report.baseline;
    if (baseline === undefined) throw new Error('no baseline recorded');
    const edited: EvalGateReport = {
      ...report,
      baseline: { ...baseline, severity: [{ ...LOWER, rule: 'task.passed' }] },
    };
    expect(checkRunRecord(edited).join('\n')).toMatch(
      /^certification\.reasons\[code=severity-override\]/m,
    );
  });

  it('refuses a report whose override was removed to hide it', () => {
    const report = signed(failing, withOverride([LOWER]));
    const baseline = report.baseline;
    if (baseline === undefined) throw new Error('no baseline recorded');
    const rest = {
      file: baseline.file,
      sha256: baseline.sha256,
      entries: baseline.entries,
      excused: baseline.excused,
    };
    expect(checkRunRecord({ ...report, baseline: rest }).join('\n')).toMatch(
      /^certification\.reasons\[code=severity-override\]: recorded .*, rebuilt nothing$/m,
    );
  });
});
