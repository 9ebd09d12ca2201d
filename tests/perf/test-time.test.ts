// The bench's profile of an `npm test` (bench/test-time.ts): vitest's JSON report read as each
// file's seconds, summed by folder of tests/, the longest folder first; and a checkout's several
// runs taken as one, each file at its mean.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, meanTestTime, testTime } from '../../bench/test-time.ts';

const ROOT = join('/', 'checkout');
const file = (path: string, startTime: number, endTime: number) => ({
  name: join(ROOT, ...path.split('/')),
  startTime,
  endTime,
});

describe('where an npm test spent its time', () => {
  it('a file counts under its first folder below tests/, a top-level file under tests/', () => {
    expect(folderOf('tests/cli/forgery.test.ts')).toBe('tests/cli/');
    expect(folderOf('tests/report/deep/x.test.ts')).toBe('tests/report/');
    expect(folderOf('tests/secrets.test.ts')).toBe('tests/');
  });

  it('sums each folder’s files, longest folder first, and keeps each file’s seconds', () => {
    const time = testTime(
      {
        numTotalTests: 42,
        testResults: [
          file('tests/cli/forgery.test.ts', 1_000, 22_000),
          file('tests/secrets.test.ts', 0, 2_000),
          file('tests/matrix/matrix-1-of-2.test.ts', 500, 25_500),
          file('tests/cli/verify.test.ts', 3_000, 4_500),
        ],
      },
      ROOT,
    );
    expect(time.tests).toBe(42);
    expect(time.byFolder).toEqual([
      { folder: 'tests/matrix/', files: 1, seconds: 25 },
      { folder: 'tests/cli/', files: 2, seconds: 22.5 },
      { folder: 'tests/', files: 1, seconds: 2 },
    ]);
    expect(time.byFile.get('tests/cli/verify.test.ts')).toBe(1.5);
    expect([...time.byFile.keys()]).toHaveLength(4);
  });

  it('folders of equal time are in name order', () => {
    const time = testTime(
      {
        numTotalTests: 2,
        testResults: [file('tests/b/x.test.ts', 0, 1_000), file('tests/a/y.test.ts', 0, 1_000)],
      },
      ROOT,
    );
    expect(time.byFolder.map((f) => f.folder)).toEqual(['tests/a/', 'tests/b/']);
  });
});

describe('several runs of one checkout', () => {
  const run = (tests: number, seconds: Readonly<Record<string, number>>) =>
    testTime(
      {
        numTotalTests: tests,
        testResults: Object.entries(seconds).map(([path, s]) => file(path, 0, s * 1000)),
      },
      ROOT,
    );

  it('each file takes its mean over the runs that ran it, and the folders are summed again', () => {
    const mean = meanTestTime([
      run(10, { 'tests/cli/a.test.ts': 4, 'tests/cli/b.test.ts': 1, 'tests/x.test.ts': 3 }),
      run(10, { 'tests/cli/a.test.ts': 6, 'tests/x.test.ts': 5 }),
    ]);
    expect(mean?.tests).toBe(10);
    expect(mean?.byFile.get('tests/cli/a.test.ts')).toBe(5);
    expect(mean?.byFile.get('tests/cli/b.test.ts')).toBe(1);
    expect(mean?.byFolder).toEqual([
      { folder: 'tests/cli/', files: 2, seconds: 6 },
      { folder: 'tests/', files: 1, seconds: 4 },
    ]);
  });

  it('no runs come to nothing', () => {
    expect(meanTestTime([])).toBeUndefined();
  });
});
