// The one leading cause of a run's verdict, short enough to lead a line (the summary's first line,
// the action's `verdict` output): the first thing a reader should fix, counted, with the first
// instance named. The full list of causes follows it wherever there is room for a list.

import { REQUIREMENT_PREFIX } from '../../legs.ts';
import type { Fault } from './baseline.ts';
import type { CiVerdict } from './ci-verdict.ts';
import type { EvalGateReport } from '../report.ts';
import { effectiveSeverity } from './severity.ts';
import { isBypass } from './warnings.ts';

/** The most a leading line may run to: one glance in a CI log or a check run's title. */
export const LEAD_LIMIT = 160;

/** A requirement id without the prefix every id shares. */
export function shortId(id: string): string {
  return id.startsWith(REQUIREMENT_PREFIX) ? id.slice(REQUIREMENT_PREFIX.length) : id;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `text` cut to `limit` characters, the cut marked. */
export function clip(text: string, limit = LEAD_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The faults that fail the run, sorted by what they are; the lead and the causes both read this. */
export interface FailingFaults {
  /** Faults of rows that did not pass, but their SHOULD warnings: the rows failed. */
  readonly failing: readonly Fault[];
  /** Failures at SHOULD (after any scoped severity) of any executed row: --fail-on should. */
  readonly warned: readonly Fault[];
  /** Failures of passed rows counted at MUST only because the baseline raised them. */
  readonly raised: readonly Fault[];
}

export function failingFaults(report: EvalGateReport, gate: CiVerdict): FailingFaults {
  const overrides = report.baseline?.severity ?? [];
  const rowOf = (id: string) => report.requirements.find((r) => r.id === id);
  const atShould = (f: Fault): boolean =>
    f.rule !== undefined &&
    (rowOf(f.requirement)?.findings ?? []).some(
      (x) =>
        !x.ok && x.rule === f.rule && effectiveSeverity(x, f.requirement, overrides) === 'SHOULD',
    );
  const passed = (f: Fault): boolean => rowOf(f.requirement)?.disposition === 'executed-pass';
  return {
    failing: gate.unexcused.filter((f) => !passed(f) && !atShould(f)),
    warned: gate.unexcused.filter(atShould),
    raised: gate.unexcused.filter((f) => passed(f) && !atShould(f)),
  };
}

/**
 * The leading cause, in the order the causes are listed: failed requirements, flaky ones, an
 * authentication bypass, SHOULD warnings that fail the run, stale entries, then what blocked it.
 * Undefined when nothing fails or blocks the run.
 */
export function leadCause(report: EvalGateReport, gate: CiVerdict): string | undefined {
  const rows = report.requirements;
  const { failing, warned: should, raised } = failingFaults(report, gate);
  const failingRows = [...new Set(failing.map((f) => f.requirement))];
  const first = failing[0];
  if (first !== undefined) {
    const what = first.rule === undefined ? '' : `${first.rule} in `;
    return `${plural(failingRows.length, 'requirement')} failed, first ${what}${shortId(first.requirement)}`;
  }
  const flaky = gate.flaky[0];
  if (flaky !== undefined) {
    return `${plural(gate.flaky.length, 'requirement')} flaky, first ${shortId(flaky.requirement)} (${flaky.outcomes.join(', ')})`;
  }
  const bypass = gate.hostWarnings.filter(isBypass);
  if (bypass[0] !== undefined) {
    return `${plural(bypass.length, 'authentication bypass', 'authentication bypasses')}, first ${bypass[0].rule}`;
  }
  const firstRaised = raised[0];
  if (firstRaised !== undefined) {
    return `${plural(raised.length, 'failure')} raised to MUST, first ${firstRaised.rule ?? ''} in ${shortId(firstRaised.requirement)}`;
  }
  const warned = [
    ...should.map((f) => `${f.rule ?? ''} in ${shortId(f.requirement)}`),
    ...gate.hostWarnings.filter((f) => !isBypass(f)).map((f) => `${f.rule} (host check)`),
  ];
  if (warned[0] !== undefined) {
    return `${plural(warned.length, 'SHOULD warning')} fail the run, first ${warned[0]}`;
  }
  const stale = gate.stale[0];
  if (stale !== undefined) {
    const what = stale.rule === undefined ? '' : ` ${stale.rule}`;
    return `${plural(gate.stale.length, 'stale baseline entry', 'stale baseline entries')}, first ${shortId(stale.requirement)}${what}: remove it from ${report.baseline?.file ?? 'the baseline'}`;
  }
  const blocked = rows.filter((r) => r.disposition === 'blocked');
  if (blocked[0] !== undefined) {
    return `${blocked.length} of ${rows.length} blocked (${blocked[0].reason ?? 'no reason recorded'})`;
  }
  return undefined;
}
