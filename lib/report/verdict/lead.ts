// The one leading cause of a run's verdict, short enough to lead a line (the summary's first line,
// the action's `verdict` output): the first thing a reader should fix, counted, with the first
// instance named. The full list of causes follows it wherever there is room for a list.

import { REQUIREMENT_PREFIX } from '../../legs.ts';
import { faultName, type Fault } from './baseline.ts';
import type { CiVerdict } from './ci-verdict.ts';
import type { EvalGateReport } from '../report.ts';
import { effectiveSeverity } from './severity.ts';
import { bypassSummary, isBypass } from './warnings.ts';

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

function failingFaults(report: EvalGateReport, gate: CiVerdict): FailingFaults {
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

/** One kind of cause: its short form for the leading line, and its lines in the list of causes. */
interface CauseKind {
  readonly lead: string | undefined;
  readonly causes: readonly string[];
}

/**
 * Every cause of a run's verdict, kind by kind in the one order the lead and the list share:
 * failed requirements, flaky ones, an authentication bypass, failures raised to MUST, SHOULD
 * warnings that fail the run, stale entries, expired ones, a waived exit code, then what blocked
 * it. Some kinds only ever explain (an expired entry fails nothing by itself), so they have no lead.
 */
function causeKinds(report: EvalGateReport, gate: CiVerdict): CauseKind[] {
  const rows = report.requirements;
  const { failing, warned: should, raised } = failingFaults(report, gate);
  const failingRows = [...new Set(failing.map((f) => f.requirement))];
  const first = failing[0];
  const flaky = gate.flaky[0];
  const bypass = gate.hostWarnings.filter(isBypass);
  const hostWarnings = gate.hostWarnings.filter((f) => !isBypass(f));
  const warned = [
    ...should.map((f) => `${f.rule ?? ''} in ${shortId(f.requirement)}`),
    ...hostWarnings.map((f) => `${f.rule} (host check)`),
  ];
  const stale = gate.stale[0];
  const file = report.baseline?.file ?? 'the baseline';
  const blocked = rows.filter((r) => r.disposition === 'blocked');
  return [
    {
      lead:
        first === undefined
          ? undefined
          : `${plural(failingRows.length, 'requirement')} failed, first ${first.rule === undefined ? '' : `${first.rule} in `}${shortId(first.requirement)}`,
      causes:
        failingRows.length === 0
          ? []
          : [
              `${plural(failingRows.length, 'requirement')} failed (${failingRows.join(', ')}); the summary shows each failing rule`,
            ],
    },
    {
      lead:
        flaky === undefined
          ? undefined
          : `${plural(gate.flaky.length, 'requirement')} flaky, first ${shortId(flaky.requirement)} (${flaky.outcomes.join(', ')})`,
      causes:
        flaky === undefined
          ? []
          : [
              `${plural(gate.flaky.length, 'requirement')} flaky across ${report.repeat?.count ?? 'the'} repetitions (${gate.flaky.map((f) => `${f.requirement}: ${f.outcomes.join(', ')}`).join('; ')}); fix the host, or list the outcomes in the baseline`,
            ],
    },
    {
      lead:
        bypass[0] === undefined
          ? undefined
          : `${plural(bypass.length, 'authentication bypass', 'authentication bypasses')}, first ${bypass[0].rule}`,
      causes:
        bypass[0] === undefined
          ? []
          : [
              `${bypassSummary(gate.hostWarnings) ?? ''} ${bypass.length === 1 ? 'fails' : 'fail'} the run: a token that is not the key was served`,
            ],
    },
    {
      lead:
        raised[0] === undefined
          ? undefined
          : `${plural(raised.length, 'failure')} raised to MUST, first ${raised[0].rule ?? ''} in ${shortId(raised[0].requirement)}`,
      causes:
        raised.length === 0
          ? []
          : [
              `${plural(raised.length, 'SHOULD warning')} fail the run raised to MUST by the baseline's severity section (${raised.map(faultName).join(', ')})`,
            ],
    },
    {
      lead:
        warned[0] === undefined
          ? undefined
          : `${plural(warned.length, 'SHOULD warning')} fail the run, first ${warned[0]}`,
      causes: [
        ...(should.length === 0
          ? []
          : [
              `${plural(should.length, 'SHOULD warning')} fail the run under --fail-on should (${should.map(faultName).join(', ')})`,
            ]),
        ...(hostWarnings.length === 0
          ? []
          : [
              `${plural(hostWarnings.length, 'host-check warning')} fail the run under --fail-on should (${hostWarnings.map((f) => f.rule).join(', ')})`,
            ]),
      ],
    },
    {
      lead:
        stale === undefined
          ? undefined
          : `${plural(gate.stale.length, 'stale baseline entry', 'stale baseline entries')}, first ${shortId(stale.requirement)}${stale.rule === undefined ? '' : ` ${stale.rule}`}: remove it from ${file}`,
      causes:
        stale === undefined
          ? []
          : [
              `${plural(gate.stale.length, 'stale baseline entry', 'stale baseline entries')}: ${gate.stale.map(faultName).join(', ')} now hold; remove ${gate.stale.length === 1 ? 'it' : 'them'} from ${file}`,
            ],
    },
    {
      lead: undefined,
      causes:
        gate.expired.length === 0
          ? []
          : [
              `${plural(gate.expired.length, 'baseline entry', 'baseline entries')} expired and excuse nothing (${gate.expired.map((e) => `${faultName(e)}, ${e.expires ?? ''}`).join('; ')}); fix or renew ${gate.expired.length === 1 ? 'it' : 'them'} in ${file}`,
            ],
    },
    {
      lead: undefined,
      causes:
        report.failOn === 'none' && gate.failing
          ? [
              '--fail-on none: the exit code is 0 whatever failed, so this FAIL does not fail the build',
            ]
          : [],
    },
    {
      lead:
        blocked[0] === undefined
          ? undefined
          : `${blocked.length} of ${rows.length} blocked (${blocked[0].reason ?? 'no reason recorded'})`,
      causes:
        blocked[0] === undefined
          ? []
          : [
              `${blocked.length} of ${rows.length} blocked (${blocked[0].reason ?? 'no reason recorded'}); the suite could not observe, so check the host is reachable and run again`,
            ],
    },
  ];
}

/** A run's causes: the first kind's lead, and the list, in one order. */
export interface Causes {
  /** Undefined when nothing fails or blocks the run. */
  readonly lead: string | undefined;
  readonly causes: readonly string[];
}

export function causesOf(report: EvalGateReport, gate: CiVerdict): Causes {
  const kinds = causeKinds(report, gate);
  const blocking = kinds.at(-1);
  // What blocked the run is listed only when nothing else explains its verdict.
  const explained = kinds.slice(0, -1).flatMap((k) => k.causes);
  return {
    lead: kinds.find((k) => k.lead !== undefined)?.lead,
    causes: explained.length > 0 ? explained : [...(blocking?.causes ?? [])],
  };
}
