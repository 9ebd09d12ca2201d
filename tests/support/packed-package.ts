// The tarball `npm pack` makes of this checkout, made once per test run and shared by every test
// file that reads or installs it: packing costs npm's start and a gzip of the whole package, a few
// seconds of CPU each time, and the files are the same for every reader. Scripts are off: the
// globalSetup has already built dist/ from these sources, and `prepare` would only build it again.
//
// The first worker to ask packs into the run's scratch folder (tests/support/scratch.ts); a worker
// that asks meanwhile waits for the record the packer writes last, up to a deadline, so a packer
// that died leaves a named failure rather than a hang. Readers copy or unpack the tarball; none
// writes into the shared folder.

import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';
import { runProcess } from './process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How long npm may take to pack, and a waiting worker to wait: far past a pack on a busy machine. */
const PACK_DEADLINE_MS = 240_000;
const RECORD = 'packed.json';

export interface PackedPackage {
  /** The tarball's absolute path. */
  readonly tarball: string;
  /** The package name, the folder it is installed under in node_modules. */
  readonly name: string;
  /** Every file in the tarball, as `npm pack --json` lists them, relative to the package. */
  readonly files: readonly string[];
}

/** What the packer leaves for the others: the package, or why npm could not pack it. */
type PackRecord =
  | { readonly ok: true; readonly packed: PackedPackage }
  | { readonly ok: false; readonly why: string };

let packed: Promise<PackedPackage> | undefined;

/** The packed package, made by whichever worker asked first in this test run. */
export function packedPackage(): Promise<PackedPackage> {
  packed ??= shared();
  return packed;
}

async function shared(): Promise<PackedPackage> {
  const dir = join(inject('scratch'), 'packed-package');
  const first = await mkdir(dir).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  const record = first ? await pack(dir) : await awaitRecord(dir);
  if (!record.ok) throw new Error(record.why);
  return record.packed;
}

/** Packs into `dir` and leaves the record there in one rename, so a reader never sees half of it. */
async function pack(dir: string): Promise<PackRecord> {
  const run = await runProcess(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
    { cwd: ROOT, env: isolatedEnv(), deadlineMs: PACK_DEADLINE_MS },
  );
  const record = recordOf(dir, run.status, run.stdout, run.stderr);
  const partial = join(dir, `${RECORD}.${randomBytes(6).toString('hex')}`);
  await writeFile(partial, JSON.stringify(record));
  await rename(partial, join(dir, RECORD));
  return record;
}

function recordOf(dir: string, status: number | null, stdout: string, stderr: string): PackRecord {
  if (status !== 0) return { ok: false, why: `npm pack exited ${String(status)}: ${stderr}` };
  const [entry] = JSON.parse(stdout) as {
    filename: string;
    name: string;
    files: { path: string }[];
  }[];
  if (entry === undefined) return { ok: false, why: 'npm pack reported no package' };
  return {
    ok: true,
    packed: {
      tarball: join(dir, entry.filename),
      name: entry.name,
      files: entry.files.map((f) => f.path),
    },
  };
}

/** The record another worker is writing: read when its rename lands, or a failure at the deadline. */
function awaitRecord(dir: string): Promise<PackRecord> {
  return new Promise((resolve, reject) => {
    const read = (): void => {
      readFile(join(dir, RECORD), 'utf8').then(
        (text) => {
          finish();
          resolve(JSON.parse(text) as PackRecord);
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') {
            finish();
            reject(error);
          }
        },
      );
    };
    const watcher = watch(dir, (_event, name) => {
      if (name === RECORD) read();
    });
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`no packed package in ${dir} after ${PACK_DEADLINE_MS} ms`));
    }, PACK_DEADLINE_MS);
    function finish(): void {
      clearTimeout(timer);
      watcher.close();
    }
    // The record may have landed before the watch began.
    read();
  });
}
