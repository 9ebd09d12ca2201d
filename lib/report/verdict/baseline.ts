// What a baseline of expected failures comes to on a run's rows and host checks: the faults that
// fail the exit code, which of them the baseline excuses, and each entry's status. Dispositions
// never change: a baseline only decides whether a known failure fails the build. An entry whose
// requirement or rule now holds is stale and fails the run, so a baseline cannot outlive the
// failure it excuses; an entry past its `expires` day excuses nothing, so neither can a deadline.

import type { Finding } from '../../types.ts';
import type { RepeatFacts } from './repeat.ts';
import { isFlaky, outcomesOf } from './repeat.ts';
import type { ExpectedFailure, FailOn } from '../run-options.ts';
import { EVERY_REQUIREMENT, HOST_CHECKS } from '../run-options.ts';
import type { SeverityOverride } from './severity.ts';
import { effectiveSeverity } from './severity.ts';

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

export interface RowFacts extends RepeatFacts {
  readonly findings: readonly FindingFacts[];
}

/** What an entry is judged against beside the rows. */
export interface BaselineContext {
  /** The day the run started, YYYY-MM-DD; absent: no entry has expired. */
  readonly day?: string;
  /** The host checks' findings; absent when the run made none. */
  readonly hostFindings?: readonly FindingFacts[];
  /** The baseline's scoped severities; absent: every finding counts at its own severity. */
  readonly overrides?: readonly SeverityOverride[];
}

/** A row whose repetitions came to more than one disposition. */
export interface FlakyRow {
  readonly requirement: string;
  readonly outcomes: readonly string[];
}

export interface Resolution {
  readonly entries: readonly ResolvedEntry[];
  readonly excused: readonly Fault[];
  readonly unexcused: readonly Fault[];
  /** Flaky rows no live entry's `outcomes` allows: each fails the run. */
  readonly flaky: readonly FlakyRow[];
  /** Flaky rows an entry allows: they fail nothing, and still withhold the certification. */
  readonly allowedFlaky: readonly FlakyRow[];
}

function executed(row: RowFacts): boolean {
  return row.disposition === 'executed-pass' || row.disposition === 'executed-fail';
}

/**
 * The faults of one row, each failing rule once, in the order the rules were judged. A failure
 * counts at its severity after the scoped overrides; a row that failed only on MUST findings an
 * override lowered fails the exit code only as SHOULD warnings do.
 */
export function faultsOfRow(
  row: RowFacts,
  failOn: FailOn,
  overrides: readonly SeverityOverride[] = [],
): Fault[] {
  if (!executed(row)) return [];
  const severity = (f: FindingFacts) => effectiveSeverity(f, row.id, overrides);
  const counts = (f: FindingFacts): boolean =>
    !f.ok && (severity(f) === 'MUST' || failOn === 'should');
  const rules = [...new Set(row.findings.filter(counts).map((f) => f.rule))];
  const out: Fault[] = rules.map((rule) => ({ requirement: row.id, rule }));
  const mustFailed = row.findings.some((f) => !f.ok && f.severity === 'MUST');
  if (row.disposition === 'executed-fail' && !mustFailed) out.unshift({ requirement: row.id });
  return out;
}

export function faultsOf(
  rows: readonly RowFacts[],
  failOn: FailOn,
  overrides: readonly SeverityOverride[] = [],
): Fault[] {
  return rows.flatMap((row) => faultsOfRow(row, failOn, overrides));
}

/**
 * Each failed host check once. A SHOULD warning counts only under `should`; a MUST one (an
 * authentication bypass) counts whatever the gate, as a failed MUST of a leg does.
 */
export function hostFaults(
  findings: readonly FindingFacts[] | undefined,
  failOn: FailOn,
  overrides: readonly SeverityOverride[] = [],
): Fault[] {
  const counts = (f: FindingFacts): boolean =>
    !f.ok && (effectiveSeverity(f, HOST_CHECKS, overrides) === 'MUST' || failOn === 'should');
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

/** Whether an `outcomes` entry allows the row: every disposition it came to is one it lists. */
export function allowsOutcomes(entry: ExpectedFailure, row: RepeatFacts): boolean {
  const allowed = entry.outcomes;
  return (
    allowed !== undefined &&
    names(entry, row.id) &&
    outcomesOf(row).every((d) => (allowed as readonly string[]).includes(d))
  );
}

function excuses(entry: ExpectedFailure, fault: Fault, rows: readonly RowFacts[]): boolean {
  if (entry.outcomes !== undefined) {
    // An intermittent row's failures are among the outcomes the entry allows.
    return rows.some((r) => r.id === fault.requirement && allowsOutcomes(entry, r));
  }
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
  if (entry.outcomes !== undefined) return outcomesStatus(entry, rows, failOn, context);
  const findings = judgedFindings(entry, rows, context);
  if (findings === undefined) return 'unobserved';
  if (entry.rule === undefined) {
    const failing =
      entry.requirement === HOST_CHECKS
        ? findings.some((f) => !f.ok)
        : rows.some(
            (r) => names(entry, r.id) && faultsOfRow(r, failOn, context.overrides).length > 0,
          );
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

/**
 * An `outcomes` entry names an intermittent row, which passing every time does not contradict:
 * it is excusing while the row it allows was flaky or failed, and unobserved otherwise. It is
 * never stale.
 */
function outcomesStatus(
  entry: ExpectedFailure,
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: BaselineContext,
): EntryStatus {
  const matched = rows.some(
    (r) =>
      allowsOutcomes(entry, r) &&
      (isFlaky(r) || faultsOfRow(r, failOn, context.overrides).length > 0),
  );
  return matched ? 'excusing' : 'unobserved';
}

/** Every fault of a run, the rows' then the host checks': what a baseline may excuse. */
export function runFaults(
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: Pick<BaselineContext, 'hostFindings' | 'overrides'> = {},
): Fault[] {
  const overrides = context.overrides ?? [];
  return [
    ...faultsOf(rows, failOn, overrides),
    ...hostFaults(context.hostFindings, failOn, overrides),
  ];
}

/**
 * The one resolution of a baseline. A run makes it once, when it records the report
 * (lib/report/run-record.ts); every reader takes it from that record (recordedResolution in
 * lib/report/verdict/ci-verdict.ts), and `verify` rebuilds the record to check it.
 */
export function resolveBaseline(
  entries: readonly ExpectedFailure[],
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: BaselineContext = {},
): Resolution {
  const faults = runFaults(rows, failOn, context);
  const live = entries.filter((e) => !isExpired(e, context.day));
  const excused = (f: Fault): boolean => live.some((e) => excuses(e, f, rows));
  const flaky = rows
    .filter(isFlaky)
    .map((r) => ({ row: r, allowed: live.some((e) => allowsOutcomes(e, r)) }));
  const flakyRow = ({ row }: { row: RowFacts }): FlakyRow => ({
    requirement: row.id,
    outcomes: outcomesOf(row),
  });
  return {
    entries: entries.map((e) => ({ ...plain(e), status: statusOf(e, rows, failOn, context) })),
    excused: faults.filter(excused),
    unexcused: faults.filter((f) => !excused(f)),
    flaky: flaky.filter((f) => !f.allowed).map(flakyRow),
    allowedFlaky: flaky.filter((f) => f.allowed).map(flakyRow),
  };
}

/** An entry's own members, whatever else the object carries (a recorded status, say). */
export function plain(entry: ExpectedFailure): ExpectedFailure {
  return {
    requirement: entry.requirement,
    ...(entry.rule === undefined ? {} : { rule: entry.rule }),
    ...(entry.outcomes === undefined ? {} : { outcomes: [...entry.outcomes] }),
    reason: entry.reason,
    ...(entry.ticket === undefined ? {} : { ticket: entry.ticket }),
    ...(entry.owner === undefined ? {} : { owner: entry.owner }),
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
  };
}

/** `openwop.requirement.0246.mean-gated task.passed`, or the id alone for a whole requirement. */
export function faultName(fault: Fault & Pick<ExpectedFailure, 'outcomes'>): string {
  if (fault.outcomes !== undefined) return `${fault.requirement} (${fault.outcomes.join(' or ')})`;
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
