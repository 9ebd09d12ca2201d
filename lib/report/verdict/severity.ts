// Scoped severity: a baseline section that raises a rule to MUST or lowers it to SHOULD for named
// requirements (or every one, `*`, or the host checks). It changes which failures fail the exit
// code, never a disposition or a finding: the report keeps what the witness judged, and records
// the override beside it with its reason, so a reader sees both. Any override withholds the
// certification, since the run was not judged at the severities the RFC gives.

import type { Finding, Severity } from '../../types.ts';
import { REQUIREMENT_PREFIX } from '../../legs.ts';
import { RULES } from '../../eval-gate-witness.ts';

/** The requirement list of an override that applies to every requirement's findings. */
export const EVERY = '*';

export interface SeverityOverride {
  readonly rule: string;
  /** Full requirement ids, `*` (every requirement), or `host-checks`. */
  readonly requirements: readonly string[];
  readonly severity: Severity;
  readonly reason: string;
  readonly ticket?: string;
  readonly owner?: string;
}

type Judged = Pick<Finding, 'rule' | 'severity'>;

function covers(override: SeverityOverride, requirement: string): boolean {
  // `*` is every requirement's findings, as in the expected failures; the host checks are named.
  if (override.requirements.includes(EVERY)) return requirement !== 'host-checks';
  return override.requirements.includes(requirement);
}

/** The override that sets `finding`'s severity on `requirement`, if any: the last one listed wins. */
export function overrideOf(
  finding: Pick<Finding, 'rule'>,
  requirement: string,
  overrides: readonly SeverityOverride[],
): SeverityOverride | undefined {
  return [...overrides].reverse().find((o) => o.rule === finding.rule && covers(o, requirement));
}

/** The severity a failure of `finding` counts at on `requirement` under the overrides. */
export function effectiveSeverity(
  finding: Judged,
  requirement: string,
  overrides: readonly SeverityOverride[] = [],
): Severity {
  return overrideOf(finding, requirement, overrides)?.severity ?? finding.severity;
}

/** The severity the rule catalogue gives a rule; undefined for one it does not list. */
export function catalogueSeverity(rule: string): Severity | undefined {
  return RULES.find((r) => r.id === rule)?.severity;
}

/** `wire.version-header raised to MUST on mean-gated` (ids shortened for a line). */
export function overrideName(override: SeverityOverride): string {
  const on = override.requirements.map((r) =>
    r.startsWith(REQUIREMENT_PREFIX) ? r.slice(REQUIREMENT_PREFIX.length) : r,
  );
  const verb = override.severity === 'MUST' ? 'raised to MUST' : 'lowered to SHOULD';
  return `${override.rule} ${verb} on ${on.join(', ')}`;
}

/** An override's own members, whatever else the object carries. */
export function plainOverride(override: SeverityOverride): SeverityOverride {
  return {
    rule: override.rule,
    requirements: [...override.requirements],
    severity: override.severity,
    reason: override.reason,
    ...(override.ticket === undefined ? {} : { ticket: override.ticket }),
    ...(override.owner === undefined ? {} : { owner: override.owner }),
  };
}
