// Reports and sidecars built to hurt the reader: nested past any stack, larger than memory, a
// gzip bomb, one endless line, a named pipe, a link out of the folder. Each is built here, and
// the limits are lowered through their flags so that a test writes kilobytes, not gigabytes.
// Every refusal is one line that names the limit and the flag raising it; none is a stack trace.

import { execFileSync } from 'node:child_process';
import { mkdir, open, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_INPUT_LIMITS,
  InputRefusal,
  nestingBeyond,
  type InputLimits,
} from '../../lib/bounded-input.ts';
import { sidecarReader } from '../../lib/report/generated-sidecar.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';

let dir = '';
beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

const LEGACY = join(import.meta.dirname, '..', 'report', 'legacy');

/** A genuine report written by an earlier release, to stand beside the hostile ones. */
async function genuine(name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    gunzipSync(await readFile(join(LEGACY, 'report-954060f-embedded.json.gz'))),
  );
  return path;
}

function nested(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** A refusal as the CLI prints it: one stderr line, no stack frame, exit 2. */
function expectOneLineRefusal(
  run: { code: number; stderr: readonly string[] },
  ...parts: string[]
): void {
  expect(run.code).toBe(2);
  expect(run.stderr).toHaveLength(1);
  const [line = ''] = run.stderr;
  expect(line).not.toMatch(/\n|\bat .*:\d+:\d+|internal error/);
  for (const part of parts) expect(line).toContain(part);
}

describe('a report built to hurt the reader', () => {
  it.each([5_000, 100_000])(
    'nested %i levels deep: verify refuses it in one line naming --max-depth',
    async (levels) => {
      const path = join(dir, `deep-${levels}.json`);
      await writeFile(path, nested(levels));
      expectOneLineRefusal(await cli(['verify', path, '--offline']), '--max-depth', path);
    },
  );

  it('nested deeper than a lowered --max-depth is refused, and at the limit it is read', async () => {
    const path = join(dir, 'deep-5.json');
    await writeFile(path, nested(5));
    expectOneLineRefusal(
      await cli(['verify', path, '--offline', '--max-depth', '4']),
      '--max-depth',
    );
    // At the limit the nesting is no refusal: what remains is that it is not a report.
    const run = await cli(['verify', path, '--offline', '--max-depth', '5']);
    expect(run.stderr).toEqual([]);
    expect(run.stdout.at(-1)).toMatch(/not a report$/);
  });

  it('the depth scan ignores brackets inside strings and escaped quotes', () => {
    expect(nestingBeyond(JSON.stringify({ a: '[[[[[[', b: '\\"[[[[' }), 2)).toBe(false);
    expect(nestingBeyond('[[[', 2)).toBe(true);
  });

  it('larger than --max-report-bytes: refused from its size alone, before it is read', async () => {
    const path = join(dir, 'sparse.json');
    // A sparse gigabyte: reading it would take the time and memory the limit is there to save.
    const handle = await open(path, 'w');
    await handle.truncate(1024 * 1024 * 1024);
    await handle.close();
    const started = Date.now();
    const run = await cli(['verify', path, '--offline']);
    expectOneLineRefusal(run, '--max-report-bytes', '1073741824 bytes');
    expect(Date.now() - started).toBeLessThan(20_000);
    const small = await genuine('small.json');
    expectOneLineRefusal(
      await cli(['verify', small, '--offline', '--max-report-bytes', '1000']),
      '--max-report-bytes',
      'over the limit of 1000',
    );
  });

  it('a named pipe given as the report is refused at once, not waited on', async () => {
    const path = join(dir, 'report-pipe.json');
    execFileSync('mkfifo', [path]);
    expectOneLineRefusal(await cli(['verify', path, '--offline']), 'not a regular file');
  });

  it('a limit flag that is not a whole number is a usage error', async () => {
    const path = await genuine('usage.json');
    expectOneLineRefusal(
      await cli(['verify', path, '--max-depth', '0']),
      '--max-depth takes a whole number of at least 1',
    );
  });

  it('matrix shows an unreadable report as a column that says why, and still writes the rest', async () => {
    const deep = join(dir, 'matrix-deep.json');
    await writeFile(deep, nested(100_000));
    const notJson = join(dir, 'matrix-garbage.json');
    await writeFile(notJson, '{"oops');
    const good = await genuine('matrix-good.json');
    const out = join(dir, 'matrix-out');
    const run = await cli(['matrix', deep, notJson, good, '--out', out, '--offline']);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as {
      columns: { verification: string; problems: string[]; source: string }[];
    };
    expect(matrix.columns).toHaveLength(3);
    const byFile = (name: string) => matrix.columns.find((c) => c.source.endsWith(name));
    expect(byFile('matrix-deep.json')?.verification).toBe('unverified');
    expect(byFile('matrix-deep.json')?.problems[0]).toContain('--max-depth');
    expect(byFile('matrix-garbage.json')?.problems[0]).toContain('is not JSON');
    expect(byFile('matrix-good.json')?.verification).not.toBe('unverified');
  });
});

/** Every line of the sidecar `file` in `folder`, or the error that ended the read. */
async function readAll(
  folder: string,
  file: string,
  limits: Partial<InputLimits> = {},
): Promise<{ lines: number; error?: unknown }> {
  const read = sidecarReader(folder, { ...DEFAULT_INPUT_LIMITS, ...limits })(file);
  let lines = 0;
  try {
    for await (const line of read.lines) lines += line === undefined ? 0 : 1;
    return { lines };
  } catch (error) {
    return { lines, error };
  }
}

function expectRefusal(error: unknown, flag: string): void {
  expect(error).toBeInstanceOf(InputRefusal);
  expect((error as Error).message).toContain(flag);
  expect((error as Error).message).not.toContain('\n');
}

describe('a sidecar built to hurt the reader', () => {
  let folder = '';
  beforeAll(async () => {
    folder = join(dir, 'sidecars');
    await mkdir(folder);
  });

  it('a gzip bomb is refused once the inflated bytes pass --max-inflated-bytes', async () => {
    // 8 MiB of blank lines of a kilobyte compresses to a few kilobytes.
    const line = Buffer.concat([Buffer.alloc(1023, 0x20), Buffer.from('\n')]);
    await writeFile(
      join(folder, 'bomb.jsonl.gz'),
      gzipSync(Buffer.concat(Array.from({ length: 8 * 1024 }, () => line))),
    );
    const { lines, error } = await readAll(folder, 'bomb.jsonl.gz', {
      maxInflatedBytes: 1024 * 1024,
    });
    expectRefusal(error, '--max-inflated-bytes');
    expect(lines).toBeLessThanOrEqual(1024);
    // The same file under the default limit is read to its end: the limit, not the file, refused it.
    expect(await readAll(folder, 'bomb.jsonl.gz')).toEqual({ lines: 8 * 1024 });
  });

  it('a sidecar larger than --max-sidecar-bytes is refused before it is inflated', async () => {
    await writeFile(join(folder, 'big.jsonl.gz'), gzipSync(Buffer.from('{}\n'.repeat(1000))));
    const { lines, error } = await readAll(folder, 'big.jsonl.gz', { maxSidecarBytes: 10 });
    expectRefusal(error, '--max-sidecar-bytes');
    expect(lines).toBe(0);
  });

  it('one line longer than --max-line-bytes is refused without being held', async () => {
    await writeFile(
      join(folder, 'long.jsonl.gz'),
      gzipSync(Buffer.concat([Buffer.from('{}\n'), Buffer.alloc(4 * 1024 * 1024, 0x61)])),
    );
    const { lines, error } = await readAll(folder, 'long.jsonl.gz', { maxLineBytes: 64 * 1024 });
    expectRefusal(error, '--max-line-bytes');
    expect(lines).toBe(1);
    expect(await readAll(folder, 'long.jsonl.gz')).toEqual({ lines: 2 });
  });

  it('a long sidecar reports its progress as it is read, for verify to show on a terminal', async () => {
    await writeFile(join(folder, 'long-pack.jsonl.gz'), gzipSync('{}\n'.repeat(1200)));
    const seen: [string, number][] = [];
    const read = sidecarReader(folder, DEFAULT_INPUT_LIMITS, (file, lines, bytes) => {
      expect(bytes).toBeGreaterThan(0);
      seen.push([file, lines]);
    })('long-pack.jsonl.gz');
    let lines = 0;
    for await (const line of read.lines) lines += line === '{}' ? 1 : 0;
    expect(lines).toBe(1200);
    expect(seen).toEqual([
      ['long-pack.jsonl.gz', 500],
      ['long-pack.jsonl.gz', 1000],
    ]);
  });

  it('a named pipe is refused at once, and the read does not hang', async () => {
    execFileSync('mkfifo', [join(folder, 'pipe.jsonl.gz')]);
    const { error } = await readAll(folder, 'pipe.jsonl.gz');
    expect((error as Error).message).toContain('not a regular file');
  });

  it("a link that leads out of the report's folder is refused; one inside it is followed", async () => {
    const outside = join(dir, 'outside.jsonl.gz');
    await writeFile(outside, gzipSync('{}\n'));
    await symlink(outside, join(folder, 'out-link.jsonl.gz'));
    const { error } = await readAll(folder, 'out-link.jsonl.gz');
    expect((error as Error).message).toContain("leads out of the report's folder");
    await writeFile(join(folder, 'inside.jsonl.gz'), gzipSync('{}\n{}\n'));
    await symlink(join(folder, 'inside.jsonl.gz'), join(folder, 'in-link.jsonl.gz'));
    expect(await readAll(folder, 'in-link.jsonl.gz')).toEqual({ lines: 2 });
  });
});
