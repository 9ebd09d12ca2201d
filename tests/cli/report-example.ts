// A small report that is valid as written, for tests that need one without running the suite
// (tests/schemas.test.ts checks every registered schema against a known-good instance).

import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { totalsOf } from '../../lib/report/report.ts';
import { renderJunit } from '../../lib/report/render/junit.ts';
import { renderMarkdown } from '../../lib/report/render/markdown.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';

export function validReport(): Record<string, unknown> {
  return {
    reportVersion: 1,
    suite: { name: 'openwop-eval-gate-conformance', version: '0.1.0' },
    target: { baseUrl: 'http://127.0.0.1:8080', embedded: false },
    strict: false,
    optedOut: [],
    startedAt: '2026-10-16T09:00:00Z',
    finishedAt: '2026-10-16T09:00:01Z',
    discovery: { ok: false, reason: 'GET /.well-known/openwop: connection refused' },
    requirements: [
      {
        id: 'openwop.requirement.0246.gated-fields-shape',
        disposition: 'executed-pass',
        assertions: 1,
        durationMs: 3,
        findings: [
          {
            rule: 'shape.base-summary.valid',
            ok: true,
            severity: 'MUST',
            ref: 'RFC 0246 §D',
            message: 'a summary carrying gatedScore and gatedAggregateScore validates',
          },
        ],
      },
      {
        id: 'openwop.requirement.0246.mean-gated',
        disposition: 'blocked',
        assertions: 0,
        durationMs: 1,
        reason: 'discovery unreadable: GET /.well-known/openwop: connection refused',
        findings: [],
      },
    ],
    hostChecks: {
      probes: [
        {
          probe: 'no-credentials',
          outcome: 'not-made',
          reason: 'discovery unreadable, so whether the host speaks v2 is unknown',
        },
      ],
      findings: [],
      unexercised: [
        { rule: 'wire.discovery', reason: 'discovery was not read: connection refused' },
        { rule: 'wire.unauthenticated-refused', reason: 'not sent: discovery unreadable' },
      ],
      inapplicable: [],
    },
    totals: { 'executed-pass': 1, 'executed-fail': 0, inapplicable: 0, skipped: 0, blocked: 1 },
    digests: {
      algorithm: 'sha256',
      discovery: null,
      fixtures: {},
      schemas: {},
      rows: '0'.repeat(64),
      hostChecks: '0'.repeat(64),
    },
  };
}

/**
 * A report around literal rows, for the renderers' tests: no host read, no digest checked.
 * `overrides` replaces any top-level member.
 */
export function reportOf(
  rows: readonly ReportRow[],
  overrides: Partial<EvalGateReport> = {},
): EvalGateReport {
  return {
    reportVersion: 1,
    suite: { name: 'openwop-eval-gate-conformance', version: '0.1.0' },
    target: {
      baseUrl: 'http://127.0.0.1:9',
      embedded: false,
      implementation: { name: 'acme-host', version: '1.2.0' },
    },
    strict: true,
    optedOut: [],
    startedAt: '2026-10-16T09:00:00.000Z',
    finishedAt: '2026-10-16T09:00:01.000Z',
    discovery: { ok: false, reason: 'x' },
    requirements: rows,
    totals: totalsOf(rows),
    digests: {
      algorithm: 'sha256',
      discovery: null,
      fixtures: {},
      schemas: {},
      rows: '0'.repeat(64),
    },
    ...overrides,
  };
}

/** The Markdown summary of a literal report, rendered from its own verdict as a run would. */
export function markdownOf(report: EvalGateReport): string {
  return renderMarkdown(report, runVerdict(report));
}

/** The JUnit file of a literal report, rendered from its own verdict as a run would. */
export function junitOf(report: EvalGateReport): string {
  return renderJunit(report, runVerdict(report));
}
