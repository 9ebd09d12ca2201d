// Where the package's own files live. The code runs from its TypeScript sources (vitest, the
// legs file) and compiled under dist/ (the bins), one folder deeper; both find schemas/,
// fixtures/, docs/ and package.json from the nearest folder above that holds a package.json.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
}

/** The package's root folder, with a trailing separator left off. */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, e.g. `packagePath('fixtures')`. */
export function packagePath(...parts: readonly string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

interface Manifest {
  readonly name: string;
  readonly version: string;
}

/** The package's own name and version, read from its package.json. */
export const PACKAGE_MANIFEST: Manifest = JSON.parse(
  readFileSync(packagePath('package.json'), 'utf8'),
) as Manifest;
