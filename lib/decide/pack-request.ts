// What `run --generate` asks for, apart from the generator itself, so the legs file can plan the
// generated leg without loading fast-check on a run that requests no pack.

export interface PackRequest {
  readonly count: number;
  readonly seed: number;
}

/** How many generated runs are in flight at once: enough to overlap a slow host's run time. */
export const PACK_CONCURRENCY = 8;
