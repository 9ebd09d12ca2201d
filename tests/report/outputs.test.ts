// The JUnit and Markdown renderings of a report: failed, errored and skipped kept apart, and the
// per-task table showing the scores and the gate side by side.

import { beforeEach, describe, expect, it } from 'vitest';
import { escapeXml } from '../../lib/report/render/junit.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { junitOf, markdownOf, reportOf as reportOfRows } from '../cli/report-example.ts';
import { warningsOf, warningSummary } from '../../lib/report/verdict/warnings.ts';
import type { Finding } from '../../lib/types.ts';

const row = (id: string, disposition: ReportRow['disposition'], reason?: string): ReportRow => ({
  id: `openwop.requirement.0246.${id}`,
  disposition,
  assertions: disposition === 'executed-pass' || disposition === 'executed-fail' ? 1 : 0,
  durationMs: 10,
  ...(reason === undefined ? {} : { reason }),
  findings:
    disposition === 'executed-fail'
      ? [
          {
            rule: 'task.passed',
            ok: false,
            severity: 'MUST',
            ref: 'RFC 0246 §B',
            message: 'passed MUST be false & was <true>',
          },
        ]
      : [],
});

const reportOf = (rows: readonly ReportRow[]): EvalGateReport =>
  reportOfRows(rows, {
    optedOut: ['agents.evalSuite.trials'],
    finishedAt: '2026-10-16T09:00:02.500Z',
  });

describe('renderJunit', () => {
  // Rendered before each test rather than once: a mutation run credits what a test ran only to it.
  let junit = '';
  beforeEach(() => {
    junit = junitOf(
      reportOf([
        row('mean-gated', 'executed-pass'),
        row('suite-gated', 'executed-fail', '1 MUST finding failed'),
        row('no-trajectory-ungated', 'blocked', 'discovery unreadable: timed out'),
        row(
          'mean-partial-inclusive',
          'inapplicable',
          'host does not advertise agents.evalSuite.trials',
        ),
        row('any-rule-unchanged', 'skipped', 'opted out'),
      ]),
    );
  });

  it('counts a failure, an error and two skips apart, over the wall-clock time', () => {
    expect(junit).toContain('tests="5" failures="1" errors="1" skipped="2" time="2.500"');
  });

  it('writes executed-fail as <failure>, blocked as <error> and the rest as <skipped> with the reason', () => {
    expect(junit).toContain(
      '<failure type="executed-fail" message="1 MUST finding failed">task.passed (RFC 0246 §B): passed MUST be false &amp; was &lt;true&gt;</failure>',
    );
    expect(junit).toContain('<error type="blocked" message="discovery unreadable: timed out"/>');
    expect(junit).toContain(
      '<skipped message="inapplicable: host does not advertise agents.evalSuite.trials"/>',
    );
    expect(junit).toContain('<skipped message="skipped: opted out"/>');
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(escapeXml(`a"b'c<d>&\u0001e`)).toBe('a&quot;b&apos;c&lt;d&gt;&amp;e');
  });
});

describe('renderMarkdown', () => {
  it('tables each task with score, gatedScore, per-trial trajectory verdicts and passed', () => {
    const observed: ReportRow = {
      ...row('any-rule-unchanged', 'executed-pass'),
      observation: {
        runId: 'r',
        evalSuiteRef: 's@1.0.0',
        agentId: 'a',
        pages: [],
        runStatus: 'completed',
        events: [
          {
            sequence: 2,
            type: 'eval.scored',
            runId: 'r',
            payload: {
              taskId: 'wrong|then-right',
              trial: 2,
              score: 1,
              passed: true,
              trajectoryMatched: true,
            },
          },
          {
            sequence: 1,
            type: 'eval.scored',
            runId: 'r',
            payload: { taskId: 'wrong|then-right', trial: 1, score: 1, passed: false },
          },
        ],
        summary: {
          aggregateScore: 1,
          gatedAggregateScore: 0.5,
          passed: false,
          tasks: [{ taskId: 'wrong|then-right', score: 1, gatedScore: 0.5, passed: true }],
        },
      },
    };
    const markdown = markdownOf(reportOf([observed]));
    expect(markdown).toContain('Suite: aggregateScore 1, gatedAggregateScore 0.5, passed false');
    expect(markdown).toContain('| wrong\\|then-right | 1 | 0.5 | 1 ✗† · 2 ✓ | true |');
    expect(markdown).toContain('**PASS; 1 passed, 0 failed, 0 blocked, 0 skipped; not certified: ');
    expect(markdown).toContain('strict mode: on; opted out: agents.evalSuite.trials');
  });
});

describe('warnings: SHOULD findings that did not hold', () => {
  const should = (rule: string, ok: boolean, message: string): Finding => ({
    rule,
    ok,
    severity: 'SHOULD',
    ref: 'contract §1',
    message,
  });
  const warned: ReportRow = {
    ...row('suite-gated', 'executed-pass'),
    findings: [
      should('wire.version-header', true, 'POST /runs carries OpenWOP-Version 2.0'),
      should('wire.error-body', false, 'a 409 body SHOULD be the envelope; error | is an object'),
      should('wire.error-body', false, 'a 409 body SHOULD be the envelope; error | is an object'),
      should('wire.version-header', false, 'GET /runs/{runId} SHOULD carry OpenWOP-Version'),
      { ...should('task.passed', false, 'a MUST failure is not a warning'), severity: 'MUST' },
    ],
  };

  it('are the failed SHOULD findings, each rule and message once, in judged order', () => {
    expect(warningsOf(warned).map((w) => w.rule)).toEqual([
      'wire.error-body',
      'wire.version-header',
    ]);
    expect(warningSummary(warned)).toBe('2 SHOULD warnings: wire.error-body, wire.version-header');
    expect(warningSummary(row('mean-gated', 'executed-pass'))).toBeUndefined();
  });

  it('are listed under their leg in the Markdown summary, with rule, clause and message', () => {
    const markdown = markdownOf(reportOf([warned]));
    expect(markdown).toContain('Warnings (SHOULD) on openwop.requirement.0246.suite-gated:');
    expect(markdown).toContain(
      '- `wire.error-body` (contract §1): a 409 body SHOULD be the envelope; error \\| is an object',
    );
    expect(markdown).not.toContain('a MUST failure is not a warning');
    expect(markdownOf(reportOf([row('mean-gated', 'executed-pass')]))).not.toContain(
      'Warnings (SHOULD)',
    );
  });
});
