// `openwop-eval-gate fixtures --out DIR --generate N --seed S` writes a generated pack beside the
// shipped fixtures, each file one the suite loads and the manifest lists with its digest;
// `expect` replays a generated fixture from its id. With their usage errors.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureProblem, loadFixture } from '../../lib/fixtures.ts';
import { canonicalDigest } from '../../lib/report/canonical.ts';
import type { Fixture } from '../../lib/types.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';
import { grade } from '../property/oracle.ts';

let dir = '';
beforeEach(async () => {
  dir = await scratchDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('fixtures --generate', () => {
  it('writes N generated fixtures beside the shipped ones, each loadable and in the manifest', async () => {
    const run = await cli(['fixtures', '--out', dir, '--generate', '4', '--seed', '9']);
    expect(run.code).toBe(0);
    const names = (await readdir(dir)).filter((n) => n.startsWith('generated-')).sort();
    expect(names).toEqual([1, 2, 3, 4].map((i) => `generated-s9-n000${i}.json`));
    const manifest = JSON.parse(await readFile(join(dir, 'fixtures.manifest.json'), 'utf8')) as {
      fixtures: { id: string; requirement: string; file: string; sha256: string }[];
    };
    for (const name of names) {
      const id = name.slice(0, -'.json'.length);
      const loaded = await loadFixture(id, dir);
      if (!loaded.ok) throw new Error(loaded.reason);
      expect(fixtureProblem(loaded.fixture)).toBeUndefined();
      const entry = manifest.fixtures.find((f) => f.id === id);
      expect(entry?.requirement).toBe('openwop.requirement.0246.generated');
      expect(entry?.sha256).toBe(
        canonicalDigest(JSON.parse(await readFile(join(dir, name), 'utf8'))),
      );
    }
  });

  it('refuses --generate without --out, a size out of range and a bad seed, exit 2', async () => {
    expect((await cli(['fixtures', '--generate', '3'])).stderr).toEqual([
      'openwop-eval-gate: --generate needs --out DIR',
    ]);
    const zero = await cli(['fixtures', '--out', dir, '--generate', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr.join('\n')).toContain('--generate takes a pack size');
    const seed = await cli(['fixtures', '--out', dir, '--generate', '2', '--seed', '-4']);
    expect(seed.code).toBe(2);
    expect((await cli(['fixtures', '--out', dir, '--seed', '4'])).code).toBe(2);
  });
});

describe('expect for a generated fixture', () => {
  it('replays the fixture from its id and prints the witness grading of the written file', async () => {
    await cli(['fixtures', '--out', dir, '--generate', '3', '--seed', '9']);
    const file = join(dir, 'generated-s9-n0003.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as Fixture;
    const byId = await cli(['expect', 'generated-s9-n0003', '--json']);
    const byFile = await cli(['expect', file, '--json']);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toEqual(byFile.stdout);
    const view = JSON.parse(byId.stdout.join('\n')) as { suite: { passed: boolean } };
    // The oracle grades the written file independently of the witness the CLI prints.
    expect(view.suite.passed).toBe(grade(written).summary.passed);
  });
});
