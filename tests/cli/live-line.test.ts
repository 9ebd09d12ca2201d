// The live line of a terminal: rewritten in place, cut to the terminal's width so it never wraps,
// and erased before any other line is printed, so the two never share a row.

import { describe, expect, it } from 'vitest';
import { LiveLine } from '../../cli/live-line.ts';

function terminal(columns?: number): { written: string[]; line: LiveLine } {
  const written: string[] = [];
  const stream = {
    write: (text: string) => written.push(text),
    ...(columns === undefined ? {} : { columns }),
  };
  return { written, line: new LiveLine(stream) };
}

describe('LiveLine', () => {
  it('returns to the start of the row and erases what the last line left beyond the new one', () => {
    const { written, line } = terminal(80);
    line.show('generated pack: 1 of 3 cases');
    line.show('generated pack: 2 of 3');
    expect(written).toEqual([
      '\rgenerated pack: 1 of 3 cases\x1b[K',
      '\rgenerated pack: 2 of 3\x1b[K',
    ]);
  });

  it('cuts a line wider than the terminal to one column short of its width', () => {
    const { written, line } = terminal(24);
    line.show('generated pack: 37 of 200 cases, 1 failed');
    expect(written).toEqual(['\rgenerated pack: 37 of 2\x1b[K']);
  });

  it('takes a terminal that reports no width as 80 wide', () => {
    const text = `generated pack: ${'x'.repeat(100)}`;
    for (const columns of [0, undefined]) {
      const { written, line } = terminal(columns);
      line.show(text);
      expect(written).toEqual([`\r${text.slice(0, 79)}\x1b[K`]);
    }
  });

  it('clears only a line it shows, once', () => {
    const { written, line } = terminal();
    line.clear();
    expect(written).toEqual([]);
    line.show('x');
    line.clear();
    line.clear();
    expect(written).toEqual(['\rx\x1b[K', '\r\x1b[K']);
  });
});
