// A pack's progress and cost on clocks the test holds: the live line counts cases, failures, rate
// and time left; the cost line divides the pack's wall time, case time and CPU by its cases and
// says when the CPU is the embedded host's too; a terminal gets a redrawn line, a log a line per
// interval, and neither timer holds the process open or reports after it is stopped.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GeneratedCase } from '../../lib/decide/generated-pack.ts';
import type { Disposition } from '../../lib/types.ts';
import {
  costLineOf,
  LIVE_INTERVAL_MS,
  PackProgress,
  progressLineOf,
  showPackProgress,
} from '../../lib/decide/pack-progress.ts';

function decided(disposition: Disposition): GeneratedCase {
  return {
    fixtureId: 'generated-s1-n0001',
    seed: 1,
    file: 'generated-s1-n0001.json',
    decision: { disposition, assertions: 1, findings: [] },
  };
}

/** A progress on a clock the test moves: `at` milliseconds of wall time, `cpu` of CPU. */
function held(): { progress: PackProgress; at: (ms: number, cpuMs: number) => void } {
  let now = 0;
  let cpu = 0;
  const progress = new PackProgress({ now: () => now, cpuMicros: () => cpu * 1000 });
  return {
    progress,
    at: (ms, cpuMs) => {
      now = ms;
      cpu = cpuMs;
    },
  };
}

describe('PackProgress', () => {
  it('counts decided and failed cases, and prices the rest at the rate so far', () => {
    const { progress, at } = held();
    at(1_000, 50);
    progress.watch.started?.(200, 4);
    progress.watch.decided?.(decided('executed-pass'), 100);
    progress.watch.decided?.(decided('executed-fail'), 300);
    progress.watch.decided?.(decided('blocked'), 200);
    progress.watch.decided?.(decided('executed-pass'), 200);
    at(3_000, 90);
    expect(progressLineOf(progress.standing())).toBe(
      'generated pack: 4 of 200 cases, 1 failed, 2.0 cases/s, about 1 min 38 s left',
    );
    expect(progress.running).toBe(true);
  });

  it('knows no time left before the first case is decided', () => {
    const { progress, at } = held();
    progress.watch.started?.(10, 4);
    at(500, 0);
    expect(progressLineOf(progress.standing())).toBe(
      'generated pack: 0 of 10 cases, 0 failed, 0.0 cases/s, time left unknown',
    );
  });

  it('prices a finished pack per case: wall, case time and CPU, frozen at the finish', () => {
    const { progress, at } = held();
    at(0, 100);
    progress.watch.started?.(4, 4);
    for (const ms of [100, 120, 140, 160]) progress.watch.decided?.(decided('executed-pass'), ms);
    at(2_000, 148);
    progress.watch.finished?.();
    at(9_000, 500);
    expect(progress.running).toBe(false);
    expect(costLineOf(progress.standing(), false)).toBe(
      "generated pack: 4 cases in 2.0 s at concurrency 4 (2.0 cases/s); a case took 130 ms from its first request to its verdict (the host's time, mostly); the suite used 12 ms of CPU a case",
    );
    expect(costLineOf(progress.standing(), true)).toMatch(
      /; this process, which also runs the embedded reference host, used 12 ms of CPU a case$/,
    );
  });
});

describe('a pack that took minutes', () => {
  it('reads its wall time in whole minutes and seconds, rounded before it is split', () => {
    for (const [ms, words] of [
      [119_600, '2 min 0 s'],
      [59_600, '1 min 0 s'],
      [61_400, '1 min 1 s'],
      [9_940, '9.9 s'],
    ] as const) {
      const { progress, at } = held();
      at(0, 0);
      progress.watch.started?.(1, 1);
      progress.watch.decided?.(decided('executed-pass'), 10);
      at(ms, 0);
      progress.watch.finished?.();
      expect(costLineOf(progress.standing(), false)).toContain(`1 case in ${words} at`);
    }
  });
});

describe('showPackProgress', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function running(): PackProgress {
    const progress = new PackProgress({ now: () => Date.now(), cpuMicros: () => 0 });
    progress.watch.started?.(3, 2);
    return progress;
  }

  it('without a terminal, logs a plain line once an interval while the pack runs, never after', () => {
    vi.useFakeTimers();
    const progress = running();
    const logged: string[] = [];
    const stop = showPackProgress(progress, { log: (l) => logged.push(l), intervalMs: 10_000 });
    vi.advanceTimersByTime(9_999);
    expect(logged).toEqual([]);
    progress.watch.decided?.(decided('executed-fail'), 5);
    vi.advanceTimersByTime(1);
    expect(logged).toEqual([expect.stringMatching(/^generated pack: 1 of 3 cases, 1 failed, /)]);
    progress.watch.finished?.();
    vi.advanceTimersByTime(30_000);
    expect(logged).toHaveLength(1);
    stop();
  });

  it('on a terminal, redraws the live line and logs nothing; stopped, it draws no more', () => {
    vi.useFakeTimers();
    const progress = running();
    const logged: string[] = [];
    const drawn: string[] = [];
    const stop = showPackProgress(progress, {
      live: (l) => drawn.push(l),
      log: (l) => logged.push(l),
      intervalMs: 10_000,
    });
    vi.advanceTimersByTime(LIVE_INTERVAL_MS);
    expect(drawn).toEqual([expect.stringMatching(/^generated pack: 0 of 3 cases, 0 failed, /)]);
    stop();
    vi.advanceTimersByTime(10 * LIVE_INTERVAL_MS);
    expect(drawn).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it('never holds the process open: its timer is unreferenced', () => {
    const spy = vi.spyOn(globalThis, 'setInterval');
    try {
      const stop = showPackProgress(running(), { log: () => undefined, intervalMs: 10_000 });
      const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      stop();
    } finally {
      spy.mockRestore();
    }
  });
});
