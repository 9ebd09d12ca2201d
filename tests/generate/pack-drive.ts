// Drives a generated pack against a reference host over HTTP, strict, as the CLI would: the host
// seeds the pack's files from a directory and lists them; every case is gated, driven and judged
// by lib/decide/generated-pack.ts, and the host checks of the same run can follow. Shared by the
// pack tests and the smallest-pack search.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveGeneratedPack, type GeneratedCase } from '../../lib/decide/generated-pack.ts';
import { checkHost } from '../../lib/decide/host-checks.ts';
import { resolveConfig } from '../../lib/env.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { readDiscovery } from '../../lib/observe/discovery.ts';
import type { DriveClock } from '../../lib/observe/driver.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import type { HostChecks } from '../../lib/types.ts';
import { startReferenceHost, type DefectName } from '../../reference-host/index.ts';

const API_KEY = 'generated-pack-key-7';

/** A directory holding the first `count` fixtures of the seed's pack, and its removal. */
export async function packDir(
  count: number,
  seed: number,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'generated-pack-'));
  for (const fixture of generatePack({ count, seed })) {
    await writeFile(join(dir, `${fixture.id}.json`), JSON.stringify(fixture));
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** What one run of a pack shows: its cases, and the host checks the same run makes. */
export interface PackRun {
  readonly cases: GeneratedCase[];
  readonly hostChecks: HostChecks;
}

export interface PackRunOptions {
  readonly defect?: DefectName;
  /** The run deadline: short for a defect whose run never ends, so its case blocks in time. */
  readonly runTimeoutMs?: number;
  /** The clock each case's drive waits on; the process's unless the test skips its waits. */
  readonly clock?: DriveClock;
}

/**
 * The cases of the first `count` fixtures of the seed's pack on a reference host seeded from
 * `fixturesDir` (default: the shipped fixtures only), with `defect` if given.
 */
export async function drivePack(
  request: { count: number; seed: number },
  fixturesDir?: string,
  defect?: DefectName,
): Promise<GeneratedCase[]> {
  const options = defect === undefined ? {} : { defect };
  return (await runPack(request, fixturesDir, options, false)).cases;
}

/** The pack's cases and then, as `run` makes them, the host checks of the same run. */
export async function runPackWithHostChecks(
  request: { count: number; seed: number },
  fixturesDir: string,
  options: PackRunOptions,
): Promise<PackRun> {
  const { cases, hostChecks } = await runPack(request, fixturesDir, options, true);
  if (hostChecks === undefined) throw new Error('the host checks were not made');
  return { cases, hostChecks };
}

async function runPack(
  request: { count: number; seed: number },
  fixturesDir: string | undefined,
  options: PackRunOptions,
  withHostChecks: boolean,
): Promise<{ cases: GeneratedCase[]; hostChecks: HostChecks | undefined }> {
  const host = await startReferenceHost({
    apiKey: API_KEY,
    ...(fixturesDir === undefined ? {} : { fixturesDir }),
    ...(options.defect === undefined ? {} : { defect: options.defect }),
  });
  const config = resolveConfig({
    OPENWOP_BASE_URL: host.url,
    OPENWOP_API_KEY: API_KEY,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: '1',
    OPENWOP_RUN_TIMEOUT_MS: String(options.runTimeoutMs ?? 60_000),
  });
  const client = createHostClient({
    baseUrl: host.url,
    apiKey: API_KEY,
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  try {
    const discovery = await readDiscovery(client);
    const target = { client, discovery, config };
    const cases = await driveGeneratedPack(request, target, {}, undefined, options.clock);
    if (!withHostChecks) return { cases, hostChecks: undefined };
    const hostChecks = await checkHost({
      client,
      discovery,
      keyConfigured: true,
      knownRunId: cases.map((c) => c.decision.observation?.runId).find((id) => id !== undefined),
      timeoutMs: config.bounds.requestTimeoutMs,
    });
    return { cases, hostChecks };
  } finally {
    await client.close();
    await host.close();
  }
}
