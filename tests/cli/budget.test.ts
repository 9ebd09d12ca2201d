// `run --budget` as a CI job meets it: a malformed duration is one line and exit 2 before any leg,
// and against a host that accepts runs and never finishes one, the budget ends the run with every
// host leg blocked by name of the budget and the exit code of a blocked run. The budget, not the
// run deadline, always ends these legs (the deadline is forty times longer), so no verdict here
// depends on how fast the machine is.

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

let dir = '';
beforeEach(async () => {
  dir = await scratchDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('run --budget', () => {
  it.each(['90', '5x', '1.5m', '0s'])('--budget %s is one line and exit 2', async (value) => {
    const run = await cli(['run', '--budget', value, '--report-dir', join(dir, 'reports')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --budget must be a duration from 1s to 24h written as hours, minutes and seconds, such as 90s, 10m or 1h30m; got "${value}"`,
    ]);
  });

  it('ends a run on a host that never finishes when it is spent: host legs blocked, exit 3', async () => {
    const host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'run-never-ends' });
    try {
      const reportDir = join(dir, 'reports');
      const run = await cli(
        ['run', '--base-url', host.url, '--budget', '3s', '--report-dir', reportDir],
        {
          OPENWOP_API_KEY: LEAKY_KEY,
          OPENWOP_RUN_TIMEOUT_MS: '120000',
        },
      );
      expect(run.code).toBe(3);
      expect(run.stdout).toContain(
        'the run budget of 3s was spent: every leg and case not yet decided is blocked',
      );
      const report = await readReport(reportDir);
      const hostLegs = new Set(LEGS.filter((l) => l.fixtureId !== undefined).map((l) => l.id));
      const rows = report.requirements.filter((r) => hostLegs.has(r.id));
      expect(rows).toHaveLength(hostLegs.size);
      for (const row of rows) {
        expect([row.disposition, row.reason]).toEqual([
          'blocked',
          'the run budget of 3s was spent before this leg finished',
        ]);
      }
      expect([...run.stdout, ...run.stderr].join('\n')).not.toContain(LEAKY_KEY);
    } finally {
      await host.close();
    }
  }, 60_000);
});
