// A run's report, made as a user makes one: the reference host started with at most one
// defect, the suite run against it through the CLI, the four files written to a scratch folder.

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DefectName } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { runCli } from '../../cli/cli.ts';

const KEY = 'browser-lane-key-0001';

export interface WrittenRun {
  readonly dir: string;
  readonly code: number;
  readonly lines: readonly string[];
}

/** Runs every leg against the reference host with `defect` on (or none) into a fresh folder. */
export async function runAgainstReferenceHost(
  defect: DefectName | undefined,
  extra: readonly string[] = [],
): Promise<WrittenRun> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-gate-browser-'));
  const host = await startReferenceHost({
    apiKey: KEY,
    ...(defect === undefined ? {} : { defect }),
  });
  try {
    const lines: string[] = [];
    const code = await runCli(['run', '--base-url', host.url, '--report-dir', dir, ...extra], {
      log: (l) => lines.push(l),
      error: (l) => lines.push(l),
      env: { OPENWOP_API_KEY: KEY },
    });
    return { dir, code, lines };
  } finally {
    await host.close();
  }
}

/** Runs every leg against the embedded reference host (no base URL) into a fresh folder. */
export async function runEmbedded(): Promise<WrittenRun> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-gate-embedded-'));
  const lines: string[] = [];
  const code = await runCli(['run', '--report-dir', dir], {
    log: (l) => lines.push(l),
    error: (l) => lines.push(l),
    env: {},
  });
  return { dir, code, lines };
}
