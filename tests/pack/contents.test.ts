// What `npm pack` puts in the tarball, packed without the network and without scripts (the
// globalSetup has already built dist/ from these sources), once per test run for every file that
// reads it (tests/support/packed-package.ts). The bins must find everything they load inside the
// package, the only test file shipped is the legs file, and no shipped file reaches into a
// dependency past what that dependency publishes.

import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packedPackage } from '../support/packed-package.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CODE = /\.(?:js|mjs|cjs|ts|mts)$/;
const LEGS_FILE = 'tests/v2-eval-trajectory-trials.test.ts';

interface Manifest {
  readonly bin: Readonly<Record<string, string>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

interface DependencyManifest {
  readonly exports?: unknown;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** Every module specifier in a file: static and dynamic imports, re-exports and require calls. */
function specifiersOf(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const pattern =
    /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire(?:\.resolve)?\s*\(\s*)['"]([^'"\n]+)['"]/g;
  return [...text.matchAll(pattern)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/** `ajv/lib/x.ts` → `ajv` and `lib/x.ts`; `@scope/name/sub` → `@scope/name` and `sub`. */
function splitBare(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const size = specifier.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, size).join('/'), subpath: parts.slice(size).join('/') };
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

/**
 * Why a bare specifier reaches past what its package publishes, or undefined when it does not.
 * A package with an `exports` map publishes exactly its keys; one without publishes its root and
 * whatever it documents, and a `lib/` or `internal` folder is its implementation.
 */
function internalReach(specifier: string): string | undefined {
  const { name, subpath } = splitBare(specifier);
  if (subpath === '') return undefined;
  const dependency = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'),
  ) as DependencyManifest;
  const exported = dependency.exports;
  if (exported !== undefined && typeof exported === 'object' && exported !== null) {
    const keys = Object.keys(exported);
    const bare = subpath.replace(/\.js$/, '');
    return keys.includes(`./${subpath}`) || keys.includes(`./${bare}`)
      ? undefined
      : `"${name}" exports ${keys.join(', ')}, not ./${subpath}`;
  }
  return /^(?:lib|internal)\/|\/internal\//.test(subpath)
    ? `"${name}" has no exports map and ${subpath} is its implementation folder`
    : undefined;
}

let packed: readonly string[] = [];

beforeAll(async () => {
  packed = (await packedPackage()).files;
}, 300_000);

describe('the packed file list', () => {
  it('carries every bin and the compiled module each bin starts', () => {
    expect(Object.keys(manifest.bin).sort()).toEqual([
      'openwop-eval-gate',
      'openwop-eval-gate-host',
    ]);
    for (const bin of Object.values(manifest.bin)) {
      expect(packed).toContain(bin);
      const entries = specifiersOf(bin).filter((s) => s.startsWith('.'));
      expect(entries.length, `${bin} starts no module`).toBeGreaterThan(0);
      for (const entry of entries) {
        expect(entry, `${bin} must run compiled code`).toMatch(/^\.\.\/dist\/.+\.c?js$/);
        expect(packed).toContain(normalize(join(dirname(bin), entry)));
      }
    }
  });

  it('every relative import of a shipped compiled module is itself shipped', () => {
    const compiled = packed.filter((p) => p.startsWith('dist/') && p.endsWith('.js'));
    expect(compiled).toContain('dist/lib/generated/schema-names.js');
    const missing = compiled.flatMap((file) =>
      specifiersOf(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => normalize(join(dirname(file), s)))
        .filter((target) => !packed.includes(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it('ships the validator files the compiled code reads from lib/generated/ at run time', () => {
    // lib/schemas.ts loads them by path from the package root, so no import names them.
    expect(packed).toEqual(
      expect.arrayContaining([
        'lib/generated/fixture-validator.cjs',
        'lib/generated/validators.cjs',
      ]),
    );
  });

  it('ships the referee digest the build recorded, which the compiled code reports as its own', () => {
    // lib/report/verify/referee.ts reads it by path; without it a run would hash the sources instead.
    expect(packed).toContain('dist/lib/judging-digest.json');
  });

  it('ships no test of the suite itself, only the legs file and the sources it imports', () => {
    expect(packed.filter((p) => p.startsWith('tests/'))).toEqual([LEGS_FILE]);
    const sources = specifiersOf(LEGS_FILE)
      .filter((s) => s.startsWith('.'))
      .map((s) => normalize(join(dirname(LEGS_FILE), s)));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(packed).toContain(source);
  });

  it('compiled code imports only node built-ins, runtime dependencies and the optional vitest peer', () => {
    const allowed = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const runnable = packed.filter(
      (p) =>
        (p.startsWith('dist/') || p.startsWith('bin/') || p.startsWith('lib/generated/')) &&
        CODE.test(p),
    );
    const strays = runnable.flatMap((file) =>
      specifiersOf(file)
        .filter((s) => !s.startsWith('.') && !isBuiltin(s))
        .filter((s) => !allowed.has(splitBare(s).name))
        .map((s) => `${file} imports ${s}`),
    );
    expect(strays).toEqual([]);
  });

  it('the internal-module check names a lib/ path, a subpath outside an exports map, and passes a published one', () => {
    expect(internalReach('ajv/lib/ajv.ts')).toMatch(/no exports map/);
    expect(internalReach('dotenv/lib/main.js')).toMatch(/exports .*not \.\/lib\/main\.js/);
    expect(internalReach('ajv')).toBeUndefined();
    expect(internalReach('yaml/util')).toBeUndefined();
    expect(internalReach('ajv/dist/runtime/equal')).toBeUndefined();
  });

  it("no shipped file reaches into a dependency's internal modules", () => {
    const reaches = packed
      .filter((p) => CODE.test(p))
      .flatMap((file) =>
        specifiersOf(file)
          .filter((s) => !s.startsWith('.') && !isBuiltin(s))
          .flatMap((s) => {
            const why = internalReach(s);
            return why === undefined ? [] : [`${file} imports ${s}: ${why}`];
          }),
      );
    expect(reaches).toEqual([]);
  });
});
