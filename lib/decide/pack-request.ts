// What `run --generate` asks for, apart from the generator itself, so the legs file can plan the
// generated leg without loading fast-check on a run that requests no pack.

import type { PackSelection } from '../generate/pack.ts';

export interface PackRequest {
  readonly count: number;
  readonly seed: number;
  /** `--case ID`: the one case of the pack driven, alone, as a run of its own. */
  readonly case?: string;
  /** `--concurrency N`: how many cases are in flight at once; absent: PACK_CONCURRENCY. */
  readonly concurrency?: number;
  /** The generator version that draws the pack; absent: the current one. */
  readonly generator?: number;
}

/**
 * How many generated runs are in flight at once by default. Against the reference host as its own
 * process on two cores, four in flight is where the rate stops growing: from two to four it rose
 * by half while a case's time grew by a quarter; from four to eight it rose within the noise while
 * a case's time grew by three quarters, the cases queueing behind each other (the figures are in
 * docs/generated-suites.md).
 */
export const PACK_CONCURRENCY = 4;

/** The most `--concurrency` accepts: beyond it a run opens more connections than it gains. */
export const MAX_PACK_CONCURRENCY = 64;

/**
 * The selection alone, whatever else `of` carries (a run's concurrency, a record's sidecar), with
 * the generator version when `of` names one.
 */
export function packSelection(of: PackSelection): PackSelection {
  return {
    seed: of.seed,
    count: of.count,
    ...(of.case === undefined ? {} : { case: of.case }),
    ...(of.generator === undefined ? {} : { generator: of.generator }),
  };
}
