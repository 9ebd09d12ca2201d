// The run options a host's CI adds to a run, as the report records them: which requirements were
// selected (--only, --skip), which failures a baseline excuses (--expected-failures) and which
// severities fail the exit code (--fail-on). Validation happens before any leg runs, so a
// mistyped id is a configuration error (exit 2), never a silently unexcused or unselected row.

import { LEGS } from '../legs.ts';
import { RULES } from '../witness/rules.ts';
import { judgeGatedFieldsShape } from '../witness/shape-leg.ts';

/** `must`: only MUST failures fail the exit code; `should`: SHOULD warnings fail it too. */
export type FailOn = 'must' | 'should';
export const FAIL_ON: readonly FailOn[] = ['must', 'should'];

/** One baseline entry: a requirement known to fail, or one rule of it, and why. */
export interface ExpectedFailure {
  readonly requirement: string;
  readonly rule?: string;
  readonly reason: string;
}

/** --only and --skip as given, each id in full; an empty `only` selects every requirement. */
export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/** A bad --only, --skip or baseline entry; its message is the one line the CLI prints (exit 2). */
export class RunOptionError extends Error {
  override readonly name = 'RunOptionError';
}

const PREFIX = 'openwop.requirement.0246.';

/** The full requirement id for `id` with or without its prefix, or undefined when none matches. */
export function knownRequirement(id: string): string | undefined {
  const full = id.startsWith(PREFIX) ? id : `${PREFIX}${id}`;
  return LEGS.some((l) => l.id === full) ? full : undefined;
}

/** Every rule id a requirement's findings can carry. */
export function knownRules(requirement: string): ReadonlySet<string> {
  const leg = LEGS.find((l) => l.id === requirement);
  if (leg === undefined) return new Set();
  // The server-free leg judges the schema alone; its rules are the findings it always produces.
  if (leg.fixtureId === undefined) return new Set(judgeGatedFieldsShape().map((f) => f.rule));
  return new Set([...RULES.map((r) => r.id), 'run.served']);
}

/** Resolves --only and --skip to full ids; throws on an unknown id or an empty selection. */
export function resolveSelection(only: readonly string[], skip: readonly string[]): Selection {
  const full = (flag: string) => (id: string) => {
    const known = knownRequirement(id);
    if (known === undefined) {
      throw new RunOptionError(
        `${flag} ${id} names no requirement of this suite; the requirements are ${LEGS.map((l) => l.id.slice(PREFIX.length)).join(', ')}`,
      );
    }
    return known;
  };
  const selection = {
    only: [...new Set(only.map(full('--only')))],
    skip: [...new Set(skip.map(full('--skip')))],
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
  if (selection.only.length > 0 && !selection.only.includes(id)) return false;
  return !selection.skip.includes(id);
}

export { NOT_SELECTED } from '../decide/decide.ts';

/**
 * Checks a parsed baseline document and returns its entries with full requirement ids. Every
 * problem throws with the entry's index, so the one line the CLI prints says which entry.
 */
export function readExpectedFailures(document: unknown): ExpectedFailure[] {
  const list = isRecord(document) ? document.expectedFailures : undefined;
  if (!Array.isArray(list) || Object.keys(document as object).length !== 1) {
    throw new RunOptionError(
      'the baseline must be {"expectedFailures": [{"requirement": ID, "rule"?: RULE, "reason": TEXT}, ...]} and nothing else',
    );
  }
  const entries = list.map((item: unknown, i) => readEntry(item, `expectedFailures[${i}]`));
  const keys = entries.map((e) => `${e.requirement} ${e.rule ?? '*'}`);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined)
    throw new RunOptionError(`the baseline lists ${twice} twice; list it once`);
  return entries;
}

function readEntry(item: unknown, at: string): ExpectedFailure {
  if (!isRecord(item)) throw new RunOptionError(`${at} is not an object`);
  const extra = Object.keys(item).filter((k) => !['requirement', 'rule', 'reason'].includes(k));
  if (extra.length > 0) {
    throw new RunOptionError(
      `${at} has ${extra.join(', ')}; an entry has requirement, rule and reason`,
    );
  }
  const { requirement, rule, reason } = item;
  if (typeof requirement !== 'string' || requirement === '') {
    throw new RunOptionError(`${at} needs a requirement id`);
  }
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new RunOptionError(
      `${at} (${requirement}) needs a reason: say why the failure is expected`,
    );
  }
  const full = knownRequirement(requirement);
  if (full === undefined) {
    throw new RunOptionError(`${at} names ${requirement}, which is no requirement of this suite`);
  }
  if (rule === undefined) return { requirement: full, reason };
  if (typeof rule !== 'string' || !knownRules(full).has(rule)) {
    throw new RunOptionError(`${at} names rule ${String(rule)}, which ${full} never checks`);
  }
  return { requirement: full, rule, reason };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
