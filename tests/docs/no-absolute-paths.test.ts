// No tracked file names a place on a development machine: such a path means nothing to a reader
// of the package and leaks who built it. URLs are fine; their paths are not filesystem paths.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { ROOT, trackedFiles } from './markdown.ts';

// A Unix home, workspace or temporary directory, or a Windows drive. The character before it must
// not belong to a URL, a relative path or a word, so `https://host/home/x` and `a/tmp/b` pass.
const ABSOLUTE =
  /(?<![\w:/.~@%-])\/(?:work|home|Users|root|tmp|private|var\/folders|mnt|srv|opt)\/[^\s'"`)\]]*|(?<![\w/])[A-Za-z]:\\[^\s'"`)\]]*/g;

export function absolutePaths(text: string): readonly string[] {
  return [...text.matchAll(ABSOLUTE)].map((m) => m[0]);
}

describe('tracked files carry no absolute filesystem paths', () => {
  it('no tracked text file names a path on a development machine', () => {
    const problems: string[] = [];
    for (const file of trackedFiles()) {
      const bytes = readFileSync(join(ROOT, file));
      if (bytes.includes(0)) continue;
      const text = bytes.toString('utf8');
      text.split('\n').forEach((line, i) => {
        for (const path of absolutePaths(line)) problems.push(`${file}:${i + 1}: ${path}`);
      });
    }
    const hint =
      'write a path relative to the package (Stryker writes its cwd as projectRoot: use ".")';
    expect(problems, `${problems.join('\n')}\n${hint}`).toEqual([]);
  });

  it('the check finds Unix and Windows paths and leaves URLs and relative paths alone', () => {
    const unix = ['', 'work', 'main', 'x.ts'].join('/');
    const home = ['', 'Users', 'ana', 'repo'].join('/');
    const windows = ['C:', 'repo', 'x.ts'].join('\\');
    expect(absolutePaths(`see ${unix} and "${home}" or ${windows}`)).toEqual([unix, home, windows]);
    const url = ['https:', '', 'example.com', 'home', 'x'].join('/');
    expect(absolutePaths(`${url} lib/tmp/x docs/report.md ./work/a`)).toEqual([]);
  });
});
