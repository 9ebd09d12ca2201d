// The fixtures a host seeds to be certified: every file `fixtures --out` writes, the generated
// pack the current requirement set names among them, written once per test worker into a folder
// of its own inside the run's scratch folder (tests/support/scratch.ts), which goes when the run
// ends.

import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { writeFixtureSet } from '../../cli/fixture-set.ts';
import { currentSet } from '../../lib/requirement-sets.ts';

let written: Promise<string> | undefined;

/** The folder to seed a reference host from (`extraFixturesDirs`, `--fixtures-dir`). */
export function certificationFixtures(): Promise<string> {
  written ??= (async () => {
    const dir = await mkdtemp(join(inject('scratch'), 'certification-pack-'));
    await writeFixtureSet(dir, currentSet().pack);
    return dir;
  })();
  return written;
}
