// Legs that drive independent runs overlap: every host leg on one shared target has its run open at
// the same moment. This is the property the run engine (lib/decide/run-suite.ts) relies on when it
// starts every leg at once. A generated pack overlaps as far as its concurrency allows: each case is
// judged while the others' runs are played. The host holds each run open at its end until as many
// are open as the overlap needs (tests/support/run-barrier.ts), so the verdict rests on which runs
// were open together, never on how long the machine took.

import { afterEach, describe, expect, it } from 'vitest';
import { driveGeneratedPack } from '../../lib/decide/generated-pack.ts';
import { packDir } from '../generate/pack-drive.ts';
import { readConfig } from '../../lib/env.ts';
import { LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { runBarrier, type RunBarrier } from '../support/run-barrier.ts';

const API_KEY = 'perf-concurrency-key-0246';
/** Ends a wait the runs never end; a driver that overlaps them ends it long before, at any load. */
const GUARD_MS = 40_000;

let barrier: RunBarrier | undefined;
afterEach(() => barrier?.close());

describe('concurrent legs', () => {
  it('the host legs on one target have their runs open at once, not one after another', async () => {
    const hostLegs = LEGS.filter((leg) => leg.fixtureId !== undefined);
    // Each host leg drives one run: every run is held until all of them are open together.
    barrier = runBarrier({ awaited: () => hostLegs.length, all: true, guardMs: GUARD_MS });
    const host = await startReferenceHost({ apiKey: API_KEY, runGate: barrier.gate });
    const config = readConfig(
      { OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: API_KEY },
      { envFile: false },
    );
    const target = await openTarget(config);
    try {
      if (target === undefined) throw new Error('the target did not open');
      const outcomes = await Promise.all(hostLegs.map((leg) => runLeg(leg, target)));

      expect(outcomes.map((o) => o.disposition)).toEqual(hostLegs.map(() => 'executed-pass'));
      expect(barrier.guarded()).toBe(false);
      expect(barrier.mostHeld()).toBe(hostLegs.length);
    } finally {
      await target?.client.close();
      await host.close();
    }
  }, 90_000);
});

describe('a generated pack at a set concurrency', () => {
  it('8 cases at concurrency 4 keep four runs open while the others are judged', async () => {
    const pack = await packDir(8, 1);
    // The oldest run ends once four are open (as many as are left, at the tail), so a driver that
    // ran its cases one after another, or two at a time, would never let a run end.
    barrier = runBarrier({ awaited: (ended) => Math.min(4, 8 - ended), guardMs: GUARD_MS });
    const host = await startReferenceHost({
      apiKey: API_KEY,
      runGate: barrier.gate,
      extraFixturesDirs: [pack.dir],
    });
    const config = readConfig(
      { OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: API_KEY, OPENWOP_REQUIRE_BEHAVIOR: 'true' },
      { envFile: false },
    );
    const target = await openTarget(config);
    const started: number[][] = [];
    try {
      if (target === undefined) throw new Error('the target did not open');
      const cases = await driveGeneratedPack({ count: 8, seed: 1, concurrency: 4 }, target, {
        started: (total, concurrency) => started.push([total, concurrency]),
      });

      expect(cases.map((c) => c.decision.disposition)).toEqual(cases.map(() => 'executed-pass'));
      expect(started).toEqual([[8, 4]]);
      expect(barrier.guarded()).toBe(false);
      expect(barrier.mostHeld()).toBe(4);
    } finally {
      await target?.client.close();
      await host.close();
      await pack.remove();
    }
  }, 90_000);
});
