// `run --repeat N` against a host whose answer flips between suite runs: the reference host's
// `cost-limit-dropped-on-odd-runs` drops the cost condition on the first run of each suite and
// every other one after it. Driven twice, `cost-limit-kept` fails and then passes: the row is
// flaky on every channel, the run fails unless the baseline allows those outcomes, the
// certification is withheld either way, and `verify` rebuilds the record and refuses an edit.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENT_PREFIX } from '../../lib/legs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { rowsDigest } from '../../lib/report/report.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir, verifyWritten } from './support.ts';
import { junitProblems } from '../channels/support.ts';

const COST = `${REQUIREMENT_PREFIX}cost-limit-kept`;
const MEAN = `${REQUIREMENT_PREFIX}mean-gated`;
const ENV = { OPENWOP_API_KEY: LEAKY_KEY };

let dir = '';
let flaky: ReferenceHost | undefined;
let steady: ReferenceHost | undefined;

beforeAll(async () => {
  dir = await scratchDir();
  [flaky, steady] = await Promise.all([
    startReferenceHost({ apiKey: LEAKY_KEY, defect: 'cost-limit-dropped-on-odd-runs' }),
    startReferenceHost({ apiKey: LEAKY_KEY }),
  ]);
});

afterAll(async () => {
  await Promise.all([flaky?.close(), steady?.close()]);
  await removeDir(dir);
});

/** `run --repeat 2` of two requirements against `host` into a fresh folder, with a baseline if given. */
async function repeated(host: ReferenceHost | undefined, name: string, baseline?: unknown) {
  const reportDir = join(dir, name);
  const outputs = join(dir, `${name}-outputs`);
  const extra: string[] = [];
  if (baseline !== undefined) {
    const file = join(dir, `${name}-baseline.json`);
    await writeFile(file, JSON.stringify(baseline));
    extra.push('--expected-failures', file);
  }
  const run = await cli(
    [
      'run',
      '--base-url',
      host?.url ?? '',
      '--require-behavior',
      '--repeat',
      '2',
      '--only',
      'cost-limit-kept,mean-gated',
      '--report-dir',
      reportDir,
      ...extra,
    ],
    { ...ENV, GITHUB_OUTPUT: outputs },
  );
  const report = await readReport(reportDir);
  const read = (file: string): Promise<string> => readFile(join(reportDir, file), 'utf8');
  return {
    run,
    report,
    junit: await read('eval-gate-junit.xml'),
    summary: await read('eval-gate-summary.md'),
    html: await read('eval-gate-report.html'),
    outputs: (await readFile(outputs, 'utf8')).split('\n'),
  };
}

const repeatRow = (report: EvalGateReport, id: string) =>
  report.repeat?.rows.find((r) => r.requirement === id);

describe('run --repeat 2 against a host that flips between suite runs', () => {
  it('records the flaky row with its outcomes, fails the run and shows it on every channel', async () => {
    const { run, report, junit, summary, html, outputs } = await repeated(flaky, 'flaky');
    expect(run.code, run.stdout.join('\n')).toBe(1);
    expect(repeatRow(report, COST)).toEqual({
      requirement: COST,
      stability: 'flaky',
      outcomes: ['executed-fail', 'executed-pass'],
      allowed: false,
    });
    expect(repeatRow(report, MEAN)?.stability).toBe('stable');
    const row = report.requirements.find((r) => r.id === COST);
    expect(row?.repetitions?.map((r) => r.disposition)).toEqual(['executed-pass']);
    expect(report.certification?.reasons.map((r) => r.code)).toContain('flaky');
    const last = run.stdout.at(-1) ?? '';
    expect(last).toContain('repeat 2: 1 flaky');
    expect(last).toContain('1 flaky');
    expect(run.stdout).toContain(
      `flaky: ${COST} came to executed-fail, executed-pass across the repetitions`,
    );
    // Surefire's shape: the row's own case, failing, with the attempt that failed as a
    // <flakyFailure>; no case is added for the flakiness.
    expect(junit).toMatch(
      new RegExp(
        `name="${COST}"[^>]*>\\s*<failure type="executed-fail"(?:(?!</testcase>)[^])*<flakyFailure type="executed-fail" message="repetition 1 of 2: executed-fail: `,
      ),
    );
    expect(junit).not.toContain('classname="openwop.repeat"');
    expect(await junitProblems(junit)).toEqual([]);
    expect(summary).toContain('## Repeated 2 times: 1 flaky');
    expect(summary).toContain(`| ${COST} | executed-fail, executed-pass | **no: fails the run** |`);
    expect(html).toContain('flaky: executed-fail, executed-pass');
    expect(outputs).toContain('flaky=1');
  });

  it('an entry that excuses the failure does not excuse the flakiness', async () => {
    const { run, report } = await repeated(flaky, 'excused-only', {
      expectedFailures: [{ requirement: 'cost-limit-kept', reason: 'cost condition (ACME-1)' }],
    });
    expect(run.code, run.stdout.join('\n')).toBe(1);
    expect(report.baseline?.excused).toEqual([{ requirement: COST, rule: 'suite.passed' }]);
    expect(repeatRow(report, COST)?.allowed).toBe(false);
  });

  it('an entry listing the outcomes allows the row: the run passes, the certification is still withheld', async () => {
    const { run, report, junit, summary } = await repeated(flaky, 'allowed', {
      expectedFailures: [
        {
          requirement: 'cost-limit-kept',
          outcomes: ['executed-pass', 'executed-fail'],
          reason: 'the cost check races the summary (ACME-7)',
        },
      ],
    });
    expect(run.code, run.stdout.join('\n')).toBe(0);
    expect(repeatRow(report, COST)?.allowed).toBe(true);
    expect(report.baseline?.entries[0]?.status).toBe('excusing');
    expect(report.certification?.certified).toBe(false);
    expect(report.certification?.reasons.map((r) => r.code)).toContain('flaky');
    expect(run.stdout.at(-1)).toContain('repeat 2: 1 flaky (1 allowed)');
    // An allowed flaky row fails nothing: its case passes, the failed attempt a <flakyFailure>.
    expect(junit).toMatch(
      new RegExp(
        `name="${COST}"[^>]*>\\s*<flakyFailure type="executed-fail" message="repetition 1 of 2: executed-fail: [^"]*"/>\\s*</testcase>`,
      ),
    );
    expect(junit).not.toContain('type="flaky"');
    expect(junit).not.toContain('classname="openwop.repeat"');
    expect(junit).toContain('failures="0" errors="0"');
    expect(await junitProblems(junit)).toEqual([]);
    expect(summary).toContain(`| ${COST} | executed-fail, executed-pass | yes |`);
  });

  it('against a steady host every row is stable and the run passes', async () => {
    const { run, report, outputs } = await repeated(steady, 'steady');
    expect(run.code, run.stdout.join('\n')).toBe(0);
    expect(report.repeat?.rows.every((r) => r.stability === 'stable')).toBe(true);
    expect(report.certification?.reasons.map((r) => r.code)).not.toContain('flaky');
    expect(outputs).toContain('flaky=0');
  });
});

describe('verify on a repeated run', () => {
  it('rebuilds the flakiness record and decides every repetition again', async () => {
    const { report } = await repeated(flaky, 'verified');
    const result = await verifyWritten(dir, report);
    expect(result.code, result.lines.join('\n')).toBe(0);
  });

  it('refuses a report whose flakiness record was edited to stable', async () => {
    const { report } = await repeated(flaky, 'edited-record');
    const edited: EvalGateReport = {
      ...report,
      repeat: {
        count: 2,
        rows: (report.repeat?.rows ?? []).map((r) =>
          r.requirement === COST
            ? { requirement: COST, stability: 'stable', outcomes: ['executed-fail'] }
            : r,
        ),
      },
    };
    const result = await verifyWritten(dir, edited);
    expect(result.code).toBe(1);
    expect(result.lines.join('\n')).toMatch(
      /^repeat\.rows\[\d+\]\.stability: recorded "stable", rebuilt "flaky"$/m,
    );
  });

  it('refuses a repetition whose disposition was edited, even with the digests redone', async () => {
    const { report } = await repeated(flaky, 'edited-repetition');
    const requirements = report.requirements.map((row) =>
      row.id !== COST
        ? row
        : {
            ...row,
            repetitions: (row.repetitions ?? []).map((r) => ({
              ...r,
              disposition: 'executed-fail' as const,
              reason: 'edited',
            })),
          },
    );
    // The rows digest redone, as an editor without the key would: only the recomputation catches it.
    const edited = {
      ...report,
      requirements,
      digests: { ...report.digests, rows: rowsDigest(requirements) },
    };
    const result = await verifyWritten(dir, edited);
    expect(result.code).toBe(1);
    expect(result.lines.join('\n')).toContain(
      `requirements[id=${COST}].repetitions[id=${COST}].disposition: recorded "executed-fail", rebuilt "executed-pass"`,
    );
  });
});
