// The package.json that goes into the tarball runs nothing on install: `prepack` sets the
// checkout's manifest aside and writes it without lifecycle scripts (the checkout's `prepare`
// builds dist/ with bin/build.mjs and TypeScript, neither of which ships), and `postpack` puts the
// original back byte for byte. Run here on a copy of the manifest, in a scratch folder.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';
import { runProcess } from '../support/process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'bin', 'pack-manifest.mjs');
/** The scripts npm runs by itself; none may reach an installed package. */
const LIFECYCLE = /^(pre|post)?(install|prepare|publish|pack)$|^prepublishOnly$|^dependencies$/;

interface Manifest {
  readonly files: readonly string[];
  readonly scripts: Readonly<Record<string, string>>;
}

/**
 * A scratch folder holding a copy of the checkout's manifest, for one test: each test has its own,
 * so the tests, which wait on the script's processes, run side by side.
 */
async function withCopy(use: (dir: string, original: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-gate-manifest-'));
  try {
    const original = await readFile(join(ROOT, 'package.json'), 'utf8');
    await writeFile(join(dir, 'package.json'), original);
    await use(dir, original);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function packManifest(dir: string, action: string): Promise<number | null> {
  const run = await runProcess(process.execPath, [SCRIPT, action], {
    cwd: dir,
    env: isolatedEnv(),
    deadlineMs: 60_000,
  });
  return run.status;
}

async function manifestIn(folder: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;
}

describe.concurrent('the packed manifest', () => {
  it('the checkout builds on npm ci and around a pack, through its own lifecycle scripts', async () => {
    const { scripts } = await manifestIn(ROOT);
    expect(scripts.prepare).toBe('npm run build');
    expect(scripts.prepack).toBe('npm run build && node bin/pack-manifest.mjs strip');
    expect(scripts.postpack).toBe('node bin/pack-manifest.mjs restore');
  });

  it('carries no lifecycle script, and every other member as the checkout has it', () =>
    withCopy(async (dir) => {
      const checkout = await manifestIn(ROOT);
      expect(await packManifest(dir, 'strip')).toBe(0);
      const packed = await manifestIn(dir);
      expect(Object.keys(packed.scripts).filter((name) => LIFECYCLE.test(name))).toEqual([]);
      const kept = Object.fromEntries(
        Object.entries(checkout.scripts).filter(([name]) => !LIFECYCLE.test(name)),
      );
      expect(packed).toEqual({ ...checkout, scripts: kept });
      // What the lifecycle scripts ran is not shipped, which is why they must not be.
      expect(packed.files).not.toContain('bin/build.mjs');
      expect(packed.files).not.toContain('bin/pack-manifest.mjs');
    }));

  it('is undone byte for byte after the pack, even after a strip a failed pack left behind', () =>
    withCopy(async (dir, original) => {
      expect(await packManifest(dir, 'strip')).toBe(0);
      expect(await packManifest(dir, 'strip')).toBe(0);
      expect(await readFile(join(dir, 'package.json'), 'utf8')).not.toBe(original);
      expect(await packManifest(dir, 'restore')).toBe(0);
      expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(original);
      // A second restore with nothing set aside changes nothing.
      expect(await packManifest(dir, 'restore')).toBe(0);
      expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(original);
    }));

  it('refuses an action it does not know', () =>
    withCopy(async (dir) => {
      expect(await packManifest(dir, 'publish')).toBe(2);
    }));
});
