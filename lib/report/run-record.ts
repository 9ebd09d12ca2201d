// The report's record of the run options a CI job added (contract §10): the selection, the
// baseline with what it excused, and the severity gate. Built from the rows, so `verify` can
// rebuild it and compare.

import { LEGS } from '../legs.ts';
import type {
  BaselineContext,
  Fault,
  Resolution,
  ResolvedEntry,
  RowFacts,
} from './verdict/baseline.ts';
import { resolveBaseline } from './verdict/baseline.ts';
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
  // The run's one resolution of its baseline: the record below is all any reader takes from it.
  const resolved = resolveBaseline(
    options.baseline?.entries ?? [],
    rows,
    failOn,
    judgedContext(options, context),
  );
  const baseline =
    options.baseline === undefined ? undefined : baselineRecord(options.baseline, resolved);
  const allowed = new Set(resolved.allowedFlaky.map((f) => f.requirement));
  const repeat =
    options.repeat === undefined || options.repeat < 2
      ? undefined
      : repeatRecord(options.repeat, rows, (row) => allowed.has(row.id));
  return {
    failOn,
    ...(selection === undefined ? {} : { selection }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(repeat === undefined ? {} : { repeat }),
  };
}

/** The context a baseline is judged in: the run's, with the file's scoped severities. */
function judgedContext(options: RunOptions, context: BaselineContext): BaselineContext {
  const severity = options.baseline?.severity ?? [];
  return severity.length === 0 ? context : { ...context, overrides: severity };
}

function baselineRecord(
  given: NonNullable<RunOptions['baseline']>,
  resolved: Resolution,
): BaselineRecord {
  const severity = given.severity ?? [];
  return {
    file: given.file,
    sha256: given.sha256,
    entries: resolved.entries,
    excused: resolved.excused,
    ...(severity.length === 0 ? {} : { severity }),
  };
}

/** A selection that leaves a requirement out is partial (an explicit full selection is not). */
export function isPartial(selection: Pick<SelectionRecord, 'selected'> | undefined): boolean {
  return selection !== undefined && selection.selected.length < LEGS.length;
}
