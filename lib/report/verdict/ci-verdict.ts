// The exit status and closing line of a run with its CI options (contract §10): the baseline
// excuses listed failures, a stale entry fails the run, an expired one excuses nothing,
// `--fail-on should` makes SHOULD warnings fail it, `--fail-on none` keeps any of them from
// failing the exit code while the verdict still says FAIL, and a partial, pinned or baselined run
// says so on its last line (lib/report/verdict/run-verdict.ts). The baseline's resolution is read
// from the report's record, never made again here, so the run, `verify` of a recorded report and
// every channel decide the gate from the same facts.

import { faultsOf, runFaults } from './baseline.ts';
import type { Fault, FlakyRow, ResolvedEntry, Resolution } from './baseline.ts';
import { isFlaky, outcomesOf } from './repeat.ts';
import type { Finding } from '../../types.ts';
import type { EvalGateReport } from '../report.ts';
import { NOT_SELECTED } from '../run-options.ts';
import { HOST_CHECKS } from '../run-options.ts';
import { isPartial } from '../run-record.ts';
import { addedSince } from '../../requirement-sets.ts';
import { EXIT } from './verdict.ts';
import { effectiveSeverity } from './severity.ts';
import { overrideName } from './severity.ts';

export type CiFacts = Pick<
  EvalGateReport,
  'requirements' | 'failOn' | 'selection' | 'baseline' | 'hostChecks'
> &
  Partial<Pick<EvalGateReport, 'startedAt' | 'repeat'>>;

export interface CiVerdict {
  readonly exitCode: number;
  /** Whether the run fails on what the host did: the exit code, unless `--fail-on none` waived it. */
  readonly failing: boolean;
  /** Failures of requirements no baseline entry excuses; they fail the run. */
  readonly unexcused: readonly Fault[];
  readonly excused: readonly Fault[];
  readonly stale: readonly ResolvedEntry[];
  /** Entries past their `expires` day: they excuse nothing. */
  readonly expired: readonly ResolvedEntry[];
  /**
   * Failed host checks no entry excuses: SHOULD warnings, which fail the run only under
   * `--fail-on should`, and any authentication bypass (a MUST, lib/report/verdict/warnings.ts), which
   * always does.
   */
  readonly hostWarnings: readonly Finding[];
  /** Under --repeat: flaky rows no baseline entry allows (each fails the run), and those it allows. */
  readonly flaky: readonly FlakyRow[];
  readonly allowedFlaky: readonly FlakyRow[];
}

/**
 * The baseline's resolution as the report records it, which the run resolved once
 * (lib/report/run-record.ts) and `verify` rebuilds and compares member by member: the entries with
 * their statuses, the faults they excused, and on a repeated run whether each flaky row is allowed.
 * What it does not excuse is every other fault of the rows and host checks. Every report release
 * has recorded those members (entries and excused since the baseline came, `allowed` since
 * --repeat did), so no earlier shape needs filling in.
 */
export function recordedResolution(report: CiFacts): Resolution {
  const overrides = report.baseline?.severity;
  const faults = runFaults(report.requirements, report.failOn ?? 'must', {
    ...(report.hostChecks === undefined ? {} : { hostFindings: report.hostChecks.findings }),
    ...(overrides === undefined ? {} : { overrides }),
  });
  const excused = report.baseline?.excused ?? [];
  const allowed = new Set(
    (report.repeat?.rows ?? []).filter((r) => r.allowed === true).map((r) => r.requirement),
  );
  // Flakiness is a fact of the rows' repetitions; only whether a row is allowed is resolved.
  const flaky = report.requirements
    .filter(isFlaky)
    .map((row) => ({ requirement: row.id, outcomes: outcomesOf(row) }));
  return {
    entries: report.baseline?.entries ?? [],
    excused,
    unexcused: faults.filter((f) => !excused.some((e) => sameFault(e, f))),
    flaky: flaky.filter((f) => !allowed.has(f.requirement)),
    allowedFlaky: flaky.filter((f) => allowed.has(f.requirement)),
  };
}

export function ciVerdict(report: CiFacts): CiVerdict {
  const failOn = report.failOn ?? 'must';
  const resolution = recordedResolution(report);
  const stale = resolution.entries.filter((e) => e.status === 'stale');
  const expired = resolution.entries.filter((e) => e.status === 'expired');
  const blocked = report.requirements.some((r) => r.disposition === 'blocked');
  const hostRules = new Set(
    resolution.unexcused.filter((f) => f.requirement === HOST_CHECKS).map((f) => f.rule),
  );
  const hostWarnings = (report.hostChecks?.findings ?? []).filter(
    (f) => !f.ok && hostRules.has(f.rule),
  );
  const unexcused = resolution.unexcused.filter((f) => f.requirement !== HOST_CHECKS);
  const failing =
    unexcused.length > 0 ||
    stale.length > 0 ||
    hostWarnings.length > 0 ||
    resolution.flaky.length > 0;
  // A blocked run exits 3 even under --fail-on none: a lost response is no verdict to waive.
  const exitCode = failing && failOn !== 'none' ? EXIT.failed : blocked ? EXIT.blocked : EXIT.ok;
  return {
    exitCode,
    failing,
    unexcused,
    excused: resolution.excused,
    stale,
    expired,
    hostWarnings,
    flaky: resolution.flaky,
    allowedFlaky: resolution.allowedFlaky,
  };
}

/**
 * The counts the gate's lines and every channel state, taken once from the rows and the gate
 * (lib/report/verdict/run-verdict.ts carries them in the run's one verdict).
 */
export interface GateCounts {
  /** Failed rows whose every failure the baseline excused. */
  readonly excusedFailed: number;
  /** Failing rules the baseline excused, the host checks' included. */
  readonly excusedRules: number;
  /**
   * SHOULD warnings: each rule of an executed row that failed at SHOULD (after any scoped
   * severity), once per row, and each host check that failed at SHOULD.
   */
  readonly shouldWarnings: number;
  /** Of those, the ones a baseline entry excused. */
  readonly excusedWarnings: number;
  readonly stale: number;
  readonly expired: number;
  /** Passed rows that fail the run: a rule the baseline's severity section raised to MUST failed. */
  readonly raisedPassed: number;
  /** Failed rows that fail nothing: every failing rule was lowered to SHOULD (under must). */
  readonly loweredFailed: number;
}

/**
 * Whether a failed row fails nothing: it has faults, and the baseline excused every one. The one
 * rule every channel (the counts, the matrix's cells) tells an excused failure by.
 */
export function isExcusedRow(
  report: CiFacts,
  verdict: CiVerdict,
  row: CiFacts['requirements'][number],
): boolean {
  if (row.disposition !== 'executed-fail') return false;
  const faults = faultsOf([row], report.failOn ?? 'must', report.baseline?.severity ?? []);
  return faults.length > 0 && faults.every((f) => verdict.excused.some((e) => sameFault(e, f)));
}

export function gateCounts(report: CiFacts, verdict: CiVerdict): GateCounts {
  const overrides = report.baseline?.severity ?? [];
  const excused = (f: Fault): boolean => verdict.excused.some((e) => sameFault(e, f));
  const excusedFailed = report.requirements.filter((row) =>
    isExcusedRow(report, verdict, row),
  ).length;
  const warnings: Fault[] = [
    ...report.requirements.flatMap((row) => {
      if (row.disposition !== 'executed-pass' && row.disposition !== 'executed-fail') return [];
      const rules = row.findings
        .filter((f) => !f.ok && effectiveSeverity(f, row.id, overrides) === 'SHOULD')
        .map((f) => f.rule);
      return [...new Set(rules)].map((rule) => ({ requirement: row.id, rule }));
    }),
    ...[
      ...new Set(
        (report.hostChecks?.findings ?? [])
          .filter((f) => !f.ok && effectiveSeverity(f, HOST_CHECKS, overrides) === 'SHOULD')
          .map((f) => f.rule),
      ),
    ].map((rule) => ({ requirement: HOST_CHECKS, rule })),
  ];
  const failOn = report.failOn ?? 'must';
  const loweredFailed = report.requirements.filter(
    (row) =>
      overrides.length > 0 &&
      row.disposition === 'executed-fail' &&
      faultsOf([row], failOn, overrides).length === 0,
  ).length;
  const raisedPassed = report.requirements.filter(
    (row) =>
      row.disposition === 'executed-pass' &&
      verdict.unexcused.some(
        (f) =>
          f.requirement === row.id &&
          row.findings.some(
            (x) => !x.ok && x.rule === f.rule && effectiveSeverity(x, row.id, overrides) === 'MUST',
          ),
      ),
  ).length;
  return {
    raisedPassed,
    loweredFailed,
    excusedFailed,
    excusedRules: verdict.excused.length,
    shouldWarnings: warnings.length,
    excusedWarnings: warnings.filter(excused).length,
    stale: verdict.stale.length,
    expired: verdict.expired.length,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function sameFault(a: Fault, b: Fault): boolean {
  return a.requirement === b.requirement && a.rule === b.rule;
}

function isUnselected(row: CiFacts['requirements'][number]): boolean {
  return row.disposition === 'skipped' && row.reason === NOT_SELECTED;
}

/** What limits the run beyond its counts: the selection, the baseline, the severity gate. */
export function ciLimits(
  report: CiFacts,
  verdict: CiVerdict,
  counts: GateCounts = gateCounts(report, verdict),
): string[] {
  const parts: string[] = [];
  const selection = report.selection;
  if (selection !== undefined && isPartial(selection)) {
    // Counted from the rows, as the certification counts them: the generated row is not among the
    // legs --only and --skip choose from, yet it ran, and it is one of the rows.
    const ran = report.requirements.filter((r) => !isUnselected(r)).length;
    parts.push(`partial: ${ran} of ${report.requirements.length} selected`);
  }
  const pinned = selection?.requirementSet;
  if (pinned !== undefined) {
    const added = addedSince(pinned);
    parts.push(
      `requirement set ${pinned.version}${added.length === 0 ? '' : ` (the current set adds ${added.length})`}`,
    );
  }
  if (report.baseline !== undefined) {
    const expired = counts.expired === 0 ? '' : `, ${counts.expired} expired`;
    parts.push(
      `baseline: ${plural(counts.excusedFailed, 'failing requirement')} excused (${plural(counts.excusedRules, 'rule')}), ${counts.stale} stale${expired}`,
    );
  }
  const overrides = report.baseline?.severity ?? [];
  if (overrides.length > 0) {
    // What the overrides did to the counts before them, so they add up to what failed the run.
    const moved = [
      ...(counts.raisedPassed === 0
        ? []
        : [`${plural(counts.raisedPassed, 'passed requirement')} failing the run`]),
      ...(counts.loweredFailed === 0
        ? []
        : [`${plural(counts.loweredFailed, 'failed requirement')} failing nothing`]),
    ];
    const effect = moved.length === 0 ? '' : ` (${moved.join(', ')})`;
    parts.push(`severity: ${overrides.map(overrideName).join(', ')}${effect}`);
  }
  if (report.repeat !== undefined) {
    const all = verdict.flaky.length + verdict.allowedFlaky.length;
    const allowed =
      verdict.allowedFlaky.length === 0 ? '' : ` (${verdict.allowedFlaky.length} allowed)`;
    parts.push(`repeat ${report.repeat.count}: ${all} flaky${allowed}`);
  }
  if (report.failOn === 'should') {
    const excused = counts.excusedWarnings === 0 ? '' : ` (${counts.excusedWarnings} excused)`;
    parts.push(`fail-on should: ${plural(counts.shouldWarnings, 'SHOULD warning')}${excused}`);
  }
  if (report.failOn === 'none') {
    parts.push(
      verdict.failing ? 'fail-on none: the exit code ignores the failures' : 'fail-on none',
    );
  }
  return parts;
}
