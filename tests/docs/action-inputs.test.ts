// docs/ci.md restates the action's inputs in a table and its outputs in a paragraph; each input
// and each output action.yml declares is there, and the table names no input the action lacks.

import { describe, expect, it } from 'vitest';
import { readActionYaml } from '../cli/action-yaml.ts';
import { readRepoFile } from './markdown.ts';

const action = readActionYaml(readRepoFile('action.yml')) as {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<Record<string, unknown>>;
};
const page = readRepoFile('docs/ci.md');

/** The first column of the table whose header starts `| input`. */
function tableInputs(text: string): string[] {
  const start = text.indexOf('| input ');
  if (start < 0) throw new Error('docs/ci.md has no inputs table');
  const rows = text.slice(start).split('\n');
  const end = rows.findIndex((row) => !row.startsWith('|'));
  return rows
    .slice(2, end)
    .map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1] ?? `unreadable row: ${row}`);
}

/** The paragraph that starts `Outputs:`, up to the next blank line. */
function outputsParagraph(text: string): string {
  const start = text.indexOf('\nOutputs: ');
  if (start < 0) throw new Error('docs/ci.md has no Outputs paragraph');
  return text.slice(start, text.indexOf('\n\n', start + 1));
}

describe("docs/ci.md's account of the action", () => {
  it('has a row for every input action.yml declares, and no other', () => {
    expect(tableInputs(page).sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it('names every output action.yml declares in its Outputs paragraph', () => {
    const paragraph = outputsParagraph(page);
    const missing = Object.keys(action.outputs).filter(
      (name) => !paragraph.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});
