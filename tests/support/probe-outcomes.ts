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

/** How many requests the probes send under `on`: one for each probe answered. */
export function probeRequestCount(on: ProbeConditions): number {
  return expectedProbeOutcomes(on).filter(([, outcome]) => outcome === 'answered').length;
}

/** Every rule the probe table's checks judge, once each, in the table's order. */
export function probeRules(): string[] {
  return [...new Set(HOST_PROBES.flatMap((p) => p.checks.map((c) => c.rule.id)))];
}

/**
 * The rules judged of a correct host's answers, probe by probe in the table's order: each
 * answered probe's own rules, then the error body of its refusal.
 */
export function rulesOfRefusals(on: ProbeConditions): string[] {
  const answered = new Set(
    expectedProbeOutcomes(on)
      .filter(([, outcome]) => outcome === 'answered')
      .map(([name]) => name),
  );
  return HOST_PROBES.filter((p) => answered.has(p.name)).flatMap((p) => [
    ...p.checks.map((c) => c.rule.id),
    'wire.error-body',
  ]);
}
