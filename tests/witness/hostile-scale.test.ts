// The witness judges a large run in bounded CPU time. Kept apart from the hostile-shape tests
// because the bound holds for uninstrumented code only: the mutation run
// (mutation/vitest.mutation.config.ts) leaves this file out, `npm test` runs it.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { asObservation } from './build.ts';
import { largeRun } from './scale.ts';

/** CPU milliseconds this process has used so far. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe('scale', () => {
  it('judges 2,000 tasks × 10 trials cleanly in CPU time that grows linearly, not quadratically', () => {
    const { fixture, draft } = largeRun(2_000, 10);
    judgeEvalRun(largeRun(2, 2).fixture, asObservation(largeRun(2, 2).draft));
    const started = cpuMs();
    const findings = judgeEvalRun(fixture, asObservation(draft));
    const elapsed = cpuMs() - started;
    expect(findings.filter((f) => !f.ok)).toEqual([]);
    expect(findings.length).toBeGreaterThan(2_000 * 8);
    // CPU time, not wall time, so other processes on a busy machine do not count against it. A
    // linear judge takes well under a second here (about 650 ms on a loaded two-core machine); a
    // step that compared every task with every other (4 million pairs) would take seconds more.
    expect(elapsed).toBeLessThan(3_000);
  });
});
