// Legs that drive independent runs overlap: against a host whose runs each take T, every host leg
// on one shared target finishes in about T, not T once per leg. This is the property the run
// engine (lib/decide/run-suite.ts) relies on when it starts every leg at once. A generated pack
// overlaps as far as its concurrency allows and no further: each case is judged while the others'
// runs are played.

import { describe, expect, it } from 'vitest';
import { driveGeneratedPack } from '../../lib/decide/generated-pack.ts';
import { packDir } from '../generate/pack-drive.ts';
import { readConfig } from '../../lib/env.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import { SCHEMA_NAMES, validate } from '../../lib/schemas.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { startReferenceHost } from '../../reference-host/index.ts';

// Long enough that judging every leg's run, which shares two busy cores, stays well inside the
// 2.5 × margin below however many host legs there are; one after another they would take 9 × or more.
const RUN_MS = 1000;
const API_KEY = 'perf-concurrency-key-0246';

describe('concurrent legs', () => {
  it('the host legs on one target take about one run between them, not one run each', async () => {
    const hostLegs = LEGS.filter((leg) => leg.fixtureId !== undefined);
    // Schema compilation and fixture reads are once-per-process costs, not part of the overlap.
    for (const name of SCHEMA_NAMES) validate(name, {});
    for (const leg of hostLegs) await loadFixture(leg.fixtureId ?? '');

    const host = await startReferenceHost({ apiKey: API_KEY, runDelayMs: RUN_MS });
    const config = readConfig(
      { OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: API_KEY },
      { envFile: false },
    );
    const target = await openTarget(config);
    try {
      const started = performance.now();
      const outcomes = await Promise.all(hostLegs.map((leg) => runLeg(leg, target)));
      const wall = performance.now() - started;

      expect(outcomes.map((o) => o.disposition)).toEqual(hostLegs.map(() => 'executed-pass'));
      expect(Math.min(...outcomes.map((o) => o.durationMs))).toBeGreaterThanOrEqual(RUN_MS);
      // Run one after another they would need one RUN_MS per leg; 2.5 × leaves room for a busy machine.
      expect(wall).toBeLessThan(2.5 * RUN_MS);
    } finally {
      await target?.client.close();
      await host.close();
    }
  });
});

describe('a generated pack at a set concurrency', () => {
  it('8 cases at concurrency 4 take about two runs: never fewer, and far fewer than eight', async () => {
    const pack = await packDir(8, 1);
    const host = await startReferenceHost({
      apiKey: API_KEY,
      runDelayMs: RUN_MS,
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
      const began = performance.now();
      const cases = await driveGeneratedPack({ count: 8, seed: 1, concurrency: 4 }, target, {
        started: (total, concurrency) => started.push([total, concurrency]),
      });
      const wall = performance.now() - began;

      expect(cases.map((c) => c.decision.disposition)).toEqual(cases.map(() => 'executed-pass'));
      expect(started).toEqual([[8, 4]]);
      // At most four runs in flight: two rounds of runs, each at least RUN_MS.
      expect(wall).toBeGreaterThanOrEqual(2 * RUN_MS);
      // One after another they would need eight runs at least; six and a half leave room for load.
      expect(wall).toBeLessThan(6.5 * RUN_MS);
    } finally {
      await target?.client.close();
      await host.close();
      await pack.remove();
    }
  });
});
