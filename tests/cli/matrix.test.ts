// `openwop-eval-gate matrix REPORT... --out DIR` over real reports: a conformant host and a host
// with one defect, each signing with a key its discovery published, and an edited copy that no
// longer verifies. Pinned in a keyring, both signed reports are verified; offline, nothing
// outside them vouches and they are unanchored; the edited one is unverified either way. The
// files are the same bytes for the reports in any order, and the verification is the one
// injected function.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixCommand } from '../../cli/matrix.ts';
import type { Matrix, MatrixVerifier } from '../../lib/report/render/matrix/model.ts';
import { anchoredVerifier } from '../../cli/matrix-verifier.ts';
import { TrustSources } from '../../cli/trust-source.ts';
import { runAgainstReferenceHost, signingPair, writeKeyring } from '../support/reference-run.ts';
import { cli, readReport, removeDir, scratchDir, verifiedAt } from './support.ts';
import { firstFailingCase, runFailingPack } from './failing-pack.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import { failingReport, failingRow } from '../report/html-example.ts';

/** Every file under `dir`, by its path there, with its bytes (a sidecar's as latin1 text). */
async function outputs(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), 'latin1')])),
  );
}

const kept = keepAddresses();

describe('matrix', () => {
  let dir = '';
  const dirs: string[] = [];
  let reports: string[] = [];
  let keyring = '';

  beforeAll(async () => {
    dir = await scratchDir();
    const keys = [await signingPair(dir, 'conformant-1'), await signingPair(dir, 'defective-1')];
    keyring = await writeKeyring(join(dir, 'keyring.json'), keys);
    const conformant = await runAgainstReferenceHost(undefined, keys[0]);
    const defective = await runAgainstReferenceHost('score-zeroed', keys[1]);
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
    const run = await cli(['matrix', ...reports, '--out', a, '--trusted-keys', keyring]);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(
      /^wrote .*matrix\.json, matrix\.md and index\.html: 3 reports, \d+ rows$/,
    );
    const reversed = [...reports].reverse();
    expect((await cli(['matrix', ...reversed, '--out', b, '--trusted-keys', keyring])).code).toBe(
      0,
    );
    const first = await outputs(a);
    const second = await outputs(b);
    // matrix.json, matrix.md, index.html, a page per verifying report and a copy of each report.
    expect(Object.keys(first)).toHaveLength(8);
    expect(second).toEqual(first);
    // Every link stays inside --out and lands on a file there, so the folder can be published.
    const links = [
      ...[...(first['index.html'] ?? '').matchAll(/href="([^"#]+)/g)].map((m) => m[1] ?? ''),
      ...[...(first['matrix.md'] ?? '').matchAll(/\]\(([^)#]+)/g)].map((m) => m[1] ?? ''),
    ];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link).toMatch(/^reports\/[0-9a-f]{64}(?:\.html|\/eval-gate-report\.json)$/);
      expect(Object.keys(first)).toContain(link);
    }
    expect(first['index.html']).not.toContain('href="../');

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

  it('shows signed reports nothing outside them vouches for as unanchored, with what they recompute to', async () => {
    const out = join(dir, 'offline');
    expect((await cli(['matrix', ...reports, '--out', out, '--offline'])).code).toBe(0);
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.columns.map((c) => c.verification).sort()).toEqual([
      'unanchored',
      'unanchored',
      'unverified',
    ]);
    const meanGated = matrix.rows.find((r) => r.id === 'openwop.requirement.0246.mean-gated');
    expect(meanGated?.cells.map((c) => `${c.state}/${c.recomputed ?? ''}`).sort()).toEqual([
      'unanchored/fail',
      'unanchored/pass',
      'unverified/',
    ]);
  });

  it('takes whatever the injected verifier says', async () => {
    const anchored = anchoredVerifier(new TrustSources({ trustedKeys: keyring }));
    const referee: MatrixVerifier = async (path) => ({
      ...(await anchored(path)),
      state: 'different-referee',
      problems: ['judged by suite 0.0.1'],
    });
    const out = join(dir, 'referee');
    const lines: string[] = [];
    expect(await matrixCommand([reports[0] ?? ''], { out }, (l) => lines.push(l), referee)).toBe(0);
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(new Set(matrix.rows.map((r) => r.cells[0]?.state))).toEqual(
      new Set(['different-referee']),
    );
    expect(lines[0]).toMatch(/^different-referee: .*: judged by suite 0\.0\.1$/);
  });

  it("shows on a report's page the generated cases the verifier decided, with the findings it handed over", async () => {
    const [fixture] = generatePack({ count: 1, seed: 7 });
    if (fixture === undefined) throw new Error('the pack drew no fixture');
    const literal = failingReport();
    const failingCase = {
      fixtureId: fixture.id,
      file: `${fixture.id}.json`,
      disposition: 'executed-fail' as const,
      observation: failingRow().observation,
    };
    const packRow = {
      ...failingRow(),
      id: GENERATED_REQUIREMENT,
      generated: { seed: 7, count: 1, cases: [failingCase] },
    };
    const report = { ...literal, requirements: [...literal.requirements, packRow] };
    const handed = {
      rule: 'handed.in',
      ok: false,
      severity: 'MUST' as const,
      ref: 'RFC 0246 §B',
      message: 'decided by the verifier, shown by the page',
    };
    const verifier: MatrixVerifier = () =>
      Promise.resolve({
        state: 'verified',
        report,
        problems: [],
        decidedCases: new Map([
          [GENERATED_REQUIREMENT, new Map([[0, { fixture, findings: [handed] }]])],
        ]),
      });
    const out = join(dir, 'decided');
    expect(await matrixCommand([reports[0] ?? ''], { out }, () => undefined, verifier)).toBe(0);
    const pages = (await readdir(join(out, 'reports'))).filter((f) => f.endsWith('.html'));
    expect(pages).toHaveLength(1);
    const page = await readFile(join(out, 'reports', pages[0] ?? ''), 'utf8');
    expect(page).toContain(handed.message);
  });

  it("shows on a report's page a streamed pack's failing case, read from the sidecar beside the report, as the run's own page shows it, and its published copy verifies as the report given does", async () => {
    const reportDir = join(dir, 'streamed');
    await runFailingPack(dir, reportDir, kept);
    const out = join(dir, 'streamed-matrix');
    const report = join(reportDir, 'eval-gate-report.json');
    expect(await matrixCommand([report], { out }, () => undefined)).toBe(0);
    const pages = (await readdir(join(out, 'reports'))).filter((f) => f.endsWith('.html'));
    expect(pages).toHaveLength(1);
    const page = await readFile(join(out, 'reports', pages[0] ?? ''), 'utf8');
    const runPage = await readFile(join(reportDir, 'eval-gate-report.html'), 'utf8');
    // The verdict lines differ (the matrix's verifier anchors nothing here); the case does not.
    const shown = firstFailingCase(page);
    expect(shown).toContain('Trajectories, trial by trial');
    expect(shown).toBe(firstFailingCase(runPage));
    // The published copy verifies where it is, its sidecar beside it, as the report given does.
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    const copy = join(out, matrix.columns[0]?.file ?? '');
    const given = await verifiedAt(report);
    expect(given.stdout.at(-1)).toContain('22 rows recomputed');
    expect(await verifiedAt(copy)).toEqual(given);
  });

  it("copies the sidecar of every repetition's pack beside a --repeat report, so its published copy verifies as the report given does", async () => {
    const reportDir = join(dir, 'repeated');
    const args = ['--generate', '2', '--seed', '1', '--repeat', '2', '--report-dir', reportDir];
    expect((await cli(['run', ...args])).code).toBe(0);
    const out = join(dir, 'repeated-matrix');
    const report = join(reportDir, 'eval-gate-report.json');
    expect(await matrixCommand([report], { out }, () => undefined)).toBe(0);
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    const copy = join(out, matrix.columns[0]?.file ?? '');
    const given = await verifiedAt(report);
    expect(given.code).toBe(0);
    expect(await verifiedAt(copy)).toEqual(given);
  });

  it('exits 1 when no report verifies, and writes the matrix that says so', async () => {
    const out = join(dir, 'none-verifies');
    const edited = reports[2] ?? '';
    const run = await cli(['matrix', edited, '--out', out, '--trusted-keys', keyring]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('no report verifies: the matrix shows no result (1 unverified)');
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.columns.map((c) => c.verification)).toEqual(['unverified']);
    // One verifying report beside it is enough for a matrix worth reading.
    const some = join(dir, 'one-verifies');
    const mixed = await cli([
      'matrix',
      edited,
      reports[0] ?? '',
      '--out',
      some,
      '--trusted-keys',
      keyring,
    ]);
    expect(mixed.code).toBe(0);
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
