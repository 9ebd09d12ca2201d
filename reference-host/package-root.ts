// The package's root folder, found from this module whether it runs from its TypeScript source or
// compiled under dist/: the nearest folder above that holds a package.json. The host keeps its own
// copy of this walk because it shares no code with the suite.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));
