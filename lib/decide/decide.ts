// What findings mean for a leg: the pure decision from a list of findings to a disposition, and
// the two findings-free outcomes (blocked, and a host that refused a run it promised). Kept apart
// from run-leg.ts, which does the I/O, so that every line here can be mutation-tested.

import { judgeEvalRun, bindingGaps, unexercisedRules, causesFirst } from '../eval-gate-witness.ts';
import type {
  Disposition,
  DriveResult,
  Finding,
  Fixture,
  LegOutcome,
  RunObservation,
  UnexercisedRule,
} from '../types.ts';

/** How many failed findings a reason quotes before it says how many more there are. */
const REASON_FINDINGS = 3;

/** A leg's outcome before it is named and timed: what one decision says about one run. */
export type Decision = Omit<LegOutcome, 'requirement' | 'durationMs'>;

/** The reason a leg --only/--skip left out is skipped with; it never drives. */
export const NOT_SELECTED = 'not selected';

export function blocked(reason: string): Decision {
  return { disposition: 'blocked', assertions: 0, reason, findings: [] };
}

/** A host that listed the fixture and then refused or mis-served it fails the leg (contract §9). */
export function hostFaultFinding(stage: string, reason: string): Finding {
  return {
    rule: 'run.served',
    ok: false,
    severity: 'MUST',
    ref: 'contract §6, §9',
    message: `a host that advertises the capability and lists the fixture MUST serve the run (${stage}): ${reason}`,
  };
}

/**
 * Whether recorded findings are what a host fault leaves and nothing else: one failing
 * `run.served` (hostFaultFinding). The one test of it, read by hostFaultDecision.
 */
function isHostFault(findings: readonly Pick<Finding, 'rule' | 'ok'>[]): boolean {
  const [only] = findings;
  // Stryker disable next-line OptionalChaining: reached only when a first finding exists; the `?.` is for the types
  return findings.length === 1 && only?.rule === 'run.served' && !only.ok;
}

/**
 * What findings recorded without an observation decide to, the one rule for the run's rows and
 * cases and for `verify`: a host fault fails as it failed in the run; any other set of findings
 * cannot have been recorded without the observation they were judged on (undefined).
 */
export function hostFaultDecision(findings: readonly Finding[]): Decision | undefined {
  return isHostFault(findings) ? decide(findings) : undefined;
}

/**
 * A run judged and decided: the witness's findings, the rules they left unexercised, and the
 * disposition of both. The one path from an observation to a decision, for the legs and `verify`.
 */
export function decideRun(fixture: Fixture, observation: RunObservation): Decision {
  const findings = judgeEvalRun(fixture, observation);
  return decide(findings, observation, unexercisedRules(fixture, observation, findings));
}

/**
 * How a drive's ending decides a run: a lost answer blocks it (a fact about the suite or the
 * network, never a verdict), a host that refused or mis-served the run it promised fails it, and
 * an observed run is judged. The same for a leg's run and a generated case's.
 */
export function decideDrive(fixture: Fixture, drive: DriveResult): Decision {
  switch (drive.kind) {
    case 'unobserved':
      return blocked(`could not observe the run (${drive.stage}): ${drive.reason}`);
    case 'host-fault':
      return decide([hostFaultFinding(drive.stage, drive.reason)]);
    case 'observed':
      return decideRun(fixture, drive.observation);
  }
}

/**
 * The disposition that findings imply. A failing MUST fails the leg; SHOULD findings never do.
 * A pass needs at least one MUST finding: no finding at all, or only SHOULD findings, means no
 * binding rule was checked, which is never a pass. No host fact makes a judged leg
 * `inapplicable`: a declared limit is decided on the figures the script states, so a host that
 * reports none is judged all the same (contract §9). A run on which a MUST rule the verdict relies on judged nothing (`bindingGaps`) is blocked,
 * naming the rule, because the suite did not see what it would certify. A failing MUST still
 * fails: that fault was seen. Findings that only follow from another failure are marked and put
 * last (lib/witness/consequences.ts), so the reason quotes the cause first, whichever stage added
 * the findings.
 */
export function decide(
  judged: readonly Finding[],
  observation?: RunObservation,
  unexercised?: readonly UnexercisedRule[],
): Decision {
  const findings = causesFirst(judged);
  const withObservation = observation === undefined ? {} : { observation };
  const withUnexercised = unexercised === undefined ? {} : { unexercised };
  if (!findings.some((f) => f.severity === 'MUST')) {
    const what = findings.length === 0 ? 'nothing' : 'no MUST rule';
    return {
      ...blocked(`the leg judged ${what}: zero assertions is never a pass`),
      ...withUnexercised,
      ...withObservation,
    };
  }
  const failed = findings.filter((f) => f.severity === 'MUST' && !f.ok);
  const gaps = failed.length === 0 ? bindingGaps(unexercised ?? [], observation) : [];
  const disposition: Disposition =
    failed.length > 0 ? 'executed-fail' : gaps.length > 0 ? 'blocked' : 'executed-pass';
  const decision: Decision = {
    disposition,
    assertions: findings.length,
    findings,
    ...withUnexercised,
    ...withObservation,
  };
  if (failed.length > 0) return { ...decision, reason: failureReason(failed) };
  return gaps.length > 0 ? { ...decision, reason: gapReason(gaps) } : decision;
}

function gapReason(gaps: readonly UnexercisedRule[]): string {
  const head = `${gaps.length} MUST rule${gaps.length === 1 ? '' : 's'} the verdict relies on judged nothing, so the leg cannot pass`;
  return `${head}: ${gaps.map((g) => `${g.rule} (${g.reason})`).join('; ')}`;
}

function failureReason(failed: readonly Finding[]): string {
  const quoted = failed
    .slice(0, REASON_FINDINGS)
    .map(
      (f) =>
        `${f.rule} (${f.ref})${f.consequenceOf === undefined ? '' : `, following from ${f.consequenceOf}`}: ${f.message}`,
    );
  const more = failed.length - quoted.length;
  const head = `${failed.length} MUST finding${failed.length === 1 ? '' : 's'} failed`;
  return `${head}: ${quoted.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
