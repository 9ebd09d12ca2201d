// Literal rows, findings and baseline entries for the verdict module's tests: each builds the
// least a verdict reads, so a test states only what its case is about.

import type { ReportRow } from '../../lib/report/report.ts';
import type { ExpectedFailure } from '../../lib/report/run-options.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import type { Finding, HostChecks } from '../../lib/types.ts';

export const A = 'openwop.requirement.0246.mean-gated';
export const B = 'openwop.requirement.0246.suite-gated';
export const C = 'openwop.requirement.0246.any-rule-unchanged';
/** The file every literal baseline is read from. */
export const BASELINE_FILE = 'team/baseline.yml';

/** A finding whose message says the rule and whether it held. */
export const finding = (
  rule: string,
  ok: boolean,
  severity: Finding['severity'] = 'MUST',
): Finding => ({
  rule,
  ok,
  severity,
  ref: 'RFC 0246 §B',
  message: `${rule} ${ok ? 'held' : 'broke'}`,
});

export const row = (
  id: string,
  disposition: ReportRow['disposition'],
  findings: readonly Finding[] = [],
  extra: Partial<ReportRow> = {},
): ReportRow => ({
  id,
  disposition,
  assertions: findings.length,
  durationMs: 1,
  findings,
  ...extra,
});

/** A passed row: task.passed held, and any further findings. */
export const pass = (id: string, ...findings: Finding[]): ReportRow =>
  row(id, 'executed-pass', [finding('task.passed', true), ...findings]);

export const checks = (...findings: Finding[]): HostChecks => ({
  probes: [],
  findings,
  unexercised: [],
  inapplicable: [],
});

export const entry = (
  requirement: string,
  more: Partial<ExpectedFailure> = {},
): ExpectedFailure => ({
  requirement,
  reason: 'known',
  ...more,
});

export const baseline = (
  entries: readonly ExpectedFailure[],
  more: Partial<NonNullable<RunOptions['baseline']>> = {},
): NonNullable<RunOptions['baseline']> => ({
  file: BASELINE_FILE,
  sha256: '0'.repeat(64),
  entries,
  ...more,
});
