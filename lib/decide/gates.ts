// The gates a leg passes before it drives a host, all host facts read from discovery, in the order
// of contract §2: major 2, then the leg's capability gates, then the advertised limits against
// what its fixture needs, then the fixture listing. The first failing gate decides the leg's
// disposition. The fixture file itself (a suite fact) is loaded only after every gate holds.

import type { FixtureNeeds, LegDefinition } from '../legs.ts';
import type { Disposition, GateName, OptOutName } from '../types.ts';
import {
  advertisedLimits,
  advertisesGolden,
  isAdvertised,
  listedFixtures,
  majorTwoMissing,
} from '../observe/discovery.ts';

export type GateDecision =
  | { readonly proceed: true }
  | {
      readonly proceed: false;
      readonly disposition: Disposition;
      /** The gate that failed: `protocol`, a capability, a limit's path, or `fixture`. */
      readonly gate: string;
      readonly reason: string;
    };

export interface GateConfig {
  readonly requireBehavior: boolean;
  readonly optedOut: readonly OptOutName[];
}

const OPT_OUT_VARIABLE = 'OPENWOP_OPTED_OUT_PROFILES';

/** A failed host gate: what it is, the host fact, and the name that opts out of it in strict mode. */
interface Failure {
  readonly gate: string;
  readonly missing: string;
  readonly optOut: GateName;
}

/**
 * Decides whether a leg may drive the host.
 *
 * Default mode: a failing gate is a host fact, so the leg is `inapplicable`.
 * Strict mode (OPENWOP_REQUIRE_BEHAVIOR=true): a failing gate is `skipped` when its opt-out name
 * is opted out, else `executed-fail`. Major 2 and `maxTasksPerSuite` opt out as
 * `agents.evalSuite`, the trials limits as `agents.evalSuite.trials`, the match modes as
 * `agents.evalSuite.trajectory`. A failing fixture gate has no name of its own to opt out, so it
 * is `skipped` when any of the leg's capability gates is opted out (the operator has declared the
 * leg's profile out of scope, and the fixture belongs to that profile), else `executed-fail`.
 * Contract §9 does not spell out the strict fixture case; this is the suite's rule.
 *
 * A server-free leg (no fixture, no gates) always proceeds.
 */
export function checkGates(
  leg: LegDefinition,
  discovery: unknown,
  config: GateConfig,
): GateDecision {
  if (leg.fixtureId === undefined) return { proceed: true };
  const failure = firstHostFailure(leg, discovery);
  if (failure !== undefined) return decideFailure(failure, config);

  if (!listedFixtures(discovery).includes(leg.fixtureId)) {
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

function decideFailure(failure: Failure, config: GateConfig): GateDecision {
  const { gate, missing, optOut } = failure;
  if (!config.requireBehavior) {
    return { proceed: false, disposition: 'inapplicable', gate, reason: missing };
  }
  if (config.optedOut.includes(optOut)) {
    return {
      proceed: false,
      disposition: 'skipped',
      gate,
      reason: `${missing}; ${optOut} is opted out in ${OPT_OUT_VARIABLE}`,
    };
  }
  return {
    proceed: false,
    disposition: 'executed-fail',
    gate,
    reason: `${missing}; strict mode requires it and ${optOut} is not opted out in ${OPT_OUT_VARIABLE}`,
  };
}

/** The first host gate the leg fails before its fixture listing, in contract §2 order. */
function firstHostFailure(leg: LegDefinition, discovery: unknown): Failure | undefined {
  const major = majorTwoMissing(discovery);
  if (major !== undefined) return { gate: 'protocol', missing: major, optOut: 'agents.evalSuite' };
  for (const gate of leg.gates) {
    const missing = missingFact(discovery, gate);
    if (missing !== undefined) return { gate, missing, optOut: gate };
  }
  return leg.needs === undefined ? undefined : limitBelowNeed(leg, leg.needs, discovery);
}

/** The host fact a capability gate lacks, as a reason; undefined when the gate holds. */
function missingFact(discovery: unknown, gate: GateName): string | undefined {
  if (!isAdvertised(discovery, gate)) return `host does not advertise ${gate}`;
  if (gate === 'agents.evalSuite' && !advertisesGolden(discovery)) {
    return 'host does not list golden in agents.evalSuite.modes';
  }
  return undefined;
}

/**
 * The first advertised limit below what the fixture needs. A limit is read only on a leg that
 * gates on its capability: a suite without a trials block asks nothing of `trials`.
 */
function limitBelowNeed(
  leg: LegDefinition,
  needs: FixtureNeeds,
  discovery: unknown,
): Failure | undefined {
  const limits = advertisedLimits(discovery);
  const gated = (g: GateName): boolean => leg.gates.includes(g);
  const list = (values: readonly unknown[]): string =>
    `[${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}]`;

  // An absent limit limits nothing.
  const maxTasks = limits.maxTasksPerSuite ?? Infinity;
  if (gated('agents.evalSuite') && needs.taskCount > maxTasks) {
    return {
      gate: 'agents.evalSuite.maxTasksPerSuite',
      missing: `host advertises agents.evalSuite.maxTasksPerSuite ${maxTasks}, below the fixture's ${needs.taskCount} tasks`,
      optOut: 'agents.evalSuite',
    };
  }
  if (gated('agents.evalSuite.trials')) {
    const maxCount = limits.trialsMaxCount ?? Infinity;
    if (needs.trialCount > maxCount) {
      return {
        gate: 'agents.evalSuite.trials.maxCount',
        missing: `host advertises agents.evalSuite.trials.maxCount ${maxCount}, below the fixture's ${needs.trialCount} trials`,
        optOut: 'agents.evalSuite.trials',
      };
    }
    const rules = limits.passRules;
    if (rules !== undefined && needs.passRule !== undefined && !rules.includes(needs.passRule)) {
      return {
        gate: 'agents.evalSuite.trials.passRules',
        missing: `host advertises agents.evalSuite.trials.passRules ${list(rules)}, without the fixture's pass rule ${needs.passRule}`,
        optOut: 'agents.evalSuite.trials',
      };
    }
  }
  const modes = limits.matchModes;
  if (gated('agents.evalSuite.trajectory') && modes !== undefined) {
    const unlisted = needs.matchModes.filter((m) => !modes.includes(m));
    if (unlisted.length > 0) {
      return {
        gate: 'agents.evalSuite.trajectory.matchModes',
        missing: `host advertises agents.evalSuite.trajectory.matchModes ${list(modes)}, without ${unlisted.join(', ')}, which the fixture's trajectories use (they use ${list(needs.matchModes)})`,
        optOut: 'agents.evalSuite.trajectory',
      };
    }
  }
  return undefined;
}
