// The exit status and closing line of a run with its CI options (contract §10): the baseline
// excuses listed failures, a stale entry fails the run, `--fail-on should` makes SHOULD warnings
// fail it, and a partial or baselined run says so on its last line (lib/report/run-verdict.ts).

import { faultName, faultsOf, resolveBaseline } from './baseline.ts';
import type { Fault, ResolvedEntry } from './baseline.ts';
import type { Finding } from '../types.ts';
import type { EvalGateReport } from './report.ts';
import { NOT_SELECTED } from './run-options.ts';
import { isPartial } from './run-record.ts';
import { EXIT } from './verdict.ts';

export type GateFacts = Pick<
  EvalGateReport,
  'requirements' | 'failOn' | 'selection' | 'baseline' | 'hostChecks'
>;

export interface GateVerdict {
  readonly exitCode: number;
  /** Failures no baseline entry excuses; they fail the run. */
  readonly unexcused: readonly Fault[];
  readonly excused: readonly Fault[];
  readonly stale: readonly ResolvedEntry[];
  /** Failed host checks, which fail the run only under `--fail-on should`. */
  readonly hostWarnings: readonly Finding[];
}

/**
 * The host checks decide no requirement, so no baseline entry can name them; under
 * `--fail-on should` each failed one fails the run like any other SHOULD warning.
 */
function hostWarningsOf(report: GateFacts): readonly Finding[] {
  if ((report.failOn ?? 'must') !== 'should') return [];
  return (report.hostChecks?.findings ?? []).filter((f) => !f.ok);
}

export function gateVerdict(report: GateFacts): GateVerdict {
  const failOn = report.failOn ?? 'must';
  const resolution = resolveBaseline(report.baseline?.entries ?? [], report.requirements, failOn);
  const stale = resolution.entries.filter((e) => e.status === 'stale');
  const blocked = report.requirements.some((r) => r.disposition === 'blocked');
  const hostWarnings = hostWarningsOf(report);
  const exitCode =
    resolution.unexcused.length > 0 || stale.length > 0 || hostWarnings.length > 0
      ? EXIT.failed
      : blocked
        ? EXIT.blocked
        : EXIT.ok;
  return {
    exitCode,
    unexcused: resolution.unexcused,
    excused: resolution.excused,
    stale,
    hostWarnings,
  };
}

/** Rows whose every failure the baseline excused. */
function excusedRows(report: GateFacts, verdict: GateVerdict): number {
  const failOn = report.failOn ?? 'must';
  return report.requirements.filter((row) => {
    const faults = faultsOf([row], failOn);
    return faults.length > 0 && faults.every((f) => verdict.excused.some((e) => sameFault(e, f)));
  }).length;
}

function sameFault(a: Fault, b: Fault): boolean {
  return a.requirement === b.requirement && a.rule === b.rule;
}

function isUnselected(row: GateFacts['requirements'][number]): boolean {
  return row.disposition === 'skipped' && row.reason === NOT_SELECTED;
}

/** What limits the run beyond its counts: the selection, the baseline, the severity gate. */
export function gateLimits(report: GateFacts): string[] {
  const verdict = gateVerdict(report);
  const parts: string[] = [];
  const selection = report.selection;
  if (selection !== undefined && isPartial(selection)) {
    // Counted from the rows, as the certification counts them: the generated row is not among the
    // legs --only and --skip choose from, yet it ran, and it is one of the rows.
    const ran = report.requirements.filter((r) => !isUnselected(r)).length;
    parts.push(`partial: ${ran} of ${report.requirements.length} selected`);
  }
  if (report.baseline !== undefined) {
    const rows = excusedRows(report, verdict);
    parts.push(
      `baseline: ${rows} failing requirement${rows === 1 ? '' : 's'} excused (${verdict.excused.length} rule${verdict.excused.length === 1 ? '' : 's'}), ${verdict.stale.length} stale`,
    );
  }
  if (report.failOn === 'should') {
    const warned = faultsOf(report.requirements, 'must').length;
    const all = faultsOf(report.requirements, 'should').length + verdict.hostWarnings.length;
    parts.push(`fail-on should: ${all - warned} SHOULD warning${all - warned === 1 ? '' : 's'}`);
  }
  return parts;
}

/** One line per reason the run fails that the dispositions alone do not show. */
export function gateProblems(report: GateFacts): string[] {
  const verdict = gateVerdict(report);
  const lines: string[] = [];
  if (report.baseline !== undefined || report.failOn === 'should') {
    for (const f of verdict.unexcused) lines.push(`not excused: ${faultName(f)}`);
  }
  for (const f of verdict.hostWarnings) lines.push(`host check warning: ${f.rule}: ${f.message}`);
  for (const e of verdict.stale) {
    lines.push(
      `stale baseline entry: ${faultName(e)} now holds; remove it from ${report.baseline?.file ?? 'the baseline'}`,
    );
  }
  return lines;
}
