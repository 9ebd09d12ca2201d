// Under GitHub Actions every outcome leaves its trace in the CI's own view, as a failing run does:
// a run that cannot start (exit 2) and a blocked run (exit 3) each print one `::error` with the
// cause and write the step summary. The API key appears in none of it.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetMidBody, startHostileHost } from '../support/hostile-host.ts';
import type { CliRun } from './support.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

let dir = '';
let summaryFile = '';
beforeEach(async () => {
  dir = await scratchDir();
  summaryFile = join(dir, 'step-summary.md');
});
afterEach(async () => {
  await removeDir(dir);
});

function inActions(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    OPENWOP_API_KEY: LEAKY_KEY,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summaryFile,
    ...extra,
  };
}

const annotations = (run: CliRun): string[] => run.stdout.filter((line) => line.startsWith('::'));

async function stepSummary(): Promise<string> {
  return readFile(summaryFile, 'utf8').catch(() => '');
}

function holdsNoKey(run: CliRun, summary: string): void {
  expect([...run.stdout, ...run.stderr, summary].join('\n')).not.toContain(LEAKY_KEY);
}

describe('a run that cannot start (exit 2)', () => {
  it('prints its one line, one ::error with the same cause, and the step summary', async () => {
    const run = await cli(
      ['run', '--base-url', 'http://127.0.0.1:1', '--report-dir', join(dir, 'reports')],
      inActions(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    const cause = (run.stderr[0] ?? '').replace(/^openwop-eval-gate: /, '');
    expect(cause).toMatch(/^the host at http:\/\/127\.0\.0\.1:1 did not answer discovery/);
    // The cause holds `:` and `,` only in the message, where they need no escaping.
    expect(run.stdout).toEqual([`::error title=eval gate NOT RUN (exit 2)::${cause}`]);
    const summary = await stepSummary();
    // The first line is cut at 160 characters; the whole cause follows it.
    const first = `Result: NOT RUN (exit 2): ${cause}`;
    expect(summary.split('\n')[0]).toBe(first.length <= 160 ? first : `${first.slice(0, 159)}…`);
    expect(summary).toContain(cause);
    expect(summary).toContain('No report was written');
    holdsNoKey(run, summary);
  });

  it('a refused flag is annotated and summarised the same way', async () => {
    const run = await cli(['run', '--wait-for-host', 'soon'], inActions());
    expect(run.code).toBe(2);
    expect(annotations(run)).toEqual([
      '::error title=eval gate NOT RUN (exit 2)::--wait-for-host takes whole seconds from 1 to 3600; got "soon"',
    ]);
    expect((await stepSummary()).split('\n')[0]).toBe(
      'Result: NOT RUN (exit 2): --wait-for-host takes whole seconds from 1 to 3600; got "soon"',
    );
  });

  it('a key on the command line is refused without the key in the annotation or summary', async () => {
    const run = await cli(['run', `--api-key=${LEAKY_KEY}`], inActions());
    expect(run.code).toBe(2);
    expect(annotations(run)).toHaveLength(1);
    holdsNoKey(run, await stepSummary());
  });

  it('another command is annotated but writes no step summary, which is the run step’s', async () => {
    const run = await cli(['verify', join(dir, 'missing.json')], inActions());
    expect(run.code).toBe(2);
    expect(annotations(run)).toHaveLength(1);
    expect(annotations(run)[0]).toMatch(/^::error title=openwop-eval-gate verify \(exit 2\)::/);
    expect(await stepSummary()).toBe('');
  });

  it('outside GitHub Actions prints no annotation, and stdout stays empty', async () => {
    const run = await cli(['run', '--wait-for-host', 'soon'], { OPENWOP_API_KEY: LEAKY_KEY });
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toHaveLength(1);
  });
});

describe('a blocked run (exit 3)', () => {
  it('prints one ::error with the verdict’s cause, and the step summary says BLOCKED', async () => {
    const host = await startHostileHost({
      routes: { create: ({ response }) => resetMidBody(response, '{"runId":') },
    });
    try {
      const reportDir = join(dir, 'reports');
      const run = await cli(
        ['run', '--base-url', host.url, '--report-dir', reportDir],
        inActions({ OPENWOP_REQUEST_TIMEOUT_MS: '2000', OPENWOP_RUN_TIMEOUT_MS: '3000' }),
      );
      expect(run.code).toBe(3);
      const report = await readReport(reportDir);
      expect(report.requirements.some((r) => r.disposition === 'executed-fail')).toBe(false);
      const lines = annotations(run);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^::error title=eval gate BLOCKED \(exit 3\)::\d+ of \d+ blocked \(.*connection reset.*\); the suite could not observe/,
      );
      const summary = await stepSummary();
      expect(summary.split('\n')[0]).toMatch(/^Result: BLOCKED \(exit 3\): \d+ of \d+ blocked /);
      // The closing line stays last: CI parses it.
      expect(run.stdout.at(-1)).toMatch(
        /^BLOCKED: \d+ of \d+ blocked \(.*; \d+ passed, 0 failed, \d+ blocked, /,
      );
      holdsNoKey(run, summary);
    } finally {
      await host.close();
    }
  });
});
