// The walls of docs/architecture.md, checked on the source text: the suite and the reference host
// share no code, the witness does no I/O, and only lib/env.ts reads the environment.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every module specifier a file imports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers: string[] = [];
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) if (match[1] !== undefined) specifiers.push(match[1]);
  return specifiers;
}

function resolvesInto(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(ROOT, file, '..', specifier));
  return target === folder || target.startsWith(`${folder}/`);
}

const WITNESS_FILES = ['lib/eval-gate-witness.ts', ...sourceFiles('lib/witness')];

/** The only modules the witness may reach: its own, the vocabulary and the schema validators. */
function witnessMayImport(file: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(ROOT, file, '..', specifier));
  return (
    target.startsWith('lib/witness/') || target === 'lib/types.ts' || target === 'lib/schemas.ts'
  );
}

describe('architecture walls', () => {
  it('the suite under lib/ imports nothing from reference-host/', () => {
    const crossings = sourceFiles('lib').flatMap((f) =>
      importsOf(f)
        .filter((s) => resolvesInto(f, s, 'reference-host'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the reference host imports nothing from lib/', () => {
    const crossings = sourceFiles('reference-host').flatMap((f) =>
      importsOf(f)
        .filter((s) => resolvesInto(f, s, 'lib'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the witness imports only its own modules, the vocabulary and the schemas', () => {
    const foreign = WITNESS_FILES.flatMap((f) =>
      importsOf(f)
        .filter((s) => !witnessMayImport(f, s))
        .map((s) => `${f} -> ${s}`),
    );
    expect(foreign).toEqual([]);
  });

  it('only lib/env.ts reads process.env', () => {
    const readers = ['lib', 'cli', 'tests']
      .flatMap((d) => sourceFiles(d))
      .filter((f) => f !== 'lib/env.ts' && f !== 'tests/architecture.test.ts')
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('the import scanner sees the imports it is meant to police', () => {
    // Guards the guard: if the pattern stopped matching, every wall above would pass vacuously.
    expect(importsOf('lib/run-leg.ts')).toContain('./eval-gate-witness.ts');
    expect(WITNESS_FILES.length).toBeGreaterThan(1);
    expect(resolvesInto('lib/x.ts', '../reference-host/index.ts', 'reference-host')).toBe(true);
    expect(witnessMayImport('lib/eval-gate-witness.ts', './witness/rules.ts')).toBe(true);
    expect(witnessMayImport('lib/witness/tasks.ts', '../schemas.ts')).toBe(true);
    expect(witnessMayImport('lib/eval-gate-witness.ts', './host-client.ts')).toBe(false);
    expect(witnessMayImport('lib/witness/tasks.ts', '../env.ts')).toBe(false);
    expect(witnessMayImport('lib/witness/tasks.ts', 'undici')).toBe(false);
  });
});
