// The passScore of a generated suite. Every trial scores 0 or 1, so every task mean is g/n and
// every gated aggregate c/(n·T) for n trials and T tasks. A passScore either sits exactly on
// such a mean where the value is exactly representable (a dyadic k/2^m, which a sum then a
// division reaches without rounding), or halfway between two achievable aggregates, at least
// 1/(2·n·T) from every mean, so no rounding can move a decision (docs/generated-suites.md).

import fc from 'fast-check';

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

export function passScoreArb(trials: number, tasks: number): fc.Arbitrary<number> {
  const steps = trials * tasks;
  const halfway = fc.integer({ min: 0, max: steps - 1 }).map((c) => (c + 0.5) / steps);
  const choices: fc.Arbitrary<number>[] = [fc.constantFrom(0, 1), halfway];
  if (isPowerOfTwo(trials)) {
    choices.push(fc.integer({ min: 0, max: trials }).map((k) => k / trials));
  }
  if (isPowerOfTwo(steps)) {
    choices.push(fc.integer({ min: 0, max: steps }).map((k) => k / steps));
  }
  return fc.oneof(...choices);
}
