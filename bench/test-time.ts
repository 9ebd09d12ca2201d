// Where an `npm test` spends its time, from vitest's JSON report of it: each test file's time from
// its start to its end, summed by folder of tests/, so that two checkouts' runs can be set side
// by side folder by folder. A file's time counts what it waited for as well as what it computed,
// and three workers run files at once, so the sum is several times the run's wall time: it says
// where the time goes, not how long the run took.

import { relative, sep } from 'node:path';

/** The members of vitest's JSON report (`--reporter=json`) read here. */
export interface VitestJson {
  readonly numTotalTests: number;
  readonly testResults: readonly {
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
  }[];
}

export interface FolderTime {
  /** `tests/cli/`, or `tests/` for the files at its top. */
  readonly folder: string;
  readonly files: number;
  readonly seconds: number;
}

export interface TestTime {
  readonly tests: number;
  readonly byFolder: readonly FolderTime[];
  /** Each file's seconds, by its path relative to the checkout. */
  readonly byFile: ReadonlyMap<string, number>;
}

/** The folder a test file is counted under: its first folder below tests/, or tests/ itself. */
export function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : `${parts[0]}/`;
}

/** `report`'s files, by folder (longest first) and by file, their paths taken from `root`. */
export function testTime(report: VitestJson, root: string): TestTime {
  const byFile = new Map<string, number>();
  for (const file of report.testResults) {
    const path = relative(root, file.name).split(sep).join('/');
    byFile.set(path, (file.endTime - file.startTime) / 1000);
  }
  return { tests: report.numTotalTests, byFolder: byFolderOf(byFile), byFile };
}

/**
 * Several runs of one checkout as one: each file's mean seconds over the runs that ran it, and the
 * first run's test count (every run of a checkout runs the same tests).
 */
export function meanTestTime(runs: readonly TestTime[]): TestTime | undefined {
  const first = runs[0];
  if (first === undefined) return undefined;
  const seen = new Map<string, { total: number; runs: number }>();
  for (const run of runs) {
    for (const [path, seconds] of run.byFile) {
      const sum = seen.get(path) ?? { total: 0, runs: 0 };
      seen.set(path, { total: sum.total + seconds, runs: sum.runs + 1 });
    }
  }
  const byFile = new Map([...seen].map(([path, sum]) => [path, sum.total / sum.runs]));
  return { tests: first.tests, byFolder: byFolderOf(byFile), byFile };
}

function byFolderOf(byFile: ReadonlyMap<string, number>): FolderTime[] {
  const folders = new Map<string, { files: number; seconds: number }>();
  for (const [path, seconds] of byFile) {
    const folder = folders.get(folderOf(path)) ?? { files: 0, seconds: 0 };
    folders.set(folderOf(path), { files: folder.files + 1, seconds: folder.seconds + seconds });
  }
  return [...folders]
    .map(([folder, t]) => ({ folder, ...t }))
    .sort((a, b) => b.seconds - a.seconds || a.folder.localeCompare(b.folder));
}
