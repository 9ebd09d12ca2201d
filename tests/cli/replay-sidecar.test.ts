// `verify` reads a generated pack's sidecar line by line and refuses any edit of it: each shape of
// leaf in a line, edited alone, breaks the digest the report records; and an edit whose digest is
// recorded again (the report's rows digest made to match, as a forger of an unsigned report would)
// is still named by the line it contradicts: a line missing, added, moved or edited, a file cut
// short. The report comes from a real run of a small pack, beside one leg, on a host with one
// defect, so the lines hold passing and failing cases, observations and findings.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportShapeProblem, verifyReport } from '../../cli/verify.ts';
import { writePackFiles } from '../../cli/fixture-set.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { rowsDigest } from '../../lib/report/report.ts';
import type { GeneratedSidecar, StreamedGeneratedRecord } from '../../lib/types.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import {
  cli,
  generatedRow,
  LEAKY_KEY,
  readReport,
  readSidecarLines,
  removeDir,
  scratchDir,
  streamedPack,
  writeSidecar,
} from './support.ts';
import { withLeafChanged, type LeafPath } from './leaf-edit.ts';

const COUNT = 4;
const SEED = 7;

let dir = '';
let reportDir = '';
let report: EvalGateReport;
let lines: string[] = [];

function pack(r: EvalGateReport): StreamedGeneratedRecord {
  return streamedPack(generatedRow(r));
}

beforeAll(async () => {
  dir = await scratchDir();
  const packDir = join(dir, 'pack');
  await mkdir(packDir);
  await writePackFiles(packDir, generatePack({ count: COUNT, seed: SEED }));
  const host = await startReferenceHost({
    apiKey: LEAKY_KEY,
    defect: 'score-zeroed',
    extraFixturesDirs: [packDir],
  });
  reportDir = join(dir, 'reports');
  try {
    const argv = ['run', '--base-url', host.url, '--report-dir', reportDir, '--require-behavior'];
    // One leg beside the pack: every verify below replays each row the run drove, and no leg's
    // row holds anything of the sidecar, so the other legs would only add to every replay.
    const selected = ['--only', LEGS[0]?.id ?? ''];
    const pack = ['--generate', String(COUNT), '--seed', String(SEED)];
    const run = await cli([...argv, ...pack, ...selected], {
      OPENWOP_API_KEY: LEAKY_KEY,
    });
    expect(run.code).toBe(1);
  } finally {
    await host.close();
  }
  report = await readReport(reportDir);
  lines = await readSidecarLines(reportDir, pack(report).sidecar.file);
}, 120_000);
afterAll(async () => {
  await removeDir(dir);
});

/** The first leaf of each shape of member in the lines, as [line index, path]. */
function leavesByShape(): Map<string, readonly [number, readonly (string | number)[]]> {
  const shapes = new Map<string, readonly [number, readonly (string | number)[]]>();
  lines.forEach((line, n) => {
    const walk = (v: unknown, at: readonly (string | number)[], shape: string): void => {
      if (Array.isArray(v)) v.forEach((item: unknown, i) => walk(item, [...at, i], `${shape}[*]`));
      else if (typeof v === 'object' && v !== null) {
        for (const [key, item] of Object.entries(v)) walk(item, [...at, key], `${shape}.${key}`);
      } else if (!shapes.has(shape)) shapes.set(shape, [n, at]);
    };
    walk(JSON.parse(line) as unknown, [], 'line');
  });
  return shapes;
}

/** The lines with the leaf at `at` of line `n` changed to another value of the same type. */
function editedLines(n: number, at: LeafPath): string[] {
  const copy = withLeafChanged(JSON.parse(lines[n] ?? '') as unknown, at, (text) => `${text}~`);
  return lines.map((line, i) => (i === n ? JSON.stringify(copy) : line));
}

/** The problems verify names for the report beside a sidecar `name` holding `bytes`. */
async function verifyWith(name: string, bytes: Buffer, reseal: boolean): Promise<string[]> {
  const folder = join(dir, 'verify', name);
  await mkdir(folder, { recursive: true });
  const { file } = pack(report).sidecar;
  await writeFile(join(folder, file), bytes);
  let checked = report;
  if (reseal) {
    const sidecar = await sealed(folder, file, bytes);
    const requirements = report.requirements.map((r) =>
      r.id === GENERATED_REQUIREMENT ? { ...r, generated: { ...pack(report), sidecar } } : r,
    );
    checked = {
      ...report,
      requirements,
      digests: { ...report.digests, rows: rowsDigest(requirements) },
    };
  }
  return [...(await verifyReport(checked, folder)).problems];
}

async function sealed(folder: string, file: string, bytes: Buffer): Promise<GeneratedSidecar> {
  const { createHash } = await import('node:crypto');
  await writeFile(join(folder, file), bytes);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

const gz = (ls: readonly string[]): Buffer => gzipSync(ls.map((l) => `${l}\n`).join(''));

describe('verify of a streamed pack', () => {
  it('verifies the sidecar as written, and a copy of the report elsewhere without it is refused', async () => {
    expect(pack(report).tally['executed-fail']).toBeGreaterThan(0);
    expect(await verifyWith('as-written', gz(lines), false)).toEqual([]);
    const alone = await verifyReport(report, join(dir, 'nowhere'));
    expect(alone.problems.join('\n')).toMatch(/could not be read to its end \(ENOENT/);
  }, 60_000);

  it('each shape of leaf in a line, edited alone, is refused by the digest the report records', async () => {
    const unnoticed: string[] = [];
    const shapes = leavesByShape();
    // Lines of every kind: passing and failing cases, observations, events and summaries.
    expect(shapes.size).toBeGreaterThan(30);
    for (const [shape, [n, at]] of shapes) {
      const problems = await verifyWith('leaf', gz(editedLines(n, at)), false);
      if (!problems.some((p) => p.includes('recorded sha256'))) unnoticed.push(shape);
    }
    expect(unnoticed).toEqual([]);
  }, 120_000);

  it('each leaf of the row’s pack record, edited alone with the rows digest made to match, is named', async () => {
    const record = pack(report);
    const leaves: (readonly (string | number)[])[] = [];
    const walk = (v: unknown, at: readonly (string | number)[]): void => {
      if (Array.isArray(v)) v.forEach((item: unknown, i) => walk(item, [...at, i]));
      else if (typeof v === 'object' && v !== null) {
        for (const [key, item] of Object.entries(v)) walk(item, [...at, key]);
      } else leaves.push(at);
    };
    walk(record, []);
    expect(leaves.length).toBeGreaterThan(10);
    const folder = join(dir, 'verify', 'record');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, record.sidecar.file), gz(lines));
    const unnoticed: string[] = [];
    for (const at of leaves) {
      const copy = structuredClone(record) as unknown as Record<string | number, unknown>;
      let parent = copy;
      for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = at.at(-1) as string | number;
      const value = parent[last];
      parent[last] = typeof value === 'number' ? value + 1 : `${String(value)}0`;
      const requirements = report.requirements.map((r) =>
        r.id === GENERATED_REQUIREMENT
          ? { ...r, generated: copy as unknown as StreamedGeneratedRecord }
          : r,
      );
      const edited = {
        ...report,
        requirements,
        digests: { ...report.digests, rows: rowsDigest(requirements) },
      };
      const problems =
        reportShapeProblem(edited) !== undefined
          ? ['shape']
          : (await verifyReport(edited, folder)).problems;
      if (problems.length === 0) unnoticed.push(at.join('.'));
    }
    expect(unnoticed).toEqual([]);
  }, 120_000);

  it.each([
    [
      'a line missing',
      () => lines.slice(1),
      /line 1: records generated-s7-n0002, the pack places generated-s7-n0001 there/,
    ],
    ['a line added', () => [...lines, lines[0] ?? ''], /line 5: beyond the pack of 4 at seed 7/],
    [
      'two lines swapped',
      () => [lines[1] ?? '', lines[0] ?? '', ...lines.slice(2)],
      /line 1: records generated-s7-n0002, the pack places generated-s7-n0001 there/,
    ],
    ['a line that is not JSON', () => ['{', ...lines.slice(1)], /line 1: not JSON/],
    [
      'a disposition relabelled',
      () => editedLines(0, ['disposition']),
      /line 1 \(generated-s7-n0001\): /,
    ],
  ])(
    '%s, its digest recorded again, is named by its line',
    async (name, edit, named) => {
      const problems = await verifyWith(name.replace(/\W+/g, '-'), gz(edit()), true);
      expect(problems.join('\n')).toMatch(named);
    },
    60_000,
  );

  it('a sidecar cut short, its digest recorded again, is named as unreadable and short', async () => {
    const whole = gz(lines);
    const problems = await verifyWith('cut', whole.subarray(0, Math.floor(whole.length / 2)), true);
    expect(problems.join('\n')).toMatch(/could not be read to its end \(unexpected end of file\)/);
    expect(problems.join('\n')).toMatch(/lines, the pack of 4 at seed 7 has 4/);
  }, 60_000);

  it('a sidecar written as a test would write it verifies when it is the same bytes', async () => {
    const folder = join(dir, 'verify', 'rewritten');
    await mkdir(folder, { recursive: true });
    const again = await writeSidecar(folder, pack(report).sidecar.file, lines);
    // gzip's output is the same for the same lines at the same level, so the digest holds.
    expect(again.sha256 === pack(report).sidecar.sha256).toBe(true);
    expect((await verifyReport(report, folder)).problems).toEqual([]);
  }, 60_000);
});
