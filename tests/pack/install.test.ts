// The package as a host team gets it: `npm pack`, installed into an empty project from the npm
// cache alone, then `npx openwop-eval-gate run` there. Nothing may come from the network, so the
// empty project gets a lockfile of this project's runtime packages: `npm ci` fetched exactly those
// tarballs, by integrity, and a plain `npm install` would ask the registry for their metadata.

import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { isolatedEnv, withoutVerdict } from '../cli/support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TARBALL = 'suite.tgz';

interface LockEntry {
  readonly dev?: boolean;
  readonly [member: string]: unknown;
}
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly bin: Readonly<Record<string, string>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
}

function sh(
  command: string,
  args: readonly string[],
  cwd: string,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: isolatedEnv(),
    timeout: 90_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let work = '';
let packed: readonly string[] = [];
let install: ReturnType<typeof sh>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'eval-gate-pack-'));
  const pack = sh('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const [result] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  if (result === undefined) throw new Error('npm pack reported no package');
  packed = result.files.map((f) => f.path);
  const project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, TARBALL), await readFile(join(work, result.filename)));
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Readonly<Record<string, LockEntry>>;
  };
  const dependencies = { [manifest.name]: `file:${TARBALL}` };
  const packages: Record<string, unknown> = {
    '': { name: 'host-project', version: '1.0.0', dependencies },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: `file:${TARBALL}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  // This project's runtime packages sit at the same paths under the installed package's
  // dependencies, since those are exactly this project's own dependencies.
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && entry.dev !== true) packages[path] = entry;
  }
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'host-project', version: '1.0.0', private: true, dependencies }),
  );
  await writeFile(
    join(project, 'package-lock.json'),
    JSON.stringify({
      name: 'host-project',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages,
    }),
  );
  install = sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], project);
}, 150_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships the legs file, the runtime and the fixtures, and no test of the suite itself', () => {
    for (const path of [
      'tests/v2-eval-trajectory-trials.test.ts',
      'bin/openwop-eval-gate.mjs',
      'cli/main.ts',
      'lib/eval-gate-witness.ts',
      'reference-host/index.ts',
      'fixtures/conformance-eval-trajectory-gate-mean.json',
      'schemas/v2/eval-gate-report.schema.json',
      'action.yml',
    ]) {
      expect(packed).toContain(path);
    }
    const tests = packed.filter((p) => p.startsWith('tests/'));
    expect(tests).toEqual(['tests/v2-eval-trajectory-trials.test.ts']);
  });

  it(
    'installs into an empty project from the npm cache alone and runs every leg there to a pass',
    { timeout: 120_000 },
    async () => {
      expect(install.status, install.stderr).toBe(0);
      const project = join(work, 'project');
      const run = sh('npx', ['--offline', 'openwop-eval-gate', 'run'], project);
      expect(run.status, run.stderr).toBe(0);
      expect(withoutVerdict(run.stdout.trimEnd().split('\n').at(-1))).toBe(
        `${LEGS.length} passed, 0 failed, 0 blocked, 0 skipped`,
      );
      expect(await readdir(join(project, 'reports'))).toEqual(
        expect.arrayContaining(['eval-gate-report.json', 'eval-gate-junit.xml']),
      );
    },
  );
});
