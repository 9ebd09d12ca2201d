// Reports written by the suite before it recorded its referee (commit 954060f, version 0.1.0)
// still verify: every verdict and digest recomputes (exit 0). They were judged by code this
// verifier cannot name, so it certifies none of them, however they are signed. The files were
// written by that commit's own bins: a strict run signed under a key its host published, an
// unsigned run that declared another implementation than the host advertised, and the embedded host.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeDir, scratchDir } from '../cli/support.ts';

const VERSION = (
  JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const LEGACY = join(import.meta.dirname, 'legacy');
let dir = '';

beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

async function legacy(name: string): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, gunzipSync(await readFile(join(LEGACY, `report-954060f-${name}.json.gz`))));
  return path;
}

describe('a report written before the referee was recorded', () => {
  it('a strict signed run verifies under its key, and is not certified by another referee', async () => {
    const key = join(LEGACY, 'report-954060f-strict.pub.pem');
    const run = await cli(['verify', await legacy('strict'), '--key', key]);
    expect(run.code).toBe(0);
    const lines = run.stdout.join('\n');
    expect(lines).toContain(`anchor: vouched for by the key file ${key}, as of `);
    expect(run.stdout).toContain(
      `referee: judged by openwop-eval-gate-conformance 0.1.0; this verifier is ${VERSION}`,
    );
    // A key file binds no implementation, so it would certify none even for this referee.
    expect(lines).toContain(
      'certification: not certified: key file binds no implementation, different referee, as of ',
    );
    expect(run.stdout.at(-1)).toMatch(
      /^integrity under the key file .*, as of [-\d]+T[\d:.]+Z, \d+ days old: .*: 16 rows recomputed, 0 checked for consistency only, every digest matches$/,
    );
  });

  it('a run that declared another implementation verifies under the rules it was written under', async () => {
    const run = await cli(['verify', await legacy('declared'), '--offline']);
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toContain(
      'certification: not certified: strict mode off, not signed, different referee, as of ',
    );
  });

  it('an embedded-host run verifies, and is never certified', async () => {
    const run = await cli(['verify', await legacy('embedded'), '--offline']);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toMatch(/^unsigned: integrity only, nobody vouches for it, as of /);
  });
});
