// `openwop-eval-gate report REPORT --html OUT`: the page a run writes beside its report, rebuilt
// from a report that verifies, and refused for one that does not.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, readReport, removeDir, scratchDir } from './support.ts';

describe('report --html', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await scratchDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('writes for a verified report the very page the run wrote, and refuses an edited one', async () => {
    const run = await cli(['run', '--report-dir', dir]);
    expect(run.code).toBe(0);
    const written = await readFile(join(dir, 'eval-gate-report.html'), 'utf8');
    expect(written).toMatch(/^<!DOCTYPE html>/);

    const out = join(dir, 'again.html');
    const again = await cli(['report', join(dir, 'eval-gate-report.json'), '--html', out]);
    expect(again).toEqual({ code: 0, stdout: [`wrote ${out}`], stderr: [] });
    expect(await readFile(out, 'utf8')).toBe(written);

    const report = await readReport(dir);
    const edited = join(dir, 'edited.json');
    const [first, ...rest] = report.requirements;
    if (first === undefined) throw new Error('no rows');
    await writeFile(
      edited,
      JSON.stringify({
        ...report,
        requirements: [{ ...first, disposition: 'executed-fail' }, ...rest],
      }),
    );
    const refused = await cli(['report', edited, '--html', join(dir, 'edited.html')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.join('\n')).toMatch(/does not verify, so report refuses it/);
  });

  it('needs --html', async () => {
    const run = await cli(['report', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      'openwop-eval-gate: report needs --html OUT, such as --html eval-gate-report.html',
    ]);
  });
});
