// A baseline file as a whole: its expected failures (lib/report/run-options.ts) and its
// `severity` section, each entry of which raises or lowers one rule for named requirements, `*`
// or the host checks (lib/report/verdict/severity.ts). Every problem throws a RunOptionError naming the
// entry, so a bad file is one line and exit 2 before any leg runs.

import type { Severity } from '../../types.ts';
import type { ExpectedFailure } from '../run-options.ts';
import {
  EVERY_REQUIREMENT,
  HOST_CHECKS,
  entryRequirement,
  impossibleRule,
  isRecord,
  readExpectedFailures,
  recordable,
  RunOptionError,
  trackingOf,
} from '../run-options.ts';
import type { SeverityOverride } from './severity.ts';
import { catalogueSeverity } from './severity.ts';

export interface BaselineDocument {
  readonly entries: readonly ExpectedFailure[];
  readonly severity: readonly SeverityOverride[];
}

const OVERRIDE_KEYS = ['rule', 'requirements', 'severity', 'reason', 'ticket', 'owner'];
const SEVERITIES: readonly Severity[] = ['MUST', 'SHOULD'];

export function readBaselineDocument(document: unknown): BaselineDocument {
  const entries = readExpectedFailures(document);
  const list = isRecord(document) ? (document.severity ?? []) : [];
  if (!Array.isArray(list)) {
    throw new RunOptionError('the baseline severity section must be a list of overrides');
  }
  const severity = list.map((item: unknown, i) => readOverride(item, `severity[${i}]`));
  const keys = severity.flatMap((o) => o.requirements.map((r) => `${r} ${o.rule}`));
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) {
    throw new RunOptionError(`the baseline's severity section sets ${twice} twice; set it once`);
  }
  return { entries, severity };
}

function readOverride(item: unknown, at: string): SeverityOverride {
  if (!isRecord(item)) throw new RunOptionError(`${at} is not an object`);
  const extra = Object.keys(item).filter((k) => !OVERRIDE_KEYS.includes(k));
  if (extra.length > 0) {
    throw new RunOptionError(
      `${at} has ${extra.join(', ')}; an override has ${OVERRIDE_KEYS.slice(0, -1).join(', ')} and ${OVERRIDE_KEYS.at(-1) ?? ''}`,
    );
  }
  const { rule, reason, severity } = item;
  if (typeof rule !== 'string' || rule === '') throw new RunOptionError(`${at} needs a rule`);
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new RunOptionError(`${at} (${rule}) needs a reason: say why its severity differs`);
  }
  const level = SEVERITIES.find((s) => s === severity);
  if (level === undefined) throw new RunOptionError(`${at} (${rule}) severity is MUST or SHOULD`);
  if (catalogueSeverity(rule) === level) {
    throw new RunOptionError(`${at}: ${rule} is already ${level}; an override must change it`);
  }
  const requirements = requirementsOf(item.requirements, rule, at);
  const { ticket, owner } = trackingOf(item, at);
  return {
    rule,
    requirements,
    severity: level,
    reason,
    ...(ticket === undefined ? {} : { ticket }),
    ...(owner === undefined ? {} : { owner }),
  };
}

/** `"*"`, or a list of requirement ids (or `host-checks`), each able to record the rule. */
function requirementsOf(given: unknown, rule: string, at: string): string[] {
  const list = given === EVERY_REQUIREMENT ? [EVERY_REQUIREMENT] : given;
  if (!Array.isArray(list) || list.length === 0 || !list.every((r) => typeof r === 'string')) {
    throw new RunOptionError(
      `${at} (${rule}) needs requirements: a list of requirement ids, or "${EVERY_REQUIREMENT}"`,
    );
  }
  return [
    ...new Set(
      (list as string[]).map((r) => {
        const id = r === EVERY_REQUIREMENT || r === HOST_CHECKS ? r : entryRequirement(r, rule, at);
        if (!recordable(id, rule)) throw new RunOptionError(impossibleRule(id, rule, at));
        return id;
      }),
    ),
  ];
}
