// verify off a terminal says how far a long sidecar replay is: one line at most every five
// seconds of the clock it is given, never one per progress report. Driven with a fake clock.

import { describe, expect, it } from 'vitest';
import { throttledProgress, VERIFY_PROGRESS_INTERVAL_MS } from '../../cli/verify-progress.ts';

describe("verify's progress off a terminal", () => {
  it('prints a line only once the interval has passed since the last, whatever the report rate', () => {
    let t = 1_000_000;
    const printed: string[] = [];
    const progress = throttledProgress(
      (line) => printed.push(line),
      () => t,
    );
    // A progress report every 500 lines, a second apart: 158 of them, as a 10,000-case report's
    // replay could take 158 s.
    for (let i = 1; i <= 158; i += 1) {
      t += 1_000;
      progress('eval-gate-generated.jsonl.gz', i * 500, i * 40_000);
    }
    expect(printed.length).toBe(Math.floor(158_000 / VERIFY_PROGRESS_INTERVAL_MS));
    expect(printed[0]).toBe(
      'verify: replaying eval-gate-generated.jsonl.gz: 2500 lines, 200000 bytes read',
    );
  });

  it('prints nothing while the clock stands still, and nothing before the first interval', () => {
    const printed: string[] = [];
    const still = throttledProgress(
      (line) => printed.push(line),
      () => 0,
    );
    for (let i = 0; i < 100; i += 1) still('f', i, i);
    let t = 0;
    const early = throttledProgress(
      (line) => printed.push(line),
      () => t,
    );
    t = VERIFY_PROGRESS_INTERVAL_MS - 1;
    early('f', 1, 1);
    expect(printed).toEqual([]);
    t = VERIFY_PROGRESS_INTERVAL_MS;
    early('f', 2, 2);
    expect(printed).toEqual(['verify: replaying f: 2 lines, 2 bytes read']);
  });
});
