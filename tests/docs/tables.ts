// Reading a Markdown table's shape: its header, its delimiter row and how many cells each row
// has, so tests/docs/tables.test.ts can tell a table GitHub renders whole from a broken one.

import { proseLines } from './markdown.ts';

const DELIMITER = /^\|(\s*:?-{3,}:?\s*\|)+$/;

/** The cells of one table line: split on every `|` that no backslash escapes. */
export function cellCount(line: string): number {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).length;
}

/** What is wrong with each table of a Markdown text, by the line it starts on. */
export function tableProblems(markdown: string): string[] {
  const problems: string[] = [];
  const lines = proseLines(markdown);
  for (let i = 0; i < lines.length; i += 1) {
    if (!(lines[i] ?? '').startsWith('|') || (lines[i - 1] ?? '').startsWith('|')) continue;
    let end = i;
    while ((lines[end + 1] ?? '').startsWith('|')) end += 1;
    const header = lines[i] ?? '';
    const width = cellCount(header);
    const at = `the table headed "${header.slice(0, 60)}"`;
    if (!DELIMITER.test((lines[i + 1] ?? '').trim())) {
      problems.push(`${at} has no delimiter row under its header`);
    }
    for (let k = i + 1; k <= end; k += 1) {
      const row = (lines[k] ?? '').trim();
      if (k > i + 1 && DELIMITER.test(row)) problems.push(`${at} has a delimiter row in its body`);
      else if (cellCount(row) !== width) {
        problems.push(
          `${at}: a row has ${cellCount(row)} cells, not ${width}: ${row.slice(0, 80)}`,
        );
      }
    }
    i = end;
  }
  return problems;
}
