// The fixtures a host seeds to be certified: every file `fixtures --out` writes, the generated
// pack the current requirement set names among them, written once per test process into a
// folder of its own, which the process removes on exit.

import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureSet } from '../../cli/fixture-set.ts';
import { currentSet } from '../../lib/requirement-sets.ts';

let written: Promise<string> | undefined;

/** The folder to seed a reference host from (`extraFixturesDirs`, `--fixtures-dir`). */
export function certificationFixtures(): Promise<string> {
  written ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openwop-certification-pack-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await writeFixtureSet(dir, currentSet().pack);
    return dir;
  })();
  return written;
}
