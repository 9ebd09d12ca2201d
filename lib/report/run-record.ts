// The report's record of the run options a CI job added (contract §10): the selection, the
// baseline with what it excused, and the severity gate. Built from the rows, so `verify` can
// rebuild it and compare.

import { LEGS } from '../legs.ts';
import type { BaselineContext, Fault, ResolvedEntry, RowFacts } from './verdict/baseline.ts';
import { allowsOutcomes, isExpired, resolveBaseline } from './verdict/baseline.ts';
import type { RepeatRecord } from './verdict/repeat.ts';
import { repeatRecord } from './verdict/repeat.ts';
import type { SeverityOverride } from './verdict/severity.ts';
import type { ExpectedFailure, FailOn, Selection } from './run-options.ts';
import { selectedIds } from './run-options.ts';

export interface BaselineRecord {
  /** The file as the run was given it. */
  readonly file: string;
  /** SHA-256 of the file's bytes, lowercase hex. */
  readonly sha256: string;
  readonly entries: readonly ResolvedEntry[];
  /** Each failure this run had that an entry excused. */
  readonly excused: readonly Fault[];
  /** The file's scoped severities, each with its reason; absent when it sets none. */
  readonly severity?: readonly SeverityOverride[];
}

export interface SelectionRecord extends Selection {
  /** The requirements the selection ran, in the order of the legs. */
  readonly selected: readonly string[];
}

export interface RunRecord {
  readonly failOn: FailOn;
  readonly selection?: SelectionRecord;
  readonly baseline?: BaselineRecord;
  /** Present when --repeat drove every requirement more than once. */
  readonly repeat?: RepeatRecord;
}

export interface RunOptions {
  readonly failOn?: FailOn;
  readonly selection?: Selection;
  readonly baseline?: {
    readonly file: string;
    readonly sha256: string;
    readonly entries: readonly ExpectedFailure[];
    readonly severity?: readonly SeverityOverride[];
  };
  /** --repeat: how many times every requirement is driven; 1 (or absent) is once. */
  readonly repeat?: number;
}

export function runRecord(
  options: RunOptions,
  rows: readonly RowFacts[],
  context: BaselineContext = {},
): RunRecord {
  const failOn = options.failOn ?? 'must';
  const selection =
    options.selection === undefined
      ? undefined
      : { ...options.selection, selected: selectedIds(options.selection) };
  const severity = options.baseline?.severity ?? [];
  const judged: BaselineContext =
    severity.length === 0 ? context : { ...context, overrides: severity };
  const baseline =
    options.baseline === undefined
      ? undefined
      : baselineRecord(options.baseline, rows, failOn, judged);
  const live = (options.baseline?.entries ?? []).filter((e) => !isExpired(e, context.day));
  const repeat =
    options.repeat === undefined || options.repeat < 2
      ? undefined
      : repeatRecord(options.repeat, rows, (row) => live.some((e) => allowsOutcomes(e, row)));
  return {
    failOn,
    ...(selection === undefined ? {} : { selection }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(repeat === undefined ? {} : { repeat }),
  };
}

function baselineRecord(
  given: NonNullable<RunOptions['baseline']>,
  rows: readonly RowFacts[],
  failOn: FailOn,
  context: BaselineContext,
): BaselineRecord {
  const resolved = resolveBaseline(given.entries, rows, failOn, context);
  return {
    file: given.file,
    sha256: given.sha256,
    entries: resolved.entries,
    excused: resolved.excused,
    ...(context.overrides === undefined ? {} : { severity: context.overrides }),
  };
}

/** A selection that leaves a requirement out is partial (an explicit full selection is not). */
export function isPartial(selection: Pick<SelectionRecord, 'selected'> | undefined): boolean {
  return selection !== undefined && selection.selected.length < LEGS.length;
}
