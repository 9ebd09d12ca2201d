#!/usr/bin/env node
// `npm run build`: compiles cli/, lib/ and reference-host/ into dist/ (tsconfig.build.json), then
// deletes every compiled file whose source is gone, since tsc never removes an output and a
// leftover module would still be packed and could still be imported. Then it bundles the CLI
// into one CommonJS file, dist/bundle/main.cjs, which `openwop-eval-gate` runs: Node's ES module
// loader pays for every file it reads, resolves and links, far more than for the bytes in it, and
// only a script compiled through node:vm can be handed a V8 code cache on Node 20. It records
// the referee's digest of the judging sources in dist/lib/judging-digest.json, and writes the V8
// code caches of the bundle and of the schema validators to dist/code-cache/ (lib/code-cache.ts).
// Last it stamps dist/.built with the time the build began, which the tests' globalSetup reads
// to skip a second build of the same sources (`npm ci` has just built them through `prepare`).
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

// Our code only: every dependency stays a require, resolved from the consumer's node_modules as
// before. No splitting: a module that only a dynamic import reaches is still evaluated only when
// that import runs (esbuild defers its body), so one file costs a command no work it did not ask
// for, while a chunk per shared group of modules cost a run some fifty files. Every module finds
// the package's files by walking up to package.json from `import.meta.url`, which in a CommonJS
// file is the bundle's own URL, so it works from any folder under dist/.
const commonJs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  // A dynamic import() in a script compiled through node:vm needs a callback Node 20 only has
  // as an experiment; as a require behind a promise it loads the same module at the same moment.
  supported: { 'dynamic-import': false },
};
// The loader first, alone, so the bin and the bundle share one: the bundle requires it rather
// than carrying a copy of its own, and its record of what it compiled is then the process's.
await bundle({
  ...commonJs,
  entryPoints: { 'code-cache': join(DIST, 'lib', 'code-cache.js') },
  outdir: BUNDLE,
});
await bundle({
  ...commonJs,
  entryPoints: { main: join(DIST, 'cli', 'bundle.js') },
  outdir: BUNDLE,
  plugins: [lazyFastCheck(), sharedCodeCache()],
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

await writeCodeCache();

const stamp = join(DIST, '.built');
writeFileSync(stamp, `${began.toISOString()}\n`);
utimesSync(stamp, began, began);

/**
 * The code caches of the bundle and of the schema validators (lib/code-cache.ts), made after the
 * bundle's own warm-up (an embedded run, a small generated pack and `verify` of each, cli/bundle.ts),
 * so they hold the functions those compile and not only each file's top level. The bundle is
 * loaded as the bin loads it, through the loader it requires. A cache only spares a process some
 * compiling, and any part of one is as sound as the whole, so a warm-up that fails (a machine
 * where nothing may listen on 127.0.0.1) fails no build: the cache then holds what compiled
 * before it stopped, and the line says so.
 */
async function writeCodeCache() {
  const require = createRequire(import.meta.url);
  const { CODE_CACHE_DIR, requireWithCodeCache, writeCodeCaches } = require(
    join(BUNDLE, 'code-cache.cjs'),
  );
  rmSync(CODE_CACHE_DIR, { recursive: true, force: true });
  try {
    await requireWithCodeCache(join(BUNDLE, 'main.cjs')).warmUp();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    process.stdout.write(`code cache: the warm-up stopped (${why.split('\n')[0]})\n`);
  }
  for (const file of writeCodeCaches()) {
    process.stdout.write(`code cache ${relative(ROOT, file)}\n`);
  }
}

/**
 * fast-check, the generator's dependency, loaded the first time one of its members is read. In a
 * file without splitting, esbuild hoists every import of a package to the top, so a run of the
 * hand-written legs would load its 400 KB though only `--generate` and `verify` of a generated
 * pack draw with it. Every use is a member of its default export (`fc.integer(...)`), which this
 * stand-in forwards to the package's CommonJS build, required synchronously on first use and
 * resolved from the bundle's own location as the import would be.
 */
function lazyFastCheck() {
  const contents = [
    "import { createRequire } from 'node:module';",
    'let loaded;',
    "const load = () => (loaded ??= createRequire(import.meta.url)('fast-check'));",
    'export default new Proxy({}, { get: (_target, member) => load()[member] });',
  ].join('\n');
  return {
    name: 'lazy-fast-check',
    setup(build) {
      build.onResolve({ filter: /^fast-check$/ }, () => ({
        path: 'fast-check',
        namespace: 'lazy',
      }));
      build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({ contents, resolveDir: BUNDLE }));
    },
  };
}

/** The bundle's imports of the code-cache loader, left as a require of the loader beside it. */
function sharedCodeCache() {
  return {
    name: 'shared-code-cache',
    setup(build) {
      build.onResolve({ filter: /\/code-cache\.js$/ }, () => ({
        path: './code-cache.cjs',
        external: true,
      }));
    },
  };
}
