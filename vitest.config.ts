import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/sequencer.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const LEGS_FILE = 'tests/v2-eval-trajectory-trials.test.ts';
/**
 * The contributing guide's own check (`npm run test:contributing`): it copies the repository, adds
 * a leg and a probe, and runs both lanes of the copy, which is a minute and a half of work for one
 * promise. It is a project of its own, outside `npm test`; tests/docs/contributing-lists.test.ts
 * keeps the guide's lists and that check from drifting apart in `npm test`.
 */
const CONTRIBUTING_CHECK = 'tests/contributing/new-leg.check.ts';
/**
 * The defect matrix's full lane (`npm run test:matrix-full`): every leg of every row in every
 * mode, about three times what `npm test` runs of the table (tests/matrix/checked-legs.ts says
 * which cells that is), held exactly to tests/matrix/expected.ts and docs/falsifiability.md.
 * CI runs it after `npm test`.
 */
const MATRIX_FULL = 'tests/matrix/full-table-*.check.ts';

/** Folders whose tests start no process and no server: the witness, the decisions, the docs. */
const UNIT_FOLDERS = [
  'tests/witness/',
  'tests/property/',
  'tests/decide/',
  'tests/docs/',
  'tests/upstream/',
  'tests/report/',
];
/** Files in a unit folder, or at the top of tests/, that start a host or a process all the same. */
const NOT_UNIT = new Set([
  'tests/decide/generated-leg.test.ts',
  'tests/decide/run-suite.test.ts',
  'tests/report/annotations.test.ts',
  'tests/report/published-key.test.ts',
  'tests/report/side-by-side.test.ts',
  'tests/secrets.test.ts',
]);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const isUnit = (file: string): boolean =>
  !NOT_UNIT.has(file) &&
  (UNIT_FOLDERS.some((folder) => file.startsWith(folder)) ||
    !file.slice('tests/'.length).includes('/'));

const FILES = testFiles(join(ROOT, 'tests')).filter((file) => file !== LEGS_FILE);
/**
 * Every test file shares its worker's module cache (isolate: false): re-importing the suite for
 * each of some 140 files cost more than the tests themselves. A test file therefore leaves no
 * module state behind it (every host it starts is closed, every cache it fills is keyed by its
 * own URL, fake timers are restored).
 */
const SHARED = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  isolate: false,
  // GitHub's workflow parser imports its JSON schemas without an import attribute, which Node
  // refuses; through vite's transform, as the suite's own modules are loaded, the import works.
  server: { deps: { inline: ['@actions/workflow-parser'] } },
};

// `npm test` runs the `unit` and `e2e` projects. The `legs` project is the RFC 0246 legs file,
// which needs a host (OPENWOP_BASE_URL): `npx vitest run tests/v2-eval-trajectory-trials.test.ts`
// finds it there, and `npm run conformance` runs the same legs in process, without vitest.
export default defineConfig({
  test: {
    // Three workers on two cores: the end-to-end files wait on sockets, child processes and
    // deadlines as much as they compute, and a third worker keeps both cores busy meanwhile
    // (measured: `npm test` 101 s with three, 116 s with two).
    maxWorkers: 3,
    // The defect matrix's small part files run longest; they start first (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { name: 'unit', include: FILES.filter(isUnit), ...SHARED } },
      {
        test: {
          name: 'e2e',
          include: FILES.filter((f) => !isUnit(f)),
          // The bins run dist/; tests that spawn them need it built from these sources. The run's
          // scratch folder holds what workers share across files, and goes when the run ends.
          globalSetup: ['tests/support/build-dist.ts', 'tests/support/scratch.ts'],
          ...SHARED,
        },
      },
      { test: { name: 'legs', include: [LEGS_FILE], ...SHARED } },
      { test: { name: 'matrix-full', include: [MATRIX_FULL], ...SHARED } },
      {
        test: {
          name: 'contributing',
          include: [CONTRIBUTING_CHECK],
          ...SHARED,
        },
      },
    ],
  },
});
