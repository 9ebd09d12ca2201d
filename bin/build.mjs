#!/usr/bin/env node
// `npm run build`: compiles cli/, lib/ and reference-host/ into dist/ (tsconfig.build.json), then
// deletes every compiled file whose source is gone, since tsc never removes an output and a
// leftover module would still be packed and could still be imported. Then it bundles the CLI
// into dist/bundle/, which `openwop-eval-gate` runs: a run starts by reading a dozen chunks
// rather than some hundred modules, which on a busy machine costs a wait per file. It records
// the referee's digest of the judging sources in dist/lib/judging-digest.json. Last it stamps
// dist/.built with the time the build began, which the tests' globalSetup reads to skip a second
// build of the same sources (`npm ci` has just built them through `prepare`).
import { build as bundle } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const BUNDLE = join(DIST, 'bundle');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Taken before tsc reads anything, so a source saved while it runs still counts as newer.
const began = new Date();

const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

function compiledFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return compiledFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// The bundle has no source of its own; it is rebuilt whole below.
rmSync(BUNDLE, { recursive: true, force: true });
for (const file of compiledFiles(DIST)) {
  const source = join(ROOT, relative(DIST, file)).replace(/\.js$/, '');
  if (!existsSync(`${source}.ts`) && !existsSync(`${source}.js`)) {
    rmSync(file);
    process.stdout.write(`removed ${relative(ROOT, file)}: its source is gone\n`);
  }
}

// Our code only: every dependency stays an import, resolved from the consumer's node_modules as
// before. Each dynamic import stays a chunk loaded on demand (the generator and fast-check load
// only for `--generate`). Every module finds the package's files by walking up to package.json,
// so it works from any folder under dist/.
await bundle({
  entryPoints: { main: join(DIST, 'cli', 'main.js') },
  outdir: BUNDLE,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
});

// The digest of the judging sources this build compiled, so a run reads it rather than hashing
// them (lib/report/verify/referee.ts), computed by the very function a run would use.
const { BUILT_DIGEST_FILE, judgingDigestOf } = await import(
  pathToFileURL(join(DIST, 'lib', 'report', 'verify', 'referee.js')).href
);
writeFileSync(
  BUILT_DIGEST_FILE,
  `${JSON.stringify({ judgingDigest: await judgingDigestOf(ROOT) })}\n`,
);

const stamp = join(DIST, '.built');
writeFileSync(stamp, `${began.toISOString()}\n`);
utimesSync(stamp, began, began);
