// Creating an output folder and proving it takes a file, in a number of steps bounded by the
// path's depth. Node's own `mkdir(dir, { recursive: true })` never returns for a path whose parent
// exists but cannot hold children (`/proc/nope`: the child answers ENOENT, the parent EEXIST, and
// it tries the child again forever), so the suite walks the path itself.

import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** One `mkdir`; an existing directory is success, an existing file is EEXIST. */
async function makeOne(path: string): Promise<'made' | 'missing-parent'> {
  try {
    await mkdir(path);
    return 'made';
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return 'missing-parent';
    if (code === 'EEXIST' && (await stat(path)).isDirectory()) return 'made';
    throw error;
  }
}

/**
 * `mkdir -p`: each missing ancestor is made once, from the root down, and a folder still missing
 * after its parent was made is final (ENOENT), so every path ends in a result.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const path = resolve(dir);
  if ((await makeOne(path)) === 'made') return;
  const parent = dirname(path);
  if (parent === path) throw Object.assign(new Error(`no root for ${path}`), { code: 'ENOENT' });
  await makeDirectory(parent);
  if ((await makeOne(path)) === 'missing-parent') {
    throw Object.assign(new Error(`ENOENT: cannot make ${path} inside ${parent}`), {
      code: 'ENOENT',
    });
  }
}

/**
 * Makes `dir` and writes and removes one empty file in it, before any work that would write
 * there: the error code (ENOENT, EACCES, ENOTDIR, EROFS, …) when it cannot, else undefined.
 */
export async function unwritableReason(dir: string): Promise<string | undefined> {
  const probe = join(dir, `.openwop-eval-gate-write-check-${process.pid}`);
  try {
    await makeDirectory(dir);
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return codeOf(error) ?? 'error';
  }
}
