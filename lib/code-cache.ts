// Loads one of the package's generated CommonJS files (the schema validators, over a megabyte of
// Ajv's output) as `require` would, but hands V8 the code cache `npm run build` made for it: a
// process then deserializes the validators' compiled code instead of parsing the file and
// compiling each validator it calls, which was a tenth of a cold run's CPU and more of `verify`'s.
//
// The cache is only ever an aid to compiling the very same text. It is read from dist/ (made by
// the build, as trusted as the bundle beside it, never written by a run), under a name that holds
// the digest of the source and the V8 version, so an edited source or another Node finds no cache;
// V8 refuses one made under other flags, and a refused or missing cache is a plain compile.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { packagePath } from './package-root.ts';

/** Where the build writes the caches; dist/ is rebuilt whole, so none outlives its source. */
export const CODE_CACHE_DIR = packagePath('dist', 'code-cache');

/** What became of a file's cache: compiled from it, refused by V8, or none for this text. */
export type CodeCacheUse = 'used' | 'rejected' | 'none';

interface Loaded {
  readonly exports: unknown;
  readonly script: Script;
  readonly cacheFile: string;
  readonly use: CodeCacheUse;
}

const loaded = new Map<string, Loaded>();
/** The process's CommonJS module cache: a file is evaluated once, by `require` or by this module. */
const required = createRequire(import.meta.url).cache;

/** The cache file for a source: its name, the digest of its text and the V8 that compiles it. */
function cacheFileOf(path: string, source: Buffer, dir: string): string {
  const digest = createHash('sha256')
    .update(process.versions.v8)
    .update('\0')
    .update(source)
    .digest('hex')
    .slice(0, 32);
  return join(dir, `${basename(path)}.${digest}.v8`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The exports of the CommonJS file at `path`, evaluated once per process as `require` evaluates
 * it (the same wrapper, its own `require`, `module` and file names), compiled with the cache in
 * `dir` when there is one for this very text.
 */
export function requireWithCodeCache(path: string, dir: string = CODE_CACHE_DIR): unknown {
  const known = loaded.get(path) ?? required[path];
  if (known !== undefined) return known.exports;
  // The bytes are digested as read: a digest of the decoded text would encode it all again.
  const bytes = readFileSync(path);
  const source = bytes.toString('utf8');
  const cacheFile = cacheFileOf(path, bytes, dir);
  const cachedData = readCache(cacheFile);
  // Node's own CommonJS wrapper, so the file sees exactly what `require` would give it.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) { ${source}\n})`,
    { filename: path, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  const module = new Module(path);
  module.filename = path;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  // Recorded where `require` records what it loaded, so a later require of the file is this one.
  module.loaded = true;
  required[path] = module;
  const use = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  loaded.set(path, { exports: module.exports, script, cacheFile, use });
  return module.exports;
}

/** Whether the file at `path` was compiled from its cache; undefined before it is loaded. */
export function codeCacheUse(path: string): CodeCacheUse | undefined {
  return loaded.get(path)?.use;
}

/**
 * Writes the code cache of every file this process loaded with its caches in `dir`, with all it
 * has compiled by now: the build calls it after a run and a `verify`, so the cache holds what
 * those compile. Only `dir`'s: a process that loaded the package's validators as well (a test
 * worker) must leave the build's caches as the build wrote them. Returns the files written.
 */
export function writeCodeCaches(dir: string = CODE_CACHE_DIR): string[] {
  const ours = [...loaded.values()].filter(({ cacheFile }) => dirname(cacheFile) === dir);
  if (ours.length > 0) mkdirSync(dir, { recursive: true });
  return ours.map(({ script, cacheFile }) => {
    writeFileSync(cacheFile, script.createCachedData());
    return cacheFile;
  });
}
