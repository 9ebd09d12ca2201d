// Which suite judged a report: its name, its version, and a digest of the judging code it ships
// (every source file under lib/ and cli/; the fixtures and schemas have digests of their own). A
// verifier compares the three with its own: a report judged by another version, or by a copy
// whose code was edited, was judged by a different referee, and this verifier does not certify
// what it did not judge. The bins run dist/, which npm run build makes from these very sources;
// the build records their digest beside its output, so a run of the built code reads one small file
// instead of hashing some 150 (tests/perf/built-digest.test.ts holds the two equal).

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_MANIFEST, PACKAGE_ROOT } from '../../package-root.ts';

export interface Referee {
  readonly name: string;
  readonly version: string;
  /** sha256 over the judging files' paths and contents; absent in reports written before it was recorded. */
  readonly judgingDigest?: string;
}

/** The folders whose code decides a verdict, relative to the package root. */
const JUDGING_FOLDERS = ['lib', 'cli'];
const JUDGING_FILE = /\.(ts|js|cjs|mjs)$/;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return entry.isFile() && JUDGING_FILE.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}

/** The digest of the judging files under `root`: each file's path and content hash, in order. */
export async function judgingDigestOf(root: string): Promise<string> {
  const files = (await Promise.all(JUDGING_FOLDERS.map((f) => filesUnder(join(root, f)))))
    .flat()
    .map((path) => relative(root, path).split(sep).join('/'))
    .sort();
  const hashes = await Promise.all(
    files.map(async (file) => {
      const content = await readFile(join(root, file));
      return `${file}\0${createHash('sha256').update(content).digest('hex')}\n`;
    }),
  );
  return createHash('sha256').update(hashes.join('')).digest('hex');
}

/** Where npm run build records the digest of the sources it compiled. */
export const BUILT_DIGEST_FILE = join(PACKAGE_ROOT, 'dist', 'lib', 'judging-digest.json');

/** The digest recorded in `file`, or undefined when it is missing or holds no digest. */
export async function readBuiltDigest(file: string): Promise<string | undefined> {
  try {
    const recorded = (JSON.parse(await readFile(file, 'utf8')) as { judgingDigest?: unknown })
      .judgingDigest;
    return typeof recorded === 'string' && /^[0-9a-f]{64}$/.test(recorded) ? recorded : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Code running from dist/ is the build's output, so the digest the build recorded is its own;
 * code running from its sources (vitest, tsx) hashes them, since they may have changed since.
 */
async function ownDigest(): Promise<string> {
  const built = fileURLToPath(import.meta.url).startsWith(join(PACKAGE_ROOT, 'dist') + sep);
  return (
    (built ? await readBuiltDigest(BUILT_DIGEST_FILE) : undefined) ?? judgingDigestOf(PACKAGE_ROOT)
  );
}

let own: Promise<Referee> | undefined;

/** This suite as a referee; read once per process. */
export function thisReferee(): Promise<Referee> {
  own ??= ownDigest().then((judgingDigest) => ({
    name: PACKAGE_MANIFEST.name,
    version: PACKAGE_MANIFEST.version,
    judgingDigest,
  }));
  return own;
}

/** Why `recorded` is not the same referee as `ours`, or undefined when it is. */
export function differentReferee(recorded: Referee, ours: Referee): string | undefined {
  if (recorded.name !== ours.name) {
    return `judged by ${recorded.name} ${recorded.version}, not by ${ours.name}`;
  }
  if (recorded.version !== ours.version) {
    return `judged by ${recorded.name} ${recorded.version}; this verifier is ${ours.version}`;
  }
  if (recorded.judgingDigest === undefined) {
    return `the report records no judging digest, so which code judged it is unknown (written by a ${recorded.version} that did not record one)`;
  }
  if (recorded.judgingDigest !== ours.judgingDigest) {
    return `judged by a copy of ${recorded.name} ${recorded.version} whose judging code differs from this one (judging digest ${recorded.judgingDigest.slice(0, 12)}…, this verifier ${String(ours.judgingDigest).slice(0, 12)}…)`;
  }
  return undefined;
}
