// The gates a leg passes before it drives a host: its capability gates in order, then its fixture
// gate (contract §2, §9). The first failing gate decides the leg's disposition.

import type { LegDefinition } from './legs.ts';
import type { Disposition, GateName } from './types.ts';
import { advertisesGolden, isAdvertised, listedFixtures } from './discovery.ts';

export type GateDecision =
  | { readonly proceed: true }
  | {
      readonly proceed: false;
      readonly disposition: Disposition;
      /** The gate that failed: a capability name, or `fixture`. */
      readonly gate: string;
      readonly reason: string;
    };

export interface GateConfig {
  readonly requireBehavior: boolean;
  readonly optedOut: readonly GateName[];
}

const OPT_OUT_VARIABLE = 'OPENWOP_OPTED_OUT_PROFILES';

/**
 * Decides whether a leg may drive the host.
 *
 * Default mode: a failing gate is a host fact, so the leg is `inapplicable`.
 * Strict mode (OPENWOP_REQUIRE_BEHAVIOR=true): a failing capability gate is `skipped` when that
 * gate is opted out, else `executed-fail`. A failing fixture gate has no name of its own to opt
 * out, so it is `skipped` when any of the leg's capability gates is opted out (the operator has
 * declared the leg's profile out of scope, and the fixture belongs to that profile), else
 * `executed-fail`. Contract §9 does not spell out the strict fixture case; this is the suite's rule.
 *
 * A server-free leg (no fixture, no gates) always proceeds.
 */
export function checkGates(
  leg: LegDefinition,
  discovery: unknown,
  config: GateConfig,
): GateDecision {
  for (const gate of leg.gates) {
    const missing = missingFact(discovery, gate);
    if (missing === undefined) continue;
    if (!config.requireBehavior) {
      return { proceed: false, disposition: 'inapplicable', gate, reason: missing };
    }
    if (config.optedOut.includes(gate)) {
      return {
        proceed: false,
        disposition: 'skipped',
        gate,
        reason: `${missing}; ${gate} is opted out in ${OPT_OUT_VARIABLE}`,
      };
    }
    return {
      proceed: false,
      disposition: 'executed-fail',
      gate,
      reason: `${missing}; strict mode requires it and ${gate} is not opted out in ${OPT_OUT_VARIABLE}`,
    };
  }

  if (leg.fixtureId !== undefined && !listedFixtures(discovery).includes(leg.fixtureId)) {
    const missing = `host does not list fixture ${leg.fixtureId} in discovery fixtures`;
    if (!config.requireBehavior) {
      return { proceed: false, disposition: 'inapplicable', gate: 'fixture', reason: missing };
    }
    const optedOut = leg.gates.filter((g) => config.optedOut.includes(g));
    if (optedOut.length > 0) {
      return {
        proceed: false,
        disposition: 'skipped',
        gate: 'fixture',
        reason: `${missing}; the leg's gate ${optedOut.join(', ')} is opted out in ${OPT_OUT_VARIABLE}`,
      };
    }
    return {
      proceed: false,
      disposition: 'executed-fail',
      gate: 'fixture',
      reason: `${missing}; strict mode requires it and none of the leg's gates is opted out`,
    };
  }

  return { proceed: true };
}

/** The host fact a capability gate lacks, as a reason; undefined when the gate holds. */
function missingFact(discovery: unknown, gate: GateName): string | undefined {
  if (!isAdvertised(discovery, gate)) return `host does not advertise ${gate}`;
  if (gate === 'agents.evalSuite' && !advertisesGolden(discovery)) {
    return 'host does not list golden in agents.evalSuite.modes';
  }
  return undefined;
}
