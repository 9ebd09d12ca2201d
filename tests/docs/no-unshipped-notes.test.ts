// No tracked file points a reader at a note the package does not carry: a brief, or an issue by
// number. The reason a comment gives must be readable where the comment is; history goes in
// commits and CHANGELOG.md, which may name issues.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { ROOT, trackedFiles } from './markdown.ts';

/** Where a reference to an unshipped note may stand, each with its reason. */
const ALLOWED: Readonly<Record<string, string>> = {
  'CHANGELOG.md': 'history, which may name the issue a change answered',
  'tests/docs/no-unshipped-notes.test.ts': 'holds the forms it refuses as test cases',
};

const UNSHIPPED = /\bBRIEF\b|\bissues? #?\d+\b/g;

export function unshippedNotes(text: string): readonly string[] {
  return [...text.matchAll(UNSHIPPED)].map((m) => m[0]);
}

describe('no reference to a note the package does not ship', () => {
  it('no tracked text file cites a brief or an issue number', () => {
    const problems: string[] = [];
    for (const file of trackedFiles()) {
      if (file in ALLOWED || file.startsWith('mutation/')) continue;
      const bytes = readFileSync(join(ROOT, file));
      if (bytes.includes(0)) continue;
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const note of unshippedNotes(line)) problems.push(`${file}:${i + 1}: ${note}`);
        });
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('finds a brief and an issue by number, and leaves the word issue alone', () => {
    expect(unshippedNotes('(BRIEF decision 4) and issue 3, issue #9')).toEqual([
      'BRIEF',
      'issue 3',
      'issue #9',
    ]);
    expect(unshippedNotes('a known issue with 3 hosts; brief')).toEqual([]);
  });
});
