// `diff` and `badge` take only reports that verify: a report edited after it was written is named
// and refused (exit 2), as are unreadable input and a wrong command line. A verified report gets
// a shields.io endpoint badge whose message says what limits it.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeFor } from '../../lib/report/badge.ts';
import { LEGS } from '../../lib/legs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

let dir = '';
let embedded = '';
let hosted = '';
let tampered = '';
let report: EvalGateReport;
beforeAll(async () => {
  dir = await scratchDir();
  expect((await cli(['run', '--report-dir', join(dir, 'embedded')])).code).toBe(0);
  embedded = join(dir, 'embedded', 'eval-gate-report.json');
  const host = await startReferenceHost({ apiKey: LEAKY_KEY });
  try {
    const env = { OPENWOP_API_KEY: LEAKY_KEY };
    expect(
      (await cli(['run', '--base-url', host.url, '--report-dir', join(dir, 'host')], env)).code,
    ).toBe(0);
  } finally {
    await host.close();
  }
  hosted = join(dir, 'host', 'eval-gate-report.json');
  report = await readReport(join(dir, 'host'));
  // A failing row rewritten as a pass: the recomputation catches it.
  const [first, ...rest] = report.requirements;
  if (first === undefined) throw new Error('the report has no rows');
  tampered = join(dir, 'tampered.json');
  await writeFile(
    tampered,
    JSON.stringify({
      ...report,
      requirements: [{ ...first, assertions: first.assertions + 1 }, ...rest],
    }),
  );
}, 60_000);
afterAll(async () => {
  await removeDir(dir);
});

describe('diff', () => {
  it('two reports of the same host: nothing regressed, exit 0, every requirement unchanged', async () => {
    const run = await cli(['diff', hosted, hosted]);
    expect(run.code).toBe(0);
    expect(run.stdout.filter((l) => l.startsWith('unchanged '))).toHaveLength(LEGS.length);
    expect(run.stdout.at(-1)).toBe('no regression: 0 requirements changed, 0 rule changes');
  });

  it('the embedded and a hosted report differ in nothing the legs decided', async () => {
    const run = await cli(['diff', embedded, hosted, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.join('\n'))).toMatchObject({
      rules: [],
      numbers: [],
      regressions: [],
    });
  });

  it('a report that does not verify is named and refused: exit 2', async () => {
    for (const argv of [
      ['diff', tampered, hosted],
      ['diff', hosted, tampered],
    ]) {
      const run = await cli(argv);
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toEqual([
        expect.stringMatching(
          new RegExp(
            `^openwop-eval-gate: the report ${tampered.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} does not verify, so diff refuses it: `,
          ),
        ),
      ]);
    }
  });

  it('unreadable input and a wrong command line: one line, exit 2', async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'not json');
    expect((await cli(['diff', notJson, hosted])).stderr).toEqual([
      `openwop-eval-gate: the report ${notJson} is not JSON`,
    ]);
    expect(await cli(['diff', hosted])).toMatchObject({
      code: 2,
      stderr: ['openwop-eval-gate: "diff" takes exactly two OLD.json NEW.json; see --help'],
    });
  });
});

describe('badge', () => {
  it('a clean run against a host: "RFC 0246 N/N", bright green, written with --out', async () => {
    const out = join(dir, 'badge.json');
    const run = await cli(['badge', hosted, '--out', out]);
    expect(run.code).toBe(0);
    const badge = JSON.parse(await readFile(out, 'utf8')) as unknown;
    expect(badge).toEqual({
      schemaVersion: 1,
      label: 'OpenWOP eval gate',
      message: `RFC 0246 ${LEGS.length}/${LEGS.length}`,
      color: 'brightgreen',
    });
    expect(run.stdout).toEqual([
      `wrote ${out}: RFC 0246 ${LEGS.length}/${LEGS.length} (brightgreen)`,
    ]);
  });

  it('the embedded host says so and is never green', async () => {
    const run = await cli(['badge', embedded]);
    expect(JSON.parse(run.stdout[0] ?? '')).toMatchObject({
      message: `RFC 0246 ${LEGS.length}/${LEGS.length} (embedded host)`,
      color: 'lightgrey',
    });
  });

  it('a report that does not verify gets no badge: exit 2, named', async () => {
    const out = join(dir, 'never.json');
    const run = await cli(['badge', tampered, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toMatch(
      /does not verify, so badge refuses it: digests\.rows: recorded .* \(the rows were edited\) \(and 1 more; /,
    );
    await expect(readFile(out)).rejects.toThrow();
  });

  it('partial and baselined runs say so, and a failing run is red', () => {
    const [first] = LEGS;
    const selected = LEGS.map((l) => l.id).filter((id) => id !== first?.id);
    const partial: EvalGateReport = {
      ...report,
      requirements: report.requirements.map((r) =>
        r.id === first?.id
          ? { ...r, disposition: 'skipped', reason: 'not selected', findings: [], assertions: 0 }
          : r,
      ),
      selection: { only: [], skip: [first?.id ?? ''], selected },
    };
    expect(badgeFor(partial)).toMatchObject({
      message: `RFC 0246 ${selected.length}/${selected.length} (partial)`,
      color: 'yellow',
    });
    const baselined: EvalGateReport = {
      ...report,
      baseline: { file: 'b.yml', sha256: '0'.repeat(64), entries: [], excused: [] },
    };
    expect(badgeFor(baselined)).toMatchObject({
      message: `RFC 0246 ${LEGS.length}/${LEGS.length} (baseline: 0 excused)`,
      color: 'yellow',
    });
    const failing: EvalGateReport = {
      ...report,
      requirements: report.requirements.map((r, i) =>
        i === 0 ? { ...r, disposition: 'executed-fail', reason: 'x' } : r,
      ),
    };
    expect(badgeFor(failing)).toMatchObject({
      message: `RFC 0246 ${LEGS.length - 1}/${LEGS.length}`,
      color: 'red',
    });
  });
});
