// The passScore of a generated suite. Every trial scores 0 or 1, so every task mean is g/n and
// every gated aggregate c/(n·T) for n trials and T tasks. A passScore either sits exactly on
// such a mean where the value is exactly representable (a dyadic k/2^m, which a sum then a
// division reaches without rounding), or halfway between two achievable aggregates, at least
// 1/(2·n·T) from every mean, so no rounding can move a decision (docs/generated-suites.md).

import fc from 'fast-check';

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/** A choice among the places below and a number that picks within it; both shrink to 0. */
export const passScorePlanArb = fc.record({ place: fc.nat({ max: 4 }), k: fc.nat() });
export type PassScorePlan = typeof passScorePlanArb extends fc.Arbitrary<infer T> ? T : never;

/** The passScore a plan names for a suite of `tasks` tasks of `trials` trials. */
export function passScoreOf(plan: PassScorePlan, trials: number, tasks: number): number {
  const steps = trials * tasks;
  const places: ((k: number) => number)[] = [() => 0, () => 1, (k) => ((k % steps) + 0.5) / steps];
  if (isPowerOfTwo(trials)) places.push((k) => (k % (trials + 1)) / trials);
  if (isPowerOfTwo(steps)) places.push((k) => (k % (steps + 1)) / steps);
  const place = places[plan.place % places.length] ?? places[0];
  return place === undefined ? 0 : place(plan.k);
}
