// `diff` on reports the suite wrote: a full run against `--only mean-gated` of the same host
// compares one requirement and names the selection; a clean host against one with a defect
// regresses exactly the requirements the defect fails, and the other way round improves them;
// the Markdown comment and the flags that choose the format.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const MEAN = 'openwop.requirement.0246.mean-gated';
const kept = keepAddresses();

let dir = '';
let full = '';
let only = '';
let defective = '';
let failedByDefect: string[] = [];

async function runAgainst(
  url: string,
  name: string,
  extra: readonly string[] = [],
): Promise<string> {
  const out = join(dir, name);
  const run = await cli(['run', '--base-url', url, '--report-dir', out, ...extra], ENV);
  expect(run.stderr).toEqual([]);
  return join(out, 'eval-gate-report.json');
}

beforeAll(async () => {
  dir = await scratchDir();
  const host = await kept.host({ apiKey: LEAKY_KEY });
  full = await runAgainst(host.url, 'full');
  only = await runAgainst(host.url, 'only', ['--only', 'mean-gated']);
  const broken = await kept.host({ apiKey: LEAKY_KEY, defect: 'strict-greater-than' });
  defective = await runAgainst(broken.url, 'defective');
  const report: EvalGateReport = await readReport(join(dir, 'defective'));
  failedByDefect = report.requirements
    .filter((r) => r.disposition === 'executed-fail')
    .map((r) => r.id);
}, 180_000);

afterAll(async () => {
  await removeDir(dir);
});

describe('diff of a full run against one --only mean-gated', () => {
  it('compares mean-gated alone, names the selection, and regresses nothing', async () => {
    const run = await cli(['diff', full, only]);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      expect.stringMatching(
        /^warning: the selections differ \(OLD all \d+, NEW mean-gated by --only\/--skip\)$/,
      ),
      expect.stringMatching(
        /^warning: only the 1 requirement both runs ran is compared; \d+ left out: /,
      ),
      'no regression: 0 improved, 0 changed, 1 unchanged of 1 compared; 0 rule changes',
    ]);
  });

  it('with --all, lists the one requirement compared', async () => {
    const run = await cli(['diff', full, only, '--all']);
    expect(run.stdout.filter((l) => !l.startsWith('warning: ')).slice(0, -1)).toEqual([
      `unchanged ${MEAN}: executed-pass`,
    ]);
  });
});

describe('diff of a clean host against one with a defect', () => {
  it('regresses exactly the requirements the defect fails, names the addresses, and exits 1', async () => {
    expect(failedByDefect.length).toBeGreaterThan(0);
    const run = await cli(['diff', full, defective]);
    expect(run.code).toBe(1);
    expect(run.stdout[0]).toMatch(
      /^warning: the host addresses differ \(OLD http:\/\/127\.0\.0\.1:\d+, NEW /,
    );
    const regressed = run.stdout.filter((l) => l.startsWith('REGRESSED '));
    expect(regressed).toEqual(
      failedByDefect.map((id) => `REGRESSED ${id}: executed-pass → executed-fail`),
    );
    expect(run.stdout.filter((l) => /^(unchanged|IMPROVED|CHANGED) /.test(l))).toEqual([]);
  });

  it('the other way round improves them and exits 0', async () => {
    const run = await cli(['diff', defective, full]);
    expect(run.code).toBe(0);
    expect(run.stdout.filter((l) => l.startsWith('IMPROVED '))).toEqual(
      failedByDefect.map((id) => `IMPROVED  ${id}: executed-fail → executed-pass`),
    );
    expect(run.stdout.at(-1)).toMatch(
      new RegExp(
        `^no regression: ${failedByDefect.length} improved, 0 changed, \\d+ unchanged of \\d+ compared; \\d+ rule changes?$`,
      ),
    );
  });

  it('--format markdown writes a comment: the verdict as heading, the note, the table of changes', async () => {
    const run = await cli(['diff', full, defective, '--format', 'markdown']);
    expect(run.code).toBe(1);
    const rules = (await cli(['diff', full, defective])).stdout.filter((l) =>
      l.endsWith(' (MUST; held before) REGRESSED'),
    ).length;
    const n = failedByDefect.length;
    expect(run.stdout[0]).toBe(
      `## RFC 0246 eval gate: ${n} requirement${n === 1 ? '' : 's'} regressed` +
        (rules === 0 ? '' : `, ${rules} MUST rule${rules === 1 ? ' newly fails' : 's newly fail'}`),
    );
    expect(run.stdout).toContainEqual(
      expect.stringMatching(/^> \*\*Note:\*\* the host addresses differ/),
    );
    expect(run.stdout).toContain('| requirement | before | after | change |');
    expect(run.stdout.filter((l) => l.endsWith('| **REGRESSED** |'))).toHaveLength(
      failedByDefect.length,
    );
    const same = await cli(['diff', full, full, '--format', 'markdown']);
    expect(same.stdout).toEqual([
      '## RFC 0246 eval gate: no regression',
      '',
      expect.stringMatching(
        /^Nothing changed: the \d+ requirements compared kept their dispositions, rules and numbers\.$/,
      ),
    ]);
  });
});

describe('the format flags', () => {
  it('refuse an unknown format, and --json beside --format: one line, exit 2', async () => {
    expect(await cli(['diff', full, only, '--format', 'html'])).toMatchObject({
      code: 2,
      stdout: [],
      stderr: ['openwop-eval-gate: --format takes text or markdown (--json for JSON)'],
    });
    expect(await cli(['diff', full, only, '--json', '--format', 'text'])).toMatchObject({
      code: 2,
      stderr: ['openwop-eval-gate: give --json or --format, not both'],
    });
  });
});
