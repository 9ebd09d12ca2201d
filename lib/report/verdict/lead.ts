// The one leading cause of a run's verdict, short enough to lead a line (the summary's first line,
// the action's `verdict` output): the first thing a reader should fix, counted, with the first
// instance named. The full list of causes follows it wherever there is room for a list.

import { REQUIREMENT_PREFIX } from '../../legs.ts';
import { faultName, trackingNote, type Fault } from './baseline.ts';
import type { Finding } from '../../types.ts';
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

/**
 * One kind of cause: its short form for the leading line, its lines in the list of causes, and its
 * problem lines (one a fault or entry, printed above the closing line).
 */
interface CauseKind {
  readonly lead: string | undefined;
  readonly causes: readonly string[];
  readonly problems: readonly string[];
}

/** What every kind reads: the report, its gate and the failing faults sorted by what they are. */
interface KindFacts {
  readonly report: EvalGateReport;
  readonly gate: CiVerdict;
  readonly faults: FailingFaults;
  /** `not excused: …` lines are printed only where something could have excused a fault. */
  readonly namesUnexcused: boolean;
  readonly file: string;
}

const notExcused = (facts: KindFacts, faults: readonly Fault[]): string[] =>
  facts.namesUnexcused ? faults.map((f) => `not excused: ${faultName(f)}`) : [];

const hostLine = (f: Finding): string =>
  `host check ${isBypass(f) ? 'failure (MUST)' : 'warning'}: ${f.rule}: ${f.message}`;

function failedKind(facts: KindFacts): CauseKind {
  const { failing } = facts.faults;
  const rows = [...new Set(failing.map((f) => f.requirement))];
  const first = failing[0];
  return {
    lead:
      first === undefined
        ? undefined
        : `${plural(rows.length, 'requirement')} failed, first ${first.rule === undefined ? '' : `${first.rule} in `}${shortId(first.requirement)}`,
    causes:
      rows.length === 0
        ? []
        : [
            `${plural(rows.length, 'requirement')} failed (${rows.join(', ')}); the summary shows each failing rule`,
          ],
    problems: notExcused(facts, failing),
  };
}

function flakyKind({ report, gate }: KindFacts): CauseKind {
  const flaky = gate.flaky[0];
  return {
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
    problems: [
      ...gate.flaky.map(
        (f) => `flaky: ${f.requirement} came to ${f.outcomes.join(', ')} across the repetitions`,
      ),
      ...gate.allowedFlaky.map(
        (f) =>
          `flaky (allowed by the baseline): ${f.requirement} came to ${f.outcomes.join(', ')} across the repetitions`,
      ),
    ],
  };
}

function bypassKind({ gate }: KindFacts): CauseKind {
  const bypass = gate.hostWarnings.filter(isBypass);
  return {
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
    problems: bypass.map(hostLine),
  };
}

function raisedKind(facts: KindFacts): CauseKind {
  const { raised } = facts.faults;
  return {
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
    problems: notExcused(facts, raised),
  };
}

function warnedKind(facts: KindFacts): CauseKind {
  const should = facts.faults.warned;
  const hostWarnings = facts.gate.hostWarnings.filter((f) => !isBypass(f));
  const warned = [
    ...should.map((f) => `${f.rule ?? ''} in ${shortId(f.requirement)}`),
    ...hostWarnings.map((f) => `${f.rule} (host check)`),
  ];
  return {
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
    problems: [...notExcused(facts, should), ...hostWarnings.map(hostLine)],
  };
}

function staleKind({ gate, file }: KindFacts): CauseKind {
  const stale = gate.stale[0];
  const entries = plural(gate.stale.length, 'stale baseline entry', 'stale baseline entries');
  return {
    lead:
      stale === undefined
        ? undefined
        : `${entries}, first ${shortId(stale.requirement)}${stale.rule === undefined ? '' : ` ${stale.rule}`}: remove it from ${file}`,
    causes:
      stale === undefined
        ? []
        : [
            `${entries}: ${gate.stale.map(faultName).join(', ')} now hold; remove ${gate.stale.length === 1 ? 'it' : 'them'} from ${file}`,
          ],
    problems: gate.stale.map(
      (e) => `stale baseline entry: ${faultName(e)} now holds; remove it from ${file}`,
    ),
  };
}

/** An expired entry fails nothing by itself (the failure it excused does), so it never leads. */
function expiredKind({ gate, file }: KindFacts): CauseKind {
  const expired = gate.expired;
  return {
    lead: undefined,
    causes:
      expired.length === 0
        ? []
        : [
            `${plural(expired.length, 'baseline entry', 'baseline entries')} expired and excuse nothing (${expired.map((e) => `${faultName(e)}, ${e.expires ?? ''}`).join('; ')}); fix or renew ${expired.length === 1 ? 'it' : 'them'} in ${file}`,
          ],
    problems: expired.map(
      (e) =>
        `expired baseline entry: ${faultName(e)}${trackingNote(e)} excuses nothing since ${e.expires ?? ''}; fix the failure or renew the entry in ${file}`,
    ),
  };
}

function waivedKind({ report, gate }: KindFacts): CauseKind {
  return {
    lead: undefined,
    causes:
      report.failOn === 'none' && gate.failing
        ? [
            '--fail-on none: the exit code is 0 whatever failed, so this FAIL does not fail the build',
          ]
        : [],
    problems: [],
  };
}

function blockedKind({ report }: KindFacts): CauseKind {
  const rows = report.requirements;
  const blocked = rows.filter((r) => r.disposition === 'blocked');
  const first = blocked[0];
  const counted = `${blocked.length} of ${rows.length} blocked (${first?.reason ?? 'no reason recorded'})`;
  return {
    lead: first === undefined ? undefined : counted,
    causes:
      first === undefined
        ? []
        : [`${counted}; the suite could not observe, so check the host is reachable and run again`],
    problems: [],
  };
}

/**
 * Every kind of cause of a run's verdict, in the one order the lead, the list of causes and the
 * problem lines share: failed requirements, flaky ones, an authentication bypass, failures raised
 * to MUST, SHOULD warnings that fail the run, stale entries, expired ones, a waived exit code, then
 * what blocked it.
 */
const KINDS = [
  failedKind,
  flakyKind,
  bypassKind,
  raisedKind,
  warnedKind,
  staleKind,
  expiredKind,
  waivedKind,
  blockedKind,
] as const;

function causeKinds(report: EvalGateReport, gate: CiVerdict): CauseKind[] {
  const facts: KindFacts = {
    report,
    gate,
    faults: failingFaults(report, gate),
    namesUnexcused:
      report.baseline !== undefined || report.failOn === 'should' || report.failOn === 'none',
    file: report.baseline?.file ?? 'the baseline',
  };
  return KINDS.map((kind) => kind(facts));
}

/** A run's causes: the first kind's lead, the list, and the problem lines, in one order. */
export interface Causes {
  /** Undefined when nothing fails or blocks the run. */
  readonly lead: string | undefined;
  readonly causes: readonly string[];
  /** One line per reason the run fails that the dispositions alone do not show. */
  readonly problems: readonly string[];
}

export function causesOf(report: EvalGateReport, gate: CiVerdict): Causes {
  const kinds = causeKinds(report, gate);
  const blocking = kinds.at(-1);
  // What blocked the run is listed only when nothing else explains its verdict.
  const explained = kinds.slice(0, -1).flatMap((k) => k.causes);
  return {
    lead: kinds.find((k) => k.lead !== undefined)?.lead,
    causes: explained.length > 0 ? explained : [...(blocking?.causes ?? [])],
    problems: kinds.flatMap((k) => k.problems),
  };
}
