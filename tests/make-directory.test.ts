// The output folder is made by a walk bounded by the path's depth: every path ends in a result,
// including one under /proc, where Node's recursive mkdir tries the same two calls for ever.

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectory, unwritableReason } from '../lib/make-directory.ts';

/** A third of the test's own timeout: a hang is reported as one, not as a timed-out test. */
const STILL_RUNNING_MS = 10_000;

async function settled(work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise((resolve) => {
    timer = setTimeout(() => resolve('still running'), STILL_RUNNING_MS);
  });
  try {
    return await Promise.race([
      work.then(
        (value) => value ?? 'done',
        (error: NodeJS.ErrnoException) => error.code,
      ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'eval-gate-mkdir-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('makeDirectory', () => {
  it('makes every missing folder of a nested path, and an existing one is no error', async () => {
    const nested = join(dir, 'a', 'b', 'c');
    expect(await settled(makeDirectory(nested))).toBe('done');
    expect((await stat(nested)).isDirectory()).toBe(true);
    expect(await settled(makeDirectory(nested))).toBe('done');
  });

  it('under a file is ENOTDIR, and a file in its place is EEXIST', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    expect(await settled(makeDirectory(join(file, 'sub')))).toBe('ENOTDIR');
    expect(await settled(makeDirectory(file))).toBe('EEXIST');
  });

  it('under a dangling link is an error, not a loop', async () => {
    await symlink(join(dir, 'missing'), join(dir, 'dangling'));
    expect(await settled(makeDirectory(join(dir, 'dangling', 'out')))).toMatch(/^E[A-Z]+$/);
  });

  it('under /proc, which exists but takes no folder, ends with ENOENT', (ctx) => {
    if (!existsSync('/proc/self')) ctx.skip('no /proc on this system');
    return (async () => {
      expect(await settled(makeDirectory('/proc/openwop-eval-gate-nope/reports'))).toBe('ENOENT');
      expect(await settled(makeDirectory('/proc/openwop-eval-gate-nope'))).toBe('ENOENT');
    })();
  });
});

describe('unwritableReason', () => {
  it('is undefined for a folder it can make and write in, and leaves no probe file', async () => {
    const target = join(dir, 'reports');
    expect(await unwritableReason(target)).toBeUndefined();
    expect(await readdir(target)).toEqual([]);
  });

  it('names the code for /proc/nope at once', (ctx) => {
    if (!existsSync('/proc/self')) ctx.skip('no /proc on this system');
    return (async () => {
      expect(await settled(unwritableReason('/proc/nope'))).toBe('ENOENT');
    })();
  });
});
