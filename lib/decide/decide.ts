// What findings mean for a leg: the pure decision from a list of findings to a disposition, and
// the two findings-free outcomes (blocked, and a host that refused a run it promised). Kept apart
// from run-leg.ts, which does the I/O, so that every line here can be mutation-tested.

import type { Disposition, Finding, LegOutcome, RunObservation } from '../types.ts';
import { causesFirst } from '../witness/consequences.ts';

/** How many failed findings a reason quotes before it says how many more there are. */
const REASON_FINDINGS = 3;

export type Decision = Omit<LegOutcome, 'requirement' | 'durationMs'>;

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
 * The disposition that findings imply. A failing MUST fails the leg; SHOULD findings never do.
 * A pass needs at least one MUST finding: no finding at all, or only SHOULD findings, means no
 * binding rule was checked, which is never a pass. Findings that only follow from another
 * failure are marked and put last (lib/witness/consequences.ts), so the reason quotes the cause
 * first, whichever stage added the findings.
 */
export function decide(judged: readonly Finding[], observation?: RunObservation): Decision {
  const findings = causesFirst(judged);
  const withObservation = observation === undefined ? {} : { observation };
  if (!findings.some((f) => f.severity === 'MUST')) {
    const judged = findings.length === 0 ? 'nothing' : 'no MUST rule';
    return {
      ...blocked(`the leg judged ${judged}: zero assertions is never a pass`),
      ...withObservation,
    };
  }
  const failed = findings.filter((f) => f.severity === 'MUST' && !f.ok);
  const disposition: Disposition = failed.length === 0 ? 'executed-pass' : 'executed-fail';
  const decision: Decision = {
    disposition,
    assertions: findings.length,
    findings,
    ...withObservation,
  };
  return failed.length === 0 ? decision : { ...decision, reason: failureReason(failed) };
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
