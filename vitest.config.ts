import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const LEGS_FILE = 'tests/v2-eval-trajectory-trials.test.ts';

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
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 30_000 };

// `npm test` runs the `unit` and `e2e` projects. The `legs` project is the RFC 0246 legs file,
// which needs a host (OPENWOP_BASE_URL): `npx vitest run tests/v2-eval-trajectory-trials.test.ts`
// finds it there, and `npm run conformance` runs the same legs in process, without vitest.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: FILES.filter(isUnit), ...TIMEOUTS } },
      {
        test: {
          name: 'e2e',
          include: FILES.filter((f) => !isUnit(f)),
          // The bins run dist/; tests that spawn them need it built from these sources.
          globalSetup: ['tests/support/build-dist.ts'],
          ...TIMEOUTS,
        },
      },
      { test: { name: 'legs', include: [LEGS_FILE], ...TIMEOUTS } },
    ],
  },
});
