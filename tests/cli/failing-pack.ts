// A run whose generated pack fails, for the tests that show a failing case on a page: a pack of
// three cases seeded on a reference host with the one defect score-zeroed, driven in strict mode.
// The run's report, its page and the sidecar its cases stream to are left in `reportDir`; the host
// stays up as long as `kept` keeps it, so a later verify reads its discovery and no other.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { writePackFiles } from '../../cli/fixture-set.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import type { AddressKeeper } from '../support/kept-addresses.ts';
import { cli, LEAKY_KEY } from './support.ts';

/** The pack's seed and size, as the run's flags give them. */
export const FAILING_PACK = { count: 3, seed: 7 } as const;

/** Runs the failing pack with its report in `reportDir`; returns the host's address it ran at. */
export async function runFailingPack(
  scratch: string,
  reportDir: string,
  kept: AddressKeeper,
): Promise<string> {
  const packDir = join(scratch, 'failing-pack-fixtures');
  await mkdir(packDir, { recursive: true });
  await writePackFiles(packDir, generatePack(FAILING_PACK));
  const host = await kept.host({
    apiKey: LEAKY_KEY,
    defect: 'score-zeroed',
    extraFixturesDirs: [packDir],
  });
  const argv = ['--base-url', host.url, '--report-dir', reportDir, '--require-behavior'];
  const pack = ['--generate', String(FAILING_PACK.count), '--seed', String(FAILING_PACK.seed)];
  const run = await cli([...argv, ...pack], { OPENWOP_API_KEY: LEAKY_KEY });
  expect(run.code, run.stderr.join('\n')).toBe(1);
  return host.url;
}

/** A page's first failing generated case: from its opening tag to the next block's. */
export function firstFailingCase(html: string): string {
  const start = html.search(/<details id="req--\d+--case--\d+" class="req executed-fail" open>/);
  expect(start).toBeGreaterThan(0);
  const next = html.indexOf('<details id="', start + 1);
  return html.slice(start, next < 0 ? undefined : next);
}
