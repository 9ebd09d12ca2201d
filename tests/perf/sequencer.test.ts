// The test files' start order: the defect matrix's part files, the longest to run, first, and
// every other file in the order vitest gave it.

import { describe, expect, it } from 'vitest';
import { longestFirst } from '../support/sequencer.ts';

const file = (path: string): { moduleId: string } => ({ moduleId: `/repo/${path}` });

describe('the order test files start in', () => {
  it('puts the matrix part files first and keeps the rest in the order given', () => {
    const given = [
      'tests/report/html.test.ts',
      'tests/matrix/matrix-2-of-2.test.ts',
      'tests/cli/bin.test.ts',
      'tests/matrix/page.test.ts',
      'tests/matrix/matrix-hanging.test.ts',
      'tests/matrix/matrix-1-of-2.test.ts',
    ].map(file);
    expect(longestFirst(given).map((f) => f.moduleId.slice('/repo/'.length))).toEqual([
      'tests/matrix/matrix-2-of-2.test.ts',
      'tests/matrix/matrix-hanging.test.ts',
      'tests/matrix/matrix-1-of-2.test.ts',
      'tests/report/html.test.ts',
      'tests/cli/bin.test.ts',
      'tests/matrix/page.test.ts',
    ]);
  });
});
