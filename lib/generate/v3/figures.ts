// The stated cost and latency of generated trials, and the suite limits placed on them
// (RFC 0246 §B keeps both conditions; contract §3 [0244-assumed] fixes the figures). The cost
// condition is defined on the run's total (docs/decisions.md), so a cost limit may sit anywhere,
// including between the costliest trial and the total, where a per-trial reading is caught. A
// latency limit is placed only where nearest-rank, interpolated and maximum readings of the 95th
// percentile of the trial latencies agree (docs/generated-suites.md).

import fc from 'fast-check';
import type { ScriptedTrial, SuiteThresholds } from '../../types.ts';

/** Costs are multiples of 1/256 dollar, so every sum is exact and a total can sit on a limit. */
export const COST_UNIT = 1 / 256;

/** Whether a suite states a figure, and where its limit sits: above, on, or below the figures. */
export const LIMIT_PLACES = ['unstated', 'stated', 'above', 'on', 'below'] as const;
export type LimitPlace = (typeof LIMIT_PLACES)[number];
/** A cost limit may also sit on the costliest trial while the total exceeds it. */
export const COST_PLACES = [...LIMIT_PLACES, 'between'] as const;
export type CostPlace = (typeof COST_PLACES)[number];

export interface EntryFigures {
  /** In cost units, 1–32. */
  readonly cost: number;
  /** Whether the trial takes the suite's longest latency, the tail every p95 reading lands on. */
  readonly tail: boolean;
  /** A latency below the tail, in ms. */
  readonly lower: number;
}

export const entryFiguresArb: fc.Arbitrary<EntryFigures> = fc.record({
  cost: fc.integer({ min: 1, max: 32 }),
  tail: fc.boolean(),
  lower: fc.integer({ min: 2, max: 30 }).map((n) => n * 50),
});

export interface SuiteFigures {
  readonly cost: CostPlace;
  readonly latency: LimitPlace;
  /** The longest latency, in ms; every lower one is below it. */
  readonly tail: number;
}

export const suiteFiguresArb: fc.Arbitrary<SuiteFigures> = fc.record({
  cost: fc.constantFrom(...COST_PLACES),
  latency: fc.constantFrom(...LIMIT_PLACES),
  tail: fc.integer({ min: 31, max: 60 }).map((n) => n * 50),
});

/** The stated members of one script entry. */
export function statedFigures(
  figures: SuiteFigures,
  entry: EntryFigures,
): Pick<ScriptedTrial, 'costUsd' | 'latencyMs'> {
  return {
    ...(figures.cost === 'unstated' ? {} : { costUsd: entry.cost * COST_UNIT }),
    ...(figures.latency === 'unstated'
      ? {}
      : { latencyMs: entry.tail ? figures.tail : entry.lower }),
  };
}

/**
 * Every percentile reading of n latencies (nearest rank, linear interpolation, the maximum) lands
 * on the longest one when at least this many trials take it: the interpolated reading reaches
 * down to rank ⌊0.95·(n−1)⌋, and this keeps a margin for exclusive-rank methods too.
 */
export function tailNeeded(n: number): number {
  return Math.min(n, Math.max(2, Math.ceil(0.1 * n) + 1));
}

/**
 * The limits, from the figures every trial of the run states (`trials`, one per trial run).
 * `above` holds under every reading, `on` sits exactly on the total cost or the longest latency
 * (holding, inclusive), and `below` fails under every reading: under the cheapest trial's cost,
 * and just under the longest latency when enough trials take it, else under the shortest.
 * `between` puts the cost limit on the costliest trial, so only the total exceeds it; with one
 * trial there is no such place, and it falls back to `below`.
 */
export function limitsFor(
  figures: SuiteFigures,
  trials: readonly Pick<ScriptedTrial, 'costUsd' | 'latencyMs'>[],
): Pick<SuiteThresholds, 'maxCostUsd' | 'maxP95LatencyMs'> {
  const costs = trials.map((t) => t.costUsd ?? 0);
  const latencies = trials.map((t) => t.latencyMs ?? 0);
  const total = costs.reduce((a, b) => a + b, 0);
  const longest = Math.max(...latencies);
  const atLongest = latencies.filter((l) => l === longest).length;
  const cost = {
    above: total + 32 * COST_UNIT,
    on: total,
    below: Math.min(...costs) / 2,
    between: costs.length > 1 ? Math.max(...costs) : Math.min(...costs) / 2,
  };
  const latency = {
    above: longest + 50,
    on: longest,
    below: atLongest >= tailNeeded(latencies.length) ? longest - 1 : Math.min(...latencies) - 1,
  };
  const place = (p: LimitPlace): p is 'above' | 'on' | 'below' =>
    p === 'above' || p === 'on' || p === 'below';
  const costPlace = (p: CostPlace): p is 'above' | 'on' | 'below' | 'between' =>
    p === 'between' || place(p);
  return {
    ...(costPlace(figures.cost) ? { maxCostUsd: cost[figures.cost] } : {}),
    ...(place(figures.latency) ? { maxP95LatencyMs: latency[figures.latency] } : {}),
  };
}
