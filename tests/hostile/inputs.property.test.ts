// Any bytes at all given to verify and matrix as a report: random bytes, random JSON, nestings of
// any depth (closed or not), and a genuine report cut short or with a byte changed. The commands
// run in this process, through their functions; each ends in a normal outcome or a refusal of
// one line with exit 2, and never throws or prints a stack trace.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeDir, scratchDir, type CliRun } from '../cli/support.ts';

const LEGACY = join(
  import.meta.dirname,
  '..',
  'report',
  'legacy',
  'report-954060f-embedded.json.gz',
);

let dir = '';
let genuine = Buffer.alloc(0);
beforeAll(async () => {
  dir = await scratchDir();
  genuine = gunzipSync(await readFile(LEGACY));
});
afterAll(async () => {
  await removeDir(dir);
});

/** A nesting of arrays and objects `depth` deep, closed or left open. */
const nesting = fc
  .record({
    depth: fc.integer({ min: 1, max: 20_000 }),
    opener: fc.constantFrom('[', '{"a":', '[{"b":['),
    closed: fc.boolean(),
  })
  .map(({ depth, opener, closed }) => {
    const closer = opener === '[' ? ']' : opener === '{"a":' ? '}' : ']}]';
    return Buffer.from(`${opener.repeat(depth)}1${closed ? closer.repeat(depth) : ''}`);
  });

/** A genuine report cut at some byte, or with one byte changed. */
const damaged = fc
  .record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() })
  .map(({ at, byte, cut }) => {
    const where = at % genuine.length;
    if (cut) return genuine.subarray(0, where);
    const copy = Buffer.from(genuine);
    copy[where] = byte;
    return copy;
  });

const anyInput = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
  fc.json({ depthSize: 'large' }).map((text) => Buffer.from(text)),
  nesting,
  damaged,
);

/** A normal outcome, or a refusal of one line: exit 2, one stderr line, no stack frame. */
function expectBounded(run: CliRun, ok: readonly number[]): void {
  const text = [...run.stdout, ...run.stderr].join('\n');
  expect(text).not.toMatch(/internal error|\n\s+at .*:\d+:\d+|RangeError|Maximum call stack/);
  if (run.code === 2) {
    expect(run.stderr).toHaveLength(1);
  } else {
    expect(ok).toContain(run.code);
    expect(run.stderr).toEqual([]);
  }
}

let sample = 0;
async function written(bytes: Buffer): Promise<string> {
  sample += 1;
  const path = join(dir, `input-${sample}.json`);
  await writeFile(path, bytes);
  return path;
}

describe('verify and matrix given any bytes', () => {
  it('verify: a verdict or a one-line refusal, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(anyInput, async (bytes) => {
        const run = await cli(['verify', await written(bytes), '--offline', '--max-depth', '64']);
        expectBounded(run, [0, 1]);
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  it('matrix: every input a column, written beside a genuine report', async () => {
    const good = await written(genuine);
    await fc.assert(
      fc.asyncProperty(anyInput, async (bytes) => {
        const out = join(dir, `matrix-${sample}`);
        const run = await cli(['matrix', await written(bytes), good, '--out', out, '--offline']);
        expectBounded(run, [0]);
        if (run.code === 0)
          expect(await readFile(join(out, 'matrix.json'), 'utf8')).toContain('"columns"');
      }),
      { numRuns: 12 },
    );
    // Each sample verifies and renders the genuine report's page again: generous, not a bound.
  }, 300_000);
});
