// Drives a generated pack against a reference host over HTTP, strict, as the CLI would: the host
// seeds the pack's files from a directory and lists them; every case is gated, driven and judged
// by lib/decide/generated-pack.ts. Shared by the pack tests and the smallest-pack search.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveGeneratedPack, type GeneratedCase } from '../../lib/decide/generated-pack.ts';
import type { LegTarget } from '../../lib/decide/leg-target.ts';
import { resolveConfig } from '../../lib/env.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { fetchDiscovery, forgetDiscoveries } from '../../lib/observe/discovery.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
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

/**
 * The cases of the first `count` fixtures of the seed's pack on a reference host seeded from
 * `fixturesDir` (default: the shipped fixtures only), with `defect` if given.
 */
export async function drivePack(
  request: { count: number; seed: number },
  fixturesDir?: string,
  defect?: DefectName,
): Promise<GeneratedCase[]> {
  const host = await startReferenceHost({
    apiKey: API_KEY,
    ...(fixturesDir === undefined ? {} : { fixturesDir }),
    ...(defect === undefined ? {} : { defect }),
  });
  const config = resolveConfig({
    OPENWOP_BASE_URL: host.url,
    OPENWOP_API_KEY: API_KEY,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: '1',
    OPENWOP_RUN_TIMEOUT_MS: '60000',
  });
  const client = createHostClient({
    baseUrl: host.url,
    apiKey: API_KEY,
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  try {
    forgetDiscoveries();
    const target: LegTarget = { client, discovery: await fetchDiscovery(client, host.url), config };
    return await driveGeneratedPack(request, target);
  } finally {
    await client.close();
    await host.close();
  }
}
