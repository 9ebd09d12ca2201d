// Every way a run can end under GitHub Actions (exit 0, 1, 2 and 3) sets the step outputs
// `result`, `certified` and `verdict`, the verdict being the step summary's first line and at
// most 160 characters; and a cause many requirements share is one annotation with its count.
// Each exit is driven for real: a clean host, a host with a defect, a host that withholds its
// eval suite under strict mode, a host that resets every create, and a host address long enough
// that the line naming it would overflow.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_LIMIT } from '../../lib/report/verdict/lead.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { resetMidBody, startHostileHost } from '../support/hostile-host.ts';
import type { CliRun } from './support.ts';
import { cli, LEAKY_KEY, removeDir, scratchDir } from './support.ts';

let dir = '';
let clean: ReferenceHost;
let defective: ReferenceHost;
let withheld: ReferenceHost;
beforeAll(async () => {
  dir = await scratchDir();
  [clean, defective, withheld] = await Promise.all([
    startReferenceHost({ apiKey: LEAKY_KEY }),
    startReferenceHost({ apiKey: LEAKY_KEY, defect: 'cost-limit-dropped' }),
    startReferenceHost({ apiKey: LEAKY_KEY, defect: 'withhold-eval-suite' }),
  ]);
});
afterAll(async () => {
  await Promise.all([clean.close(), defective.close(), withheld.close()]);
  await removeDir(dir);
});

interface Ended {
  readonly run: CliRun;
  readonly outputs: Readonly<Record<string, string>>;
  readonly summaryFirstLine: string;
  readonly annotations: readonly string[];
}

/** A run as the action starts it: GITHUB_ACTIONS, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set. */
async function underAction(
  name: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<Ended> {
  const output = join(dir, `${name}.output`);
  const summary = join(dir, `${name}.summary.md`);
  await writeFile(output, '');
  await writeFile(summary, '');
  const run = await cli(['run', '--report-dir', join(dir, name), ...args], {
    OPENWOP_API_KEY: LEAKY_KEY,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    ...env,
  });
  const outputs: Record<string, string> = {};
  for (const line of (await readFile(output, 'utf8')).split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const summaryFirstLine = (await readFile(summary, 'utf8')).split('\n')[0] ?? '';
  const annotations = run.stdout.filter((line) => line.startsWith('::error'));
  return { run, outputs, summaryFirstLine, annotations };
}

/** What every exit path must leave: the three outputs, the verdict the summary's first line. */
function expectOutputs(ended: Ended, code: number, result: string): void {
  expect(ended.run.code, ended.run.stdout.join('\n')).toBe(code);
  expect(ended.outputs).toMatchObject({ result, certified: 'false' });
  const verdict = ended.outputs.verdict ?? '';
  expect(verdict).toMatch(new RegExp(`^Result: ${result} \\(exit ${code}\\)`));
  expect(verdict.length).toBeLessThanOrEqual(LEAD_LIMIT);
  expect(ended.summaryFirstLine).toBe(verdict);
}

describe('every exit path under the action', { timeout: 240_000 }, () => {
  it('exit 0: PASS', async () => {
    const ended = await underAction('pass', ['--base-url', clean.url, '--only', 'mean-gated']);
    expectOutputs(ended, 0, 'PASS');
    expect(ended.annotations).toEqual([]);
  });

  it('exit 1: FAIL, one annotation for the one failing requirement', async () => {
    const ended = await underAction('fail', [
      '--base-url',
      defective.url,
      '--only',
      'cost-limit-kept,mean-gated',
    ]);
    expectOutputs(ended, 1, 'FAIL');
    expect(ended.annotations).toEqual([
      expect.stringMatching(/^::error title=openwop\.requirement\.0246\.cost-limit-kept::/),
    ]);
  });

  it('exit 1, strict against a host that does not advertise agents.evalSuite: one annotation counting the requirements it fails', async () => {
    const ended = await underAction('withheld', ['--base-url', withheld.url, '--require-behavior']);
    expectOutputs(ended, 1, 'FAIL');
    const failed = Number(ended.outputs.failed);
    expect(failed).toBeGreaterThan(1);
    const shared = ended.annotations.filter((a) =>
      /^::error title=eval gate FAIL%3A (\d+) requirements::\1 requirements: host does not advertise agents\.evalSuite/.test(
        a,
      ),
    );
    expect(shared).toHaveLength(1);
    // Every hand leg that drives the host fails alike; the generated pack's row has its own words.
    expect(Number(/%3A (\d+) requirements/.exec(shared[0] ?? '')?.[1])).toBe(failed - 1);
    expect(ended.annotations.length).toBeLessThan(failed);
  });

  it('exit 2: NOT RUN, a cause too long for the first line cut to 160 characters', async () => {
    const url = `http://${'a'.repeat(60)}.${'b'.repeat(60)}.invalid:1`;
    const ended = await underAction('not-run', ['--base-url', url]);
    expectOutputs(ended, 2, 'NOT RUN');
    expect(ended.run.stderr[0]?.length).toBeGreaterThan(LEAD_LIMIT);
    expect(ended.outputs.verdict).toMatch(/…$/);
    expect(ended.annotations).toEqual([
      expect.stringMatching(/^::error title=eval gate NOT RUN \(exit 2\)::/),
    ]);
  });

  it('exit 3: BLOCKED', async () => {
    const host = await startHostileHost({
      routes: { create: ({ response }) => resetMidBody(response, '{"runId":') },
    });
    try {
      const ended = await underAction(
        'blocked',
        ['--base-url', host.url, '--only', 'mean-gated,suite-gated'],
        { OPENWOP_REQUEST_TIMEOUT_MS: '2000', OPENWOP_RUN_TIMEOUT_MS: '3000' },
      );
      expectOutputs(ended, 3, 'BLOCKED');
      expect(ended.annotations).toContainEqual(
        expect.stringMatching(/^::error title=eval gate BLOCKED \(exit 3\)::/),
      );
    } finally {
      await host.close();
    }
  });
});
