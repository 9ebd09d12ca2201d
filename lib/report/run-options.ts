// The run options a host's CI adds to a run, as the report records them: which requirements were
// selected (--only, --skip), which failures a baseline excuses (--expected-failures) and which
// severities fail the exit code (--fail-on). Validation happens before any leg runs, so a
// mistyped id is a configuration error (exit 2), never a silently unexcused or unselected row.

import { Refusal } from '../refusal.ts';
import { GENERATED_REQUIREMENT, LEGS, REQUIREMENT_PREFIX as PREFIX } from '../legs.ts';
import type { RequirementSet } from '../requirement-sets.ts';
import {
  recordedOnLegs,
  HOST_CHECK_RULES,
  RULES,
  judgeGatedFieldsShape,
} from '../eval-gate-witness.ts';
import type { Disposition } from '../types.ts';

/**
 * `must`: only MUST failures fail the exit code; `should`: SHOULD warnings fail it too; `none`:
 * nothing a host did fails it (a blocked run still exits 3: a lost response is no verdict).
 */
export type FailOn = 'must' | 'should' | 'none';
export const FAIL_ON: readonly FailOn[] = ['must', 'should', 'none'];

/** The requirement of a baseline entry that names a rule for every requirement. */
export const EVERY_REQUIREMENT = '*';
/** The requirement of a baseline entry that names a host check, judged once per run. */
export const HOST_CHECKS = 'host-checks';

/**
 * One baseline entry: a requirement known to fail, or one rule of it (of every requirement under
 * `*`, of the host checks under `host-checks`), why, and who tracks it until when.
 */
export interface ExpectedFailure {
  readonly requirement: string;
  readonly rule?: string;
  /**
   * The dispositions an intermittent requirement may come to under `--repeat`: the entry allows
   * the row to be flaky among them, and excuses its failures while every outcome is listed.
   */
  readonly outcomes?: readonly Disposition[];
  readonly reason: string;
  readonly ticket?: string;
  readonly owner?: string;
  /** YYYY-MM-DD: from the day after, the entry excuses nothing. */
  readonly expires?: string;
}

/**
 * --only and --skip as given, each id in full; an empty `only` selects every requirement. A
 * pinned requirement set (--requirements) leaves out every requirement it does not hold.
 */
export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly requirementSet?: RequirementSet;
}

/** A bad --only, --skip or baseline entry; its message is the one line the CLI prints (exit 2). */
export class RunOptionError extends Refusal {
  override readonly name: string = 'RunOptionError';
}

/** The full requirement id for `id` with or without its prefix, or undefined when none matches. */
export function knownRequirement(id: string): string | undefined {
  const full = id.startsWith(PREFIX) ? id : `${PREFIX}${id}`;
  return LEGS.some((l) => l.id === full) ? full : undefined;
}

/**
 * Every rule id a requirement's findings can carry; for `host-checks`, the host checks' rules.
 * A leg never records a rule judged only once per run as a host check.
 */
export function knownRules(requirement: string): ReadonlySet<string> {
  if (requirement === HOST_CHECKS) return new Set(HOST_CHECK_RULES);
  // The generated row carries its cases' findings, which are a host leg's: the witness's rules
  // and a host fault's.
  const leg = LEGS.find((l) => l.id === requirement);
  if (leg === undefined && requirement !== GENERATED_REQUIREMENT) return new Set();
  // The server-free leg judges the schema alone; its rules are the findings it always produces.
  if (leg !== undefined && leg.fixtureId === undefined) {
    return new Set(judgeGatedFieldsShape().map((f) => f.rule));
  }
  return new Set([...RULES.map((r) => r.id).filter(recordedOnLegs), 'run.served']);
}

/** The requirement ids without their prefix, comma-separated, for a message listing them. */
function requirementList(): string {
  return LEGS.map((l) => l.id.slice(PREFIX.length)).join(', ');
}

/**
 * Resolves --only and --skip to full ids within the pinned set, if any; throws on an unknown id,
 * an id the set does not hold, or an empty selection.
 */
export function resolveSelection(
  only: readonly string[],
  skip: readonly string[],
  requirementSet?: RequirementSet,
): Selection {
  const full = (flag: string) => (id: string) => {
    const known = knownRequirement(id);
    if (known === undefined) {
      throw new RunOptionError(
        `${flag} ${id} names no requirement of this suite; the requirements are ${requirementList()}`,
      );
    }
    if (requirementSet !== undefined && !requirementSet.requirements.includes(known)) {
      throw new RunOptionError(
        `${flag} ${id} is not in requirement set ${requirementSet.version}, which --requirements pinned`,
      );
    }
    return known;
  };
  const selection = {
    only: [...new Set(only.map(full('--only')))],
    skip: [...new Set(skip.map(full('--skip')))],
    ...(requirementSet === undefined ? {} : { requirementSet }),
  };
  if (selectedIds(selection).length === 0) {
    throw new RunOptionError(
      '--only and --skip leave no requirement selected; select at least one',
    );
  }
  return selection;
}

/** The requirement ids a selection runs, in the order of the legs. */
export function selectedIds(selection: Selection | undefined): string[] {
  return LEGS.map((l) => l.id).filter((id) => isSelected(selection, id));
}

export function isSelected(selection: Selection | undefined, id: string): boolean {
  if (selection === undefined) return true;
  const pinned = selection.requirementSet;
  if (pinned !== undefined && !pinned.requirements.includes(id)) return false;
  if (selection.only.length > 0 && !selection.only.includes(id)) return false;
  return !selection.skip.includes(id);
}

export { NOT_SELECTED } from '../decide/decide.ts';

/**
 * Checks a parsed baseline document and returns its entries with full requirement ids. Every
 * problem throws with the entry's index, so the one line the CLI prints says which entry.
 */
export function readExpectedFailures(document: unknown): ExpectedFailure[] {
  const keys = isRecord(document) ? Object.keys(document) : [];
  const list = isRecord(document) ? (document.expectedFailures ?? []) : undefined;
  const known = keys.every((k) => BASELINE_SECTIONS.includes(k));
  if (!Array.isArray(list) || keys.length === 0 || !known) {
    throw new RunOptionError(
      'the baseline must be {"expectedFailures"?: [{"requirement": ID, "rule"?: RULE, "reason": TEXT}, ...], "severity"?: [{"rule": RULE, "requirements": [ID, ...] or "*", "severity": "MUST" or "SHOULD", "reason": TEXT}, ...]} and nothing else',
    );
  }
  return readEntries(list);
}

/** The sections a baseline file may have (lib/report/verdict/baseline-file.ts reads `severity`). */
export const BASELINE_SECTIONS: readonly string[] = ['expectedFailures', 'severity'];

function readEntries(list: readonly unknown[]): ExpectedFailure[] {
  const entries = list.map((item: unknown, i) => readEntry(item, `expectedFailures[${i}]`));
  const keys = entries.map(
    (e) => `${e.requirement} ${e.outcomes === undefined ? (e.rule ?? '*') : 'outcomes'}`,
  );
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined)
    throw new RunOptionError(`the baseline lists ${twice} twice; list it once`);
  return entries;
}

const ENTRY_KEYS = ['requirement', 'rule', 'outcomes', 'reason', 'ticket', 'owner', 'expires'];
const OUTCOMES: readonly Disposition[] = [
  'executed-pass',
  'executed-fail',
  'inapplicable',
  'skipped',
  'blocked',
];

function readEntry(item: unknown, at: string): ExpectedFailure {
  if (!isRecord(item)) throw new RunOptionError(`${at} is not an object`);
  const extra = Object.keys(item).filter((k) => !ENTRY_KEYS.includes(k));
  if (extra.length > 0) {
    throw new RunOptionError(
      `${at} has ${extra.join(', ')}; an entry has ${ENTRY_KEYS.slice(0, -1).join(', ')} and ${ENTRY_KEYS.at(-1) ?? ''}`,
    );
  }
  const { rule, reason } = item;
  // A rule alone names it for every requirement.
  const requirement = item.requirement ?? (rule === undefined ? undefined : EVERY_REQUIREMENT);
  if (typeof requirement !== 'string' || requirement === '') {
    throw new RunOptionError(
      `${at} needs a requirement id, or a rule to excuse on every requirement`,
    );
  }
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new RunOptionError(
      `${at} (${requirement}) needs a reason: say why the failure is expected`,
    );
  }
  const tracking = trackingOf(item, at);
  if (item.outcomes !== undefined) return outcomesEntry(item, requirement, reason, tracking, at);
  const id = entryRequirement(requirement, rule, at);
  if (rule === undefined) return { requirement: id, reason, ...tracking };
  if (typeof rule !== 'string' || !recordable(id, rule)) {
    throw new RunOptionError(impossibleRule(id, String(rule), at));
  }
  return { requirement: id, rule, reason, ...tracking };
}

/**
 * An entry that allows an intermittent requirement: one named requirement (a flaky row is a row),
 * no rule, and two or more distinct dispositions.
 */
function outcomesEntry(
  item: Readonly<Record<string, unknown>>,
  requirement: string,
  reason: string,
  tracking: Pick<ExpectedFailure, 'ticket' | 'owner' | 'expires'>,
  at: string,
): ExpectedFailure {
  if (item.rule !== undefined) {
    throw new RunOptionError(
      `${at} has outcomes and a rule; outcomes allow a whole requirement to flip, so drop the rule`,
    );
  }
  if (requirement === EVERY_REQUIREMENT || requirement === HOST_CHECKS) {
    throw new RunOptionError(
      `${at} allows outcomes on "${requirement}"; name the one requirement that is intermittent`,
    );
  }
  const list = item.outcomes;
  const valid =
    Array.isArray(list) &&
    list.length >= 2 &&
    new Set(list).size === list.length &&
    list.every((d) => OUTCOMES.includes(d as Disposition));
  if (!valid) {
    throw new RunOptionError(
      `${at} outcomes must list two or more distinct dispositions of ${OUTCOMES.join(', ')}`,
    );
  }
  const id = entryRequirement(requirement, undefined, at);
  return { requirement: id, outcomes: list as Disposition[], reason, ...tracking };
}

/** The entry's requirement in full, `*` or `host-checks`; an unknown one lists the valid ones. */
export function entryRequirement(requirement: string, rule: unknown, at: string): string {
  if (requirement === EVERY_REQUIREMENT) {
    if (rule === undefined) {
      throw new RunOptionError(
        `${at} names every requirement and no rule, which would excuse every failure; name the rule`,
      );
    }
    return requirement;
  }
  if (requirement === HOST_CHECKS) return requirement;
  const full = knownRequirement(requirement) ?? generatedRequirement(requirement);
  if (full === undefined) {
    throw new RunOptionError(
      `${at} names ${requirement}, which is no requirement of this suite; the requirements are ${requirementList()}, "${HOST_CHECKS}" and "${EVERY_REQUIREMENT}"`,
    );
  }
  return full;
}

/** Whether some failure of `requirement` could carry `rule`. */
export function recordable(requirement: string, rule: string): boolean {
  if (requirement !== EVERY_REQUIREMENT) return knownRules(requirement).has(rule);
  return LEGS.some((l) => knownRules(l.id).has(rule));
}

function recordedRules(requirement: string): string[] {
  const of = requirement === EVERY_REQUIREMENT ? LEGS.map((l) => l.id) : [requirement];
  return [...new Set(of.flatMap((id) => [...knownRules(id)]))];
}

export function impossibleRule(requirement: string, rule: string, at: string): string {
  const where =
    requirement === EVERY_REQUIREMENT
      ? 'no requirement ever records'
      : `${requirement} never records`;
  const hostCheck = (HOST_CHECK_RULES as ReadonlySet<string>).has(rule);
  const hint = hostCheck
    ? `; ${rule} is judged once per run as a host check: list it under requirement "${HOST_CHECKS}"`
    : `; the rules ${requirement === EVERY_REQUIREMENT ? 'the requirements record' : 'it records'} are ${recordedRules(requirement).join(', ')}`;
  return `${at} names rule ${rule}, which ${where}${hint}`;
}

/** ticket, owner and expires, each checked; expires is a calendar date. */
export function trackingOf(
  item: Readonly<Record<string, unknown>>,
  at: string,
): Pick<ExpectedFailure, 'ticket' | 'owner' | 'expires'> {
  const out: { ticket?: string; owner?: string; expires?: string } = {};
  for (const key of ['ticket', 'owner'] as const) {
    const value = item[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new RunOptionError(`${at} has a ${key} that is not a non-empty string`);
    }
    out[key] = value;
  }
  const expires = item.expires;
  if (expires !== undefined) {
    // YAML reads an unquoted 2026-03-01 as a Date; both spellings mean the same day.
    const day = expires instanceof Date ? expires.toISOString().slice(0, 10) : expires;
    if (typeof day !== 'string' || !isCalendarDate(day)) {
      throw new RunOptionError(`${at} expires on ${String(day)}; give a date as YYYY-MM-DD`);
    }
    out.expires = day;
  }
  return out;
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** A baseline may name the generated row too: `run --generate` adds it beside the legs. */
function generatedRequirement(id: string): string | undefined {
  return id === GENERATED_REQUIREMENT || `${PREFIX}${id}` === GENERATED_REQUIREMENT
    ? GENERATED_REQUIREMENT
    : undefined;
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
