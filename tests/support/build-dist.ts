// vitest globalSetup: the bins run the compiled code under dist/, so tests that spawn them must see
// this checkout's sources, never a build left over from an older one. The build is skipped only
// when the stamp bin/build.mjs leaves (dist/.built, the time that build began) is newer than every
// source file and build setting.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.built');
const SOURCES = ['cli', 'lib', 'reference-host'];
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'bin/build.mjs'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

function isFresh(): boolean {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  const inputs = [...SOURCES, ...SETTINGS].map((p) => newestChange(join(ROOT, p)));
  return inputs.every((changed) => changed < built);
}

export default function setup(): void {
  if (isFresh()) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (build.status !== 0) {
    throw new Error(`npm run build failed before the tests:\n${build.stdout}${build.stderr}`);
  }
}
