#!/usr/bin/env node
// `prepack` and `postpack`: the package.json that goes into the tarball carries no lifecycle
// script. In the checkout, `prepare` compiles dist/ on `npm ci` (and for a git URL install) with
// bin/build.mjs and the TypeScript devDependency, neither of which ships; left in the packed
// manifest, it makes npm warn about an install script on every install of the tarball.
// `strip` (prepack) sets the checkout's package.json aside and writes it without those scripts;
// `restore` (postpack) puts the original back, byte for byte. Both act on the folder npm runs
// them in.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every script npm runs by itself around an install, a pack or a publish. */
const LIFECYCLE_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepack',
  'postpack',
];

/** The manifest as it is packed: the same, less its lifecycle scripts. */
function packedManifest(manifest) {
  const scripts = Object.fromEntries(
    Object.entries(manifest.scripts ?? {}).filter(([name]) => !LIFECYCLE_SCRIPTS.includes(name)),
  );
  return { ...manifest, scripts };
}

const root = process.cwd();
const manifestPath = join(root, 'package.json');
const asidePath = join(root, 'node_modules', '.cache', 'openwop-eval-gate', 'package.json');
const action = process.argv[2];

if (action === 'strip') {
  const text = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(text);
  const hasLifecycle = Object.keys(manifest.scripts ?? {}).some((name) =>
    LIFECYCLE_SCRIPTS.includes(name),
  );
  // Without lifecycle scripts this is the stripped file a pack that failed before postpack left
  // behind, and the original is the one already set aside.
  if (hasLifecycle || !existsSync(asidePath)) {
    mkdirSync(join(asidePath, '..'), { recursive: true });
    writeFileSync(asidePath, text);
  }
  writeFileSync(manifestPath, `${JSON.stringify(packedManifest(manifest), null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(asidePath)) {
    writeFileSync(manifestPath, readFileSync(asidePath, 'utf8'));
    rmSync(asidePath);
  }
} else {
  process.stderr.write(`pack-manifest: strip or restore, not "${action}"\n`);
  process.exit(2);
}
