// The outcome each probe of the table comes to, stated per kind of request rather than per probe
// name, so a probe added to HOST_PROBES (lib/host-probes.ts) is expected in every list without an
// edit here: a create that carries no key (or a wrong or near-miss one) is not made without a
// configured key; the unknown run's summary is not asked without a run id the host returned; the
// unadvertised summary is asked only of a host that does not advertise the capability.

import { HOST_PROBES, type HostProbe } from '../../lib/host-probes.ts';
import type { ObservedProbe } from '../../lib/types.ts';

export interface ProbeConditions {
  readonly keyConfigured: boolean;
  readonly runIdKnown: boolean;
  readonly evalSuiteAdvertised: boolean;
}

function outcomeOf(probe: HostProbe, on: ProbeConditions): ObservedProbe['outcome'] {
  const request = probe.request;
  switch (request.send) {
    case 'create':
      return request.credential.send !== 'key' && !on.keyConfigured ? 'not-made' : 'answered';
    case 'unknown-run-summary':
      return on.runIdKnown ? 'answered' : 'not-made';
    case 'unadvertised-summary':
      return on.evalSuiteAdvertised ? 'inapplicable' : 'answered';
  }
}

/** `[probe name, outcome]` for every probe of the table, in its order. */
export function expectedProbeOutcomes(on: ProbeConditions): [string, string][] {
  return HOST_PROBES.map((p) => [p.name, outcomeOf(p, on)]);
}
