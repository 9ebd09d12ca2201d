// The legs file run the upstream way, `npx vitest run tests/v2-eval-trajectory-trials.test.ts`
// with OPENWOP_BASE_URL, as a separate process against a reference host started here: it passes
// on the conformant host with one passed test per leg, writes the report the CLI writes for the
// same host (run ids, event ids, timings and digests over them aside), and exits non-zero on a
// host with one defect. Without a base URL it refuses in one line.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { Finished } from '../support/process.ts';
import { runProcess } from '../support/process.ts';
import { cli, isolatedEnv, removeDir, scratchDir } from './support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LEGS_FILE = 'tests/v2-eval-trajectory-trials.test.ts';
const API_KEY = 'legs-file-test-key-0246';
/** A fresh process loads vitest and the suite, then every leg runs once. */
const PROCESS_BOUND_MS = 120_000;

/**
 * The bin `npx vitest` starts in this checkout, started directly: npx would only find it, for half
 * a second of CPU a run, and what is tested is vitest running the legs file.
 */
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** Runs the legs file as a host team would, with exactly `env` (and a PATH) in its environment. */
function runLegsFile(env: Readonly<Record<string, string>>): Promise<Finished> {
  return runProcess(process.execPath, [VITEST, 'run', LEGS_FILE], {
    cwd: ROOT,
    // Plain text, so the summary line reads the same on any terminal.
    env: { ...isolatedEnv(), NO_COLOR: '1', ...env },
    deadlineMs: PROCESS_BOUND_MS - 10_000,
  });
}

/**
 * The report with what differs between two runs of one host removed: the ids the host mints
 * (runs, events, the probe's random run), timestamps, durations, and the digests over them.
 */
function comparable(text: string): unknown {
  const masked = text
    .replace(/run-\d+(\.\d+)?/g, 'run-#')
    .replace(/probe-[0-9a-f]+/g, 'probe-#')
    .replace(/\d{4}-\d{2}-\d{2}T[0-9:.]+Z/g, 'T');
  return JSON.parse(masked, (key, value: unknown) =>
    key === 'durationMs' || key === 'rows' || key === 'hostChecks'
      ? typeof value === 'string' || typeof value === 'number'
        ? '#'
        : value
      : value,
  );
}

const legsEnv = (url: string, reportDir: string): Record<string, string> => ({
  OPENWOP_BASE_URL: url,
  OPENWOP_API_KEY: API_KEY,
  OPENWOP_REQUIRE_BEHAVIOR: 'true',
  // The legs file drives the legs alone; the CLI's strict run would add the generated pack.
  OPENWOP_OPTED_OUT_PROFILES: 'generated-pack',
  OPENWOP_REPORT_DIR: reportDir,
});

// Side by side: each test waits on a process of its own.
describe.concurrent('the legs file, run the upstream way', () => {
  it(
    'passes a conformant host with a test per leg and writes the report the CLI writes',
    async () => {
      const host = await startReferenceHost({ apiKey: API_KEY });
      const fromCli = await scratchDir();
      const fromLegs = await scratchDir();
      try {
        // One host serves both at once: each run's ids are its own, and the comparison masks them.
        const [run, legs] = await Promise.all([
          cli(['run'], legsEnv(host.url, fromCli)),
          runLegsFile(legsEnv(host.url, fromLegs)),
        ]);
        expect(run.code, run.stdout.join('\n')).toBe(0);
        expect(legs.status, legs.output).toBe(0);
        // The pack's test is skipped: this host opted out of it, so no row was written for it.
        expect(legs.output).toMatch(
          new RegExp(`Tests\\s+${LEGS.length} passed \\| 1 skipped \\(${LEGS.length + 1}\\)`),
        );

        const read = (dir: string) => readFile(join(dir, 'eval-gate-report.json'), 'utf8');
        const [cliReport, legsReport] = await Promise.all([read(fromCli), read(fromLegs)]);
        expect(comparable(legsReport)).toEqual(comparable(cliReport));
        // The masking keeps what decides: every row passed in both, on the same findings.
        expect(cliReport).toContain('"executed-pass"');
      } finally {
        await host.close();
        await removeDir(fromCli);
        await removeDir(fromLegs);
      }
    },
    PROCESS_BOUND_MS * 2,
  );

  it(
    'exits non-zero on a host with one defect',
    async () => {
      const host = await startReferenceHost({
        apiKey: API_KEY,
        defect: 'gated-fields-but-old-passed',
      });
      const dir = await scratchDir();
      try {
        const legs = await runLegsFile(legsEnv(host.url, dir));
        expect(legs.status, legs.output).not.toBe(0);
        expect(legs.output).toMatch(/executed-fail: \d+ MUST findings? failed: /);
      } finally {
        await host.close();
        await removeDir(dir);
      }
    },
    PROCESS_BOUND_MS,
  );

  it(
    'refuses in one line without a base URL',
    async () => {
      const dir = await scratchDir();
      try {
        const legs = await runLegsFile({ OPENWOP_REPORT_DIR: dir });
        expect(legs.status).not.toBe(0);
        expect(legs.output).toContain('OPENWOP_BASE_URL is not set: point the legs at a host');
      } finally {
        await removeDir(dir);
      }
    },
    PROCESS_BOUND_MS,
  );
});
