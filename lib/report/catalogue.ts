// What the suite checks, as data for `openwop-eval-gate list`: each requirement (its RFC section,
// fixture, capability gates and the suite versions whose set holds it) and each rule (severity,
// reference, and which requirements can record it; a host-check rule is recorded once per run).
// Everything comes from LEGS, RULES, the requirement sets and the witness's own coverage table.

import { LEGS } from '../legs.ts';
import { REQUIREMENT_SETS } from '../requirement-sets.ts';
import type { GateName, Severity } from '../types.ts';
import { HOST_CHECK_RULES, RULES } from '../eval-gate-witness.ts';
import { knownRules } from './run-options.ts';

export interface RequirementEntry {
  readonly id: string;
  readonly title: string;
  readonly ref: string;
  /** The fixture the leg drives; null for the server-free leg. */
  readonly fixture: string | null;
  /** The capabilities the host must advertise for the leg to apply. */
  readonly capabilities: readonly GateName[];
  /** The suite versions whose requirement set holds it. */
  readonly sets: readonly string[];
}

export interface RuleEntry {
  readonly id: string;
  readonly severity: Severity;
  readonly ref: string;
  readonly statement: string;
  /** The requirements whose findings can carry the rule. */
  readonly recordedBy: readonly string[];
  /** Judged once per run by the host checks (a baseline lists it under `host-checks`). */
  readonly hostCheck: boolean;
}

export interface Catalogue {
  readonly requirements: readonly RequirementEntry[];
  readonly rules: readonly RuleEntry[];
}

export function catalogue(): Catalogue {
  const requirements = LEGS.map((leg) => ({
    id: leg.id,
    title: leg.title,
    ref: leg.ref,
    fixture: leg.fixtureId ?? null,
    capabilities: leg.gates,
    sets: REQUIREMENT_SETS.filter((s) => s.requirements.includes(leg.id)).map((s) => s.version),
  }));
  const rules = RULES.map((rule) => ({
    id: rule.id,
    severity: rule.severity,
    ref: rule.ref,
    statement: rule.statement,
    recordedBy: LEGS.filter((leg) => knownRules(leg.id).has(rule.id)).map((leg) => leg.id),
    hostCheck: (HOST_CHECK_RULES as ReadonlySet<string>).has(rule.id),
  }));
  return { requirements, rules };
}
