// The generated leg with a sink, as `run` drives it: every case's record goes to the sink in pack
// order as it finishes, the row keeps no case (only the tally, one finding a rule and the smallest
// cases), and the pool never holds more than its window of cases, at 12 cases or at 60. Driven
// against the reference host seeded with the pack, with one defect so cases fail.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePackFiles } from '../../cli/fixture-set.ts';
import { runGeneratedLeg, type CaseSink } from '../../lib/decide/generated-leg.ts';
import { streamGeneratedPack } from '../../lib/decide/generated-pack.ts';
import { openTarget } from '../../lib/decide/target.ts';
import type { LegTarget } from '../../lib/decide/leg-target.ts';
import { resolveConfig } from '../../lib/env.ts';
import { packFixtures } from '../../lib/generate/pack.ts';
import type { GeneratedCaseRecord } from '../../lib/types.ts';
import { startReferenceHost, type ReferenceHost } from '../../reference-host/index.ts';

const KEY = 'pack-sink-key-0246';
const SEED = 7;
const LARGEST = 60;

let dir = '';
let host: ReferenceHost;
let target: LegTarget;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pack-sink-'));
  await writePackFiles(dir, packFixtures({ count: LARGEST, seed: SEED }));
  host = await startReferenceHost({
    apiKey: KEY,
    defect: 'score-zeroed',
    extraFixturesDirs: [dir],
  });
  const config = resolveConfig({
    OPENWOP_BASE_URL: host.url,
    OPENWOP_API_KEY: KEY,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: '1',
  });
  const opened = await openTarget(config);
  if (opened === undefined) throw new Error('no target');
  target = opened;
}, 60_000);
afterAll(async () => {
  await target.client.close();
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A sink that keeps the fixture ids it was handed, in order, and a made-up file record. */
function recordingSink(): { sink: CaseSink; ids: string[] } {
  const ids: string[] = [];
  return {
    ids,
    sink: {
      write: (record: GeneratedCaseRecord) => {
        ids.push(record.fixtureId);
        return Promise.resolve();
      },
      close: () => Promise.resolve({ file: 'cases.jsonl.gz', sha256: '0'.repeat(64), bytes: 0 }),
    },
  };
}

describe('runGeneratedLeg with a sink', () => {
  it('hands every case to the sink in pack order and records only the tally on the row', async () => {
    const { sink, ids } = recordingSink();
    const outcome = await runGeneratedLeg({ count: 12, seed: SEED }, target, () =>
      Promise.resolve(sink),
    );
    expect(ids).toEqual([...packFixtures({ count: 12, seed: SEED })].map((f) => f.id));
    const pack = outcome.generated;
    if (pack === undefined || 'cases' in pack) throw new Error('the row records no streamed pack');
    expect(pack.sidecar.file).toBe('cases.jsonl.gz');
    expect(Object.values(pack.tally).reduce((a, b) => a + b, 0)).toBe(12);
    expect(pack.tally['executed-fail']).toBeGreaterThan(0);
    expect(outcome.disposition).toBe('executed-fail');
    // One finding a rule, not every case's: the row does not grow with the pack.
    const rules = outcome.findings.map((f) => f.rule);
    expect(rules).toHaveLength(new Set(rules).size);
    for (const s of pack.smallest) expect(ids).toContain(s.fixtureId);
  }, 120_000);

  it('holds no more than its window of cases at 12 cases or at 60', async () => {
    const held: number[] = [];
    for (const count of [12, LARGEST]) {
      let handed = 0;
      const stats = await streamGeneratedPack({ count, seed: SEED, concurrency: 2 }, target, () => {
        handed += 1;
      });
      expect(handed).toBe(count);
      held.push(stats.peakHeld);
    }
    // Two at a time, a window of eight: the same bound whatever the pack's size.
    expect(Math.max(...held)).toBeLessThanOrEqual(8);
  }, 120_000);
});
