// Nothing competes with the legs' creates. A run checks its fixtures with the fixture's own
// validator before it creates its runs; the file holding every other validator (about a megabyte,
// a wait of its own on a busy machine) loads, and the host checks go out, only once every leg has
// created its run. Observed in a real CLI process through a hook that reads the module cache as
// each POST /runs answer arrives, so the test rests on order, not on timing.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { isolatedEnv } from '../cli/support.ts';
import { runProcess } from '../support/process.ts';

const BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate.mjs', import.meta.url));
const HOOK = fileURLToPath(new URL('../support/load-order-hook.mjs', import.meta.url));
const API_KEY = 'validators-load-test-key-0246';
const DRIVING_LEGS = LEGS.filter((leg) => leg.fixtureId !== undefined).length;

describe('what waits for the legs to create their runs', () => {
  it('the validators and the host checks; the fixture validator loads before any create', async () => {
    const host = await startReferenceHost({ apiKey: API_KEY, runDelayMs: 200 });
    const reportDir = await mkdtemp(join(tmpdir(), 'validators-load-'));
    try {
      const run = await runProcess(process.execPath, ['--import', HOOK, BIN, 'run'], {
        env: {
          ...isolatedEnv(),
          OPENWOP_BASE_URL: host.url,
          OPENWOP_API_KEY: API_KEY,
          OPENWOP_REPORT_DIR: reportDir,
        },
        deadlineMs: 60_000,
      });
      expect(run.status, run.output).toBe(0);
      const lines = run.stderr.split('\n').filter((line) => line.startsWith('load-order: '));
      const created = lines.filter((line) => line.startsWith('load-order: POST /runs 201 '));
      expect(created).toHaveLength(DRIVING_LEGS);
      for (const line of created) {
        expect(line).toBe('load-order: POST /runs 201 fixture-validator=true validators=false');
      }
      // The host checks' refusal probes (POST /runs without the key, or with a wrong one).
      const refused = lines.findIndex((line) => line.startsWith('load-order: POST /runs 401 '));
      expect(refused).toBeGreaterThan(lines.indexOf(created.at(-1) ?? ''));
      expect(lines.at(-1)).toBe('load-order: exit fixture-validator=true validators=true');
    } finally {
      await host.close();
      await rm(reportDir, { recursive: true, force: true });
    }
  });
});
