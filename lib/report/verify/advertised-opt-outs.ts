// An opt-out excuses a capability the host says it lacks. One the host's own discovery advertises
// excuses nothing the host can claim: a strict run would test that capability, so opting out of it
// only hides the legs that would fail. The run's pre-flight refuses such a run (cli/preflight.ts),
// and a verifier refuses to certify a report whose captured discovery shows one, since a signer
// can write any opt-out into its own report.

import { isAdvertised } from '../../observe/discovery.ts';
import { GATE_NAMES, type GateName, type OptOutName } from '../../types.ts';

/** The opt-outs among `optedOut` that name a capability `document` advertises, in order. */
export function advertisedOptOuts(
  document: unknown,
  optedOut: readonly OptOutName[],
): readonly GateName[] {
  return GATE_NAMES.filter((gate) => optedOut.includes(gate) && isAdvertised(document, gate));
}

/** `agents.evalSuite.trials and agents.evalSuite.trajectory`. */
export function gateList(gates: readonly GateName[]): string {
  return gates.length <= 1
    ? (gates[0] ?? '')
    : `${gates.slice(0, -1).join(', ')} and ${gates.at(-1) ?? ''}`;
}
