// Every Markdown table in the package renders as the table it was written to be: a header, one
// delimiter row right under it and nowhere else, and every row with the header's number of cells.
// A row that lost a `|` or a delimiter row pasted mid-table renders as a broken table on GitHub.

import { describe, expect, it } from 'vitest';

import { readRepoFile, trackedFiles } from './markdown.ts';
import { tableProblems } from './tables.ts';

describe('the tables of the docs', () => {
  it('every table in a tracked Markdown file has one delimiter row and rows as wide as its header', () => {
    const files = trackedFiles().filter((f) => f.endsWith('.md'));
    expect(files).toContain('docs/rfc-0244-assumptions.md');
    const problems = files.flatMap((f) => tableProblems(readRepoFile(f)).map((p) => `${f}: ${p}`));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('refuses a row missing a cell and a delimiter row in the body, and counts escaped pipes as text', () => {
    const good = ['| a | b |', '| --- | --- |', '| `x\\|y` | z |'].join('\n');
    expect(tableProblems(good)).toEqual([]);
    expect(tableProblems(['| a | b |', '| --- | --- |', '| only one |'].join('\n'))).toEqual([
      'the table headed "| a | b |": a row has 1 cells, not 2: | only one |',
    ]);
    expect(
      tableProblems(['| a | b |', '| --- | --- |', '| 1 | 2 |', '| --- | --- |'].join('\n')),
    ).toEqual(['the table headed "| a | b |" has a delimiter row in its body']);
    expect(tableProblems(['| a | b |', '| 1 | 2 |'].join('\n'))).toEqual([
      'the table headed "| a | b |" has no delimiter row under its header',
    ]);
  });
});
