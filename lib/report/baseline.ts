// What a baseline of expected failures comes to on a run's rows and host checks: the faults that
// fail the exit code, which of them the baseline excuses, and each entry's status. Dispositions
// never change: a baseline only decides whether a known failure fails the build. An entry whose
// requirement or rule now holds is stale and fails the run, so a baseline cannot outlive the
// failure it excuses; an entry past its `expires` day excuses nothing, so neither can a deadline.

import type { Finding } from '../types.ts';
import type { ExpectedFailure, FailOn } from './run-options.ts';
import { EVERY_REQUIREMENT, HOST_CHECKS } from './run-options.ts';

/**
 * A failure that fails the exit code: one rule of a requirement, or the requirement as a whole;
 * a failed host check is a fault of `host-checks`.
 */
export interface Fault {
  readonly requirement: string;
  /** Absent when the row failed without a failing rule (a strict-mode gate, say). */
  readonly rule?: string;
}

/**
 * `excusing`: it matches a failure in this run. `stale`: what it names was judged and nothing it
 * names fails any more. `unobserved`: what it names was not judged (a row that did not run, a
 * probe not made). `expired`: the run started after its `expires` day, so it excuses nothing.
 */
export type EntryStatus = 'excusing' | 'stale' | 'unobserved' | 'expired';

export interface ResolvedEntry extends ExpectedFailure {
  readonly status: EntryStatus;
}

type FindingFacts = Pick<Finding, 'rule' | 'ok' | 'severity'>;

export interface RowFacts {
  readonly id: string;
  readonly disposition: string;
  readonly findings: readonly FindingFacts[];
}

/** What an entry is judged against beside the rows. */
export interface BaselineContext {
  /** The day the run started, YYYY-MM-DD; absent: no entry has expired. */
  readonly day?: string;
  /** The host checks' findings; absent when the run made none. */
  readonly hostFindings?: readonly FindingFacts[];
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
  const counts = (f: FindingFacts): boolean =>
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

/**
 * Each failed host check once. A SHOULD warning counts only under `should`; a MUST one (an
 * authentication bypass) counts whatever the gate, as a failed MUST of a leg does.
 */
export function hostFaults(findings: readonly FindingFacts[] | undefined, failOn: FailOn): Fault[] {
  const counts = (f: FindingFacts): boolean =>
    !f.ok && (f.severity === 'MUST' || failOn === 'should');
  const failed = (findings ?? []).filter(counts).map((f) => f.rule);
  return [...new Set(failed)].map((rule) => ({ requirement: HOST_CHECKS, rule }));
}

/** Whether the run started after the entry's last day. */
export function isExpired(entry: ExpectedFailure, day: string | undefined): boolean {
  return entry.expires !== undefined && day !== undefined && day > entry.expires;
}

function names(entry: ExpectedFailure, requirement: string): boolean {
  if (entry.requirement === EVERY_REQUIREMENT) return requirement !== HOST_CHECKS;
  return entry.requirement === requirement;
}

function excuses(entry: ExpectedFailure, fault: Fault): boolean {
  return names(entry, fault.requirement) && (entry.rule === undefined || entry.rule === fault.rule);
}

/** The findings an entry is judged on: its rows', or the host checks'. */
function judgedFindings(
  entry: ExpectedFailure,
  rows: readonly RowFacts[],
  context: BaselineContext,
): readonly FindingFacts[] | undefined {
  if (entry.requirement === HOST_CHECKS) return context.hostFindings;
  const ran = rows.filter((r) => names(entry, r.id) && executed(r));
  return ran.length === 0 ? undefined : ran.flatMap((r) => r.findings);
}

function statusOf(
  entry: ExpectedFailure,
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: BaselineContext,
): EntryStatus {
  if (isExpired(entry, context.day)) return 'expired';
  const findings = judgedFindings(entry, rows, context);
  if (findings === undefined) return 'unobserved';
  if (entry.rule === undefined) {
    const failing =
      entry.requirement === HOST_CHECKS
        ? findings.some((f) => !f.ok)
        : rows.some((r) => names(entry, r.id) && faultsOfRow(r, failOn).length > 0);
    return failing ? 'excusing' : 'stale';
  }
  const judged = findings.filter((f) => f.rule === entry.rule);
  if (judged.some((f) => !f.ok)) return 'excusing';
  // A rule entry on one requirement is stale once its row ran; on `*` or the host checks, once
  // some finding judged the rule (another row, or an unmade probe, shows nothing about it).
  return judged.length > 0 || !['*', HOST_CHECKS].includes(entry.requirement)
    ? 'stale'
    : 'unobserved';
}

export function resolveBaseline(
  entries: readonly ExpectedFailure[],
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: BaselineContext = {},
): Resolution {
  const faults = [...faultsOf(rows, failOn), ...hostFaults(context.hostFindings, failOn)];
  const live = entries.filter((e) => !isExpired(e, context.day));
  return {
    entries: entries.map((e) => ({ ...plain(e), status: statusOf(e, rows, failOn, context) })),
    excused: faults.filter((f) => live.some((e) => excuses(e, f))),
    unexcused: faults.filter((f) => !live.some((e) => excuses(e, f))),
  };
}

/** An entry's own members, whatever else the object carries (a recorded status, say). */
export function plain(entry: ExpectedFailure): ExpectedFailure {
  return {
    requirement: entry.requirement,
    ...(entry.rule === undefined ? {} : { rule: entry.rule }),
    reason: entry.reason,
    ...(entry.ticket === undefined ? {} : { ticket: entry.ticket }),
    ...(entry.owner === undefined ? {} : { owner: entry.owner }),
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
  };
}

/** `openwop.requirement.0246.mean-gated task.passed`, or the id alone for a whole requirement. */
export function faultName(fault: Fault): string {
  return fault.rule === undefined ? fault.requirement : `${fault.requirement} ${fault.rule}`;
}

/** ` (ticket T, owner O, expires D)`: who tracks an entry, or nothing when it says nobody. */
export function trackingNote(entry: ExpectedFailure): string {
  const parts = [
    ...(entry.ticket === undefined ? [] : [`ticket ${entry.ticket}`]),
    ...(entry.owner === undefined ? [] : [`owner ${entry.owner}`]),
    ...(entry.expires === undefined ? [] : [`expires ${entry.expires}`]),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}
