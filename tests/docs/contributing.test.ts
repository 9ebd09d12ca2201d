// The contributing guide's claim about a new fixture and its leg: it lists at most four source
// files, each exists, and outside tests/ the code names a fixture id or the requirement prefix
// only in the listed ones, so every other list derives from LEGS and cannot be forgotten.

import { describe, expect, it } from 'vitest';
import { LEGS, REQUIREMENT_PREFIX } from '../../lib/legs.ts';
import { proseLines, readRepoFile, trackedFiles } from './markdown.ts';

const GUIDE = 'docs/contributing.md';
const HEADING = '## Adding a fixture and its leg: every file it touches';
const CODE_FOLDERS = ['lib/', 'cli/', 'reference-host/', 'bin/'];

/** The numbered list of the guide's section: the source files a new fixture and its leg touch. */
function listedSourceFiles(): readonly string[] {
  const lines = proseLines(readRepoFile(GUIDE));
  const start = lines.indexOf(HEADING);
  if (start === -1) return [];
  const files: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    const listed = /^\d+\. `([^`]+)`/.exec(line);
    if (listed?.[1] !== undefined) files.push(listed[1]);
  }
  return files;
}

/** The text of a code file without its comment lines: a comment may quote an id as an example. */
function codeOf(path: string): string {
  return readRepoFile(path)
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n');
}

/** What names the fixtures and requirements by hand: each fixture id, and the prefix itself. */
const NAMES: readonly string[] = [
  ...LEGS.flatMap((leg) => leg.fixtureId ?? []),
  REQUIREMENT_PREFIX.slice(0, -1),
];

function codeFilesNamingThem(): readonly string[] {
  return trackedFiles()
    .filter((f) => CODE_FOLDERS.some((folder) => f.startsWith(folder)))
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.startsWith('lib/generated/'))
    .filter((f) => {
      const code = codeOf(f);
      return NAMES.some((name) => code.includes(name));
    })
    .sort();
}

describe('adding a fixture and its leg, as the contributing guide lists it', () => {
  const listed = listedSourceFiles();

  it('touches at most four source files, each one that exists', () => {
    expect(listed.length, `${GUIDE} lists no source files under "${HEADING}"`).toBeGreaterThan(0);
    expect(listed.length).toBeLessThanOrEqual(4);
    const tracked = new Set(trackedFiles());
    expect(listed.filter((f) => !tracked.has(f))).toEqual([]);
  });

  it('names fixture ids and the requirement prefix in code only in the listed files', () => {
    const naming = codeFilesNamingThem();
    // lib/legs.ts must be found, or the scan itself is broken and proves nothing.
    expect(naming).toContain('lib/legs.ts');
    expect(naming.filter((f) => !listed.includes(f))).toEqual([]);
  });
});
