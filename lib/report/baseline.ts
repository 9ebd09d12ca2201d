// What a baseline of expected failures comes to on a run's rows: the faults that fail the exit
// code, which of them the baseline excuses, and each entry's status. Dispositions never change:
// a baseline only decides whether a known failure fails the build. An entry whose requirement or
// rule now holds is stale and fails the run, so a baseline cannot outlive the failure it excuses.

import type { Finding } from '../types.ts';
import type { ExpectedFailure, FailOn } from './run-options.ts';

/** A failure that fails the exit code: one rule of a requirement, or the requirement as a whole. */
export interface Fault {
  readonly requirement: string;
  /** Absent when the row failed without a failing rule (a strict-mode gate, say). */
  readonly rule?: string;
}

/**
 * `excusing`: it matches a failure in this run. `stale`: its row ran and nothing it names fails
 * any more. `unobserved`: its row did not run (inapplicable, skipped, blocked), so neither.
 */
export type EntryStatus = 'excusing' | 'stale' | 'unobserved';

export interface ResolvedEntry extends ExpectedFailure {
  readonly status: EntryStatus;
}

export interface RowFacts {
  readonly id: string;
  readonly disposition: string;
  readonly findings: readonly Pick<Finding, 'rule' | 'ok' | 'severity'>[];
}

export interface Resolution {
  readonly entries: readonly ResolvedEntry[];
  readonly excused: readonly Fault[];
  readonly unexcused: readonly Fault[];
}

function executed(row: RowFacts): boolean {
  return row.disposition === 'executed-pass' || row.disposition === 'executed-fail';
}

/** The faults of one row, each failing rule once, in the order the rules were judged. */
export function faultsOfRow(row: RowFacts, failOn: FailOn): Fault[] {
  if (!executed(row)) return [];
  const counts = (f: RowFacts['findings'][number]): boolean =>
    !f.ok && (f.severity === 'MUST' || failOn === 'should');
  const rules = [...new Set(row.findings.filter(counts).map((f) => f.rule))];
  const out: Fault[] = rules.map((rule) => ({ requirement: row.id, rule }));
  const mustFailed = row.findings.some((f) => !f.ok && f.severity === 'MUST');
  if (row.disposition === 'executed-fail' && !mustFailed) out.unshift({ requirement: row.id });
  return out;
}

export function faultsOf(rows: readonly RowFacts[], failOn: FailOn): Fault[] {
  return rows.flatMap((row) => faultsOfRow(row, failOn));
}

function excuses(entry: ExpectedFailure, fault: Fault): boolean {
  return (
    entry.requirement === fault.requirement &&
    (entry.rule === undefined || entry.rule === fault.rule)
  );
}

function statusOf(entry: ExpectedFailure, rows: readonly RowFacts[], failOn: FailOn): EntryStatus {
  const row = rows.find((r) => r.id === entry.requirement);
  if (row === undefined || !executed(row)) return 'unobserved';
  const matches =
    entry.rule === undefined
      ? faultsOfRow(row, failOn).length > 0
      : row.findings.some((f) => !f.ok && f.rule === entry.rule);
  return matches ? 'excusing' : 'stale';
}

export function resolveBaseline(
  entries: readonly ExpectedFailure[],
  rows: readonly RowFacts[],
  failOn: FailOn,
): Resolution {
  const faults = faultsOf(rows, failOn);
  return {
    entries: entries.map((e) => ({ ...plain(e), status: statusOf(e, rows, failOn) })),
    excused: faults.filter((f) => entries.some((e) => excuses(e, f))),
    unexcused: faults.filter((f) => !entries.some((e) => excuses(e, f))),
  };
}

/** An entry's own members, whatever else the object carries (a recorded status, say). */
export function plain(entry: ExpectedFailure): ExpectedFailure {
  return {
    requirement: entry.requirement,
    ...(entry.rule === undefined ? {} : { rule: entry.rule }),
    reason: entry.reason,
  };
}

/** `openwop.requirement.0246.mean-gated task.passed`, or the id alone for a whole requirement. */
export function faultName(fault: Fault): string {
  return fault.rule === undefined ? fault.requirement : `${fault.requirement} ${fault.rule}`;
}
