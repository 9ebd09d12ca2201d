// `run --repeat N`: each requirement is driven N times, and a row whose disposition differs between
// repetitions is flaky. The row itself is the first repetition; the others are recorded on it
// (`repetitions`), each with what it observed, so `verify` decides every one again. What a row
// came to across them (stable or flaky, and the outcomes seen) is derived here from the rows, so
// it is rebuilt the same way wherever it is read.

/** The most repetitions a run may ask for: each one drives every requirement again. */
export const MAX_REPEAT = 20;

export type Stability = 'stable' | 'flaky';

export interface RepeatedRow {
  readonly requirement: string;
  readonly stability: Stability;
  /** Each disposition the repetitions came to, in the order first seen. */
  readonly outcomes: readonly string[];
  /** On a flaky row: whether a baseline entry's `outcomes` allows every outcome seen. */
  readonly allowed?: boolean;
}

export interface RepeatRecord {
  /** How many times every requirement was driven. */
  readonly count: number;
  readonly rows: readonly RepeatedRow[];
}

/** The facts of a row that its repetitions are read from. */
export interface RepeatFacts {
  readonly id: string;
  readonly disposition: string;
  readonly repetitions?: readonly { readonly disposition: string }[];
}

/** Every disposition a row came to, each once, in the order the repetitions saw them. */
export function outcomesOf(row: RepeatFacts): string[] {
  return [...new Set([row.disposition, ...(row.repetitions ?? []).map((r) => r.disposition)])];
}

export function isFlaky(row: RepeatFacts): boolean {
  return outcomesOf(row).length > 1;
}

/** `executed-pass, executed-fail`: the outcomes of a flaky row, for a line. */
export function outcomeList(row: Pick<RepeatedRow, 'outcomes'>): string {
  return row.outcomes.join(', ');
}

/**
 * The record of a repeated run; `allows` says whether a baseline entry allows a flaky row's
 * outcomes (lib/report/verdict/baseline.ts decides that).
 */
export function repeatRecord(
  count: number,
  rows: readonly RepeatFacts[],
  allows: (row: RepeatFacts) => boolean,
): RepeatRecord {
  return {
    count,
    rows: rows.map((row) => {
      const flaky = isFlaky(row);
      return {
        requirement: row.id,
        stability: flaky ? 'flaky' : 'stable',
        outcomes: outcomesOf(row),
        ...(flaky ? { allowed: allows(row) } : {}),
      };
    }),
  };
}
