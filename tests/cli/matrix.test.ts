// `openwop-eval-gate matrix REPORT... --out DIR` over real reports: a conformant host, a host
// with one defect, and an edited copy that no longer verifies. The files are the same bytes for
// the reports in any order, the edited one shows as unverified, and a verifier that says more
// (unanchored) is taken through the one injected function.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixCommand } from '../../cli/matrix.ts';
import type { Matrix, MatrixVerifier } from '../../lib/report/matrix/model.ts';
import { recomputingVerifier } from '../../cli/matrix-verifier.ts';
import { runAgainstReferenceHost } from '../support/reference-run.ts';
import { cli, readReport, removeDir, scratchDir } from './support.ts';

async function outputs(dir: string): Promise<Record<string, string>> {
  const top = (await readdir(dir)).filter((f) => f !== 'reports');
  const pages = (await readdir(join(dir, 'reports'))).map((f) => `reports/${f}`);
  const files = [...top, ...pages].sort();
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), 'utf8')])),
  );
}

describe('matrix', () => {
  let dir = '';
  const dirs: string[] = [];
  let reports: string[] = [];

  beforeAll(async () => {
    dir = await scratchDir();
    const conformant = await runAgainstReferenceHost(undefined);
    const defective = await runAgainstReferenceHost('score-zeroed');
    dirs.push(conformant.dir, defective.dir);
    expect([conformant.code, defective.code]).toEqual([0, 1]);
    const edited = join(dir, 'edited.json');
    const report = await readReport(conformant.dir);
    const [first, ...rest] = report.requirements;
    if (first === undefined) throw new Error('no rows');
    // Any edit of a row: the rows digest and the recomputed verdict no longer agree with it.
    await writeFile(
      edited,
      JSON.stringify({
        ...report,
        requirements: [
          { ...first, durationMs: first.durationMs + 1, disposition: 'executed-fail' },
          ...rest,
        ],
      }),
    );
    reports = [
      join(conformant.dir, 'eval-gate-report.json'),
      join(defective.dir, 'eval-gate-report.json'),
      edited,
    ];
  });

  afterAll(async () => {
    await Promise.all([dir, ...dirs].map(removeDir));
  });

  it('writes the same files for the reports in any order, the edited one unverified', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const run = await cli(['matrix', ...reports, '--out', a]);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(
      /^wrote .*matrix\.json, matrix\.md and index\.html: 3 reports, \d+ rows$/,
    );
    expect((await cli(['matrix', ...[...reports].reverse(), '--out', b])).code).toBe(0);
    const first = await outputs(a);
    const second = await outputs(b);
    expect(Object.keys(first)).toHaveLength(5);
    // The report files are linked from the output folder, which is one level deeper in both.
    expect(second).toEqual(first);

    const matrix = JSON.parse(first['matrix.json'] ?? '') as Matrix;
    const byVerification = matrix.columns.map((c) => c.verification).sort();
    expect(byVerification).toEqual(['unverified', 'verified', 'verified']);
    const edited = matrix.columns.findIndex((c) => c.verification === 'unverified');
    expect(new Set(matrix.rows.map((r) => r.cells[edited]?.state))).toEqual(
      new Set(['unverified']),
    );
    const meanGated = matrix.rows.find((r) => r.id === 'openwop.requirement.0246.mean-gated');
    const states = meanGated?.cells.map((c) => c.state);
    // Sorted by label then digest: which verified column is the defective host depends on digests.
    expect([...(states ?? [])].sort()).toEqual(['fail', 'pass', 'unverified']);
    const defective = states?.indexOf('fail') ?? -1;
    expect(meanGated?.cells[defective]).toMatchObject({ state: 'fail', anchor: 'req--0' });
    expect(meanGated?.cells[defective]?.detail).toMatch(/^[a-z]+\.[a-z.-]+: /);
  });

  it('takes whatever the injected verifier says: an unanchored report is never shown as verified', async () => {
    const unanchored: MatrixVerifier = async (path) => ({
      ...(await recomputingVerifier(path)),
      state: 'unanchored',
      problems: ['no key outside the report vouches for it'],
    });
    const out = join(dir, 'unanchored');
    const lines: string[] = [];
    expect(await matrixCommand([reports[0] ?? ''], out, (l) => lines.push(l), unanchored)).toBe(0);
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(new Set(matrix.rows.map((r) => r.cells[0]?.state))).toEqual(new Set(['unanchored']));
    expect(lines[0]).toMatch(/^unanchored: .*: no key outside the report vouches for it$/);
  });

  it('needs --out and at least one report', async () => {
    expect((await cli(['matrix', reports[0] ?? ''])).stderr).toEqual([
      'openwop-eval-gate: matrix needs --out DIR, such as --out matrix',
    ]);
    expect((await cli(['matrix', '--out', dir])).stderr).toEqual([
      'openwop-eval-gate: "matrix" takes one or more REPORT files; see --help',
    ]);
  });
});
