// docs/architecture.md's module table names every module of lib/ (a file, or a folder that is one
// stage's whole), and every path it names exists, so moved or added code cannot leave the table
// describing code that is gone.

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { ROOT, proseLines, readRepoFile, trackedFiles } from './markdown.ts';

/** The paths in the first column of the table under "## Module contracts". */
function modulePaths(): readonly string[] {
  const lines = proseLines(readRepoFile('docs/architecture.md'));
  const start = lines.findIndex((l) => l.startsWith('## Module contracts'));
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('| `')) continue;
    const first = line.split('|')[1] ?? '';
    for (const m of first.matchAll(/`([^`]+)`/g)) rows.push(m[1] ?? '');
  }
  return rows;
}

function covered(file: string, paths: readonly string[]): boolean {
  return paths.some((p) => p === file || (p.endsWith('/') && file.startsWith(p)));
}

describe("the architecture's module table", () => {
  const paths = modulePaths();

  it('names only paths that exist', () => {
    expect(paths).toContain('lib/legs.ts');
    const missing = paths.filter((p) => !existsSync(`${ROOT}${p}`));
    expect(missing, `named in docs/architecture.md but not in the package`).toEqual([]);
  });

  it('names every TypeScript module of lib/, or the folder it belongs to', () => {
    const modules = trackedFiles().filter(
      (f) => /^lib\/.*\.ts$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('lib/generated/'),
    );
    expect(modules.length).toBeGreaterThan(10);
    const unnamed = modules.filter((f) => !covered(f, paths));
    expect(unnamed, 'add a row to the module table of docs/architecture.md').toEqual([]);
  });

  it('a folder row covers the files under it, and a file row only itself', () => {
    expect(covered('lib/witness/match.ts', ['lib/witness/'])).toBe(true);
    expect(covered('lib/decide/decide.ts', ['lib/decide/run-leg.ts'])).toBe(false);
  });
});
