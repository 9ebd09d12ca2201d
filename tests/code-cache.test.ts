import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheUse, requireWithCodeCache, writeCodeCaches } from '../lib/code-cache.ts';

const WORK = mkdtempSync(join(tmpdir(), 'code-cache-'));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

let made = 0;
/** A CommonJS file named `name` in a folder of its own, and a cache folder of its own. */
function commonJs(name: string, text: string, cacheDir = join(WORK, `cache-${made}`)) {
  made += 1;
  const dir = join(WORK, `src-${made}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return { dir, path, cacheDir };
}

describe('a generated CommonJS file loaded with its code cache', () => {
  it('sees what require gives a file: its own require, module, exports, this and names', () => {
    const sibling = commonJs('sibling.cjs', 'module.exports = "beside";');
    const { dir, path, cacheDir } = commonJs(
      'loaded.cjs',
      [
        '"use strict";',
        `const beside = require(${JSON.stringify(sibling.path)});`,
        'exports.same = this === module.exports;',
        'exports.names = [__filename, __dirname];',
        'exports.beside = beside;',
        'exports.strict = (function () { return this; })() === undefined;',
      ].join('\n'),
    );
    const loaded = requireWithCodeCache(path, cacheDir);
    expect(loaded).toEqual({ same: true, names: [path, dir], beside: 'beside', strict: true });
    expect(requireWithCodeCache(path, cacheDir)).toBe(loaded);
    expect(codeCacheUse(path)).toBe('none');
    // The same text required as require does it, from a folder of its own, gives the same.
    const twin = commonJs('loaded.cjs', readFileSync(path, 'utf8'));
    expect(createRequire(import.meta.url)(twin.path)).toEqual({
      ...(loaded as object),
      names: [twin.path, twin.dir],
    });
  });

  it('is evaluated once a process, whether require or the cache loader comes first', () => {
    const counter = '__codeCacheTestEvaluations';
    const text = `globalThis.${counter} = (globalThis.${counter} ?? 0) + 1; module.exports = {};`;
    const g = globalThis as Record<string, unknown>;
    const byLoader = commonJs('once.cjs', text);
    const first = requireWithCodeCache(byLoader.path, byLoader.cacheDir);
    expect(createRequire(import.meta.url)(byLoader.path)).toBe(first);
    const byRequire = commonJs('once.cjs', text);
    const second = createRequire(import.meta.url)(byRequire.path) as unknown;
    expect(requireWithCodeCache(byRequire.path, byRequire.cacheDir)).toBe(second);
    expect(g[counter]).toBe(2);
    delete g[counter];
  });

  it('is compiled from the cache the build wrote for the very same text', () => {
    const text = 'exports.answer = function answer(n) { return n * 6; }; exports.answer(7);';
    const first = commonJs('same.cjs', text);
    requireWithCodeCache(first.path, first.cacheDir);
    const written = writeCodeCaches(first.cacheDir);
    expect(written).toEqual([join(first.cacheDir, readdirSync(first.cacheDir)[0] ?? '')]);
    expect(readdirSync(first.cacheDir)).toHaveLength(1);
    const again = commonJs('same.cjs', text, first.cacheDir);
    const loaded = requireWithCodeCache(again.path, again.cacheDir) as {
      answer: (n: number) => number;
    };
    expect(codeCacheUse(again.path)).toBe('used');
    expect(loaded.answer(7)).toBe(42);
  });

  it('finds no cache for an edited text of the same length, which V8 alone would accept', () => {
    const before = commonJs('edited.cjs', 'module.exports = 1;');
    requireWithCodeCache(before.path, before.cacheDir);
    writeCodeCaches(before.cacheDir);
    const after = commonJs('edited.cjs', 'module.exports = 2;', before.cacheDir);
    expect(requireWithCodeCache(after.path, after.cacheDir)).toBe(2);
    expect(codeCacheUse(after.path)).toBe('none');
  });

  it('compiles the text when V8 refuses the cache, and runs it all the same', () => {
    const text = 'module.exports = "compiled";';
    const good = commonJs('refused.cjs', text);
    requireWithCodeCache(good.path, good.cacheDir);
    const [file] = writeCodeCaches(good.cacheDir);
    expect(file).toBeDefined();
    writeFileSync(file as string, Buffer.from('not a code cache'));
    const again = commonJs('refused.cjs', text, good.cacheDir);
    expect(requireWithCodeCache(again.path, again.cacheDir)).toBe('compiled');
    expect(codeCacheUse(again.path)).toBe('rejected');
  });

  it('writes only the caches of the folder it is given, never another folder’s', () => {
    const mine = commonJs('mine.cjs', 'module.exports = "mine";');
    const theirs = commonJs('theirs.cjs', 'module.exports = "theirs";');
    requireWithCodeCache(mine.path, mine.cacheDir);
    requireWithCodeCache(theirs.path, theirs.cacheDir);
    const written = writeCodeCaches(mine.cacheDir);
    expect(written).toHaveLength(1);
    expect(readdirSync(mine.cacheDir)).toHaveLength(1);
    expect(() => readdirSync(theirs.cacheDir)).toThrow(/ENOENT/);
  });
});
