// Small numeric helpers for the benchmark: summaries of repeated samples, paired ratios, a seeded
// random source and a forced garbage collection, so that each timed sample starts from the same
// heap state instead of paying for the garbage of the one before.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Summary {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly count: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('cannot summarize zero samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return {
    min: sorted[0] ?? 0,
    median,
    max: sorted.at(-1) ?? 0,
    count: sorted.length,
  };
}

/** Element-wise `top[i] / bottom[i]` for samples taken side by side in the same round. */
export function pairedRatios(top: readonly number[], bottom: readonly number[]): number[] {
  if (top.length !== bottom.length) throw new Error('paired samples must have equal lengths');
  return top.map((t, i) => t / Math.max(bottom[i] ?? 0, Number.EPSILON));
}

/** mulberry32: reproducible jitter, so two bench runs sample the same phases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let collector: (() => void) | undefined;

/**
 * Runs a full garbage collection. `npm run bench` starts node without --expose-gc, so the flag
 * is set at run time and the function fetched from a fresh context, where it then appears.
 */
export function collectGarbage(): void {
  if (collector === undefined) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** `12.3` for ms-scale values, `0.0123` for tiny ones: three significant figures either way. */
export function fmt(value: number): string {
  if (value === 0) return '0';
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(digits, 4));
}

export function fmtSummary(s: Summary): string {
  return `${fmt(s.min)} / ${fmt(s.median)} / ${fmt(s.max)}`;
}
