// A document the package ships points only at files the package ships, or says the file is in
// the repository: a host team holding the package alone must not be sent looking for a test, a
// bench or a mutation config it does not have. The documents not yet reworded are listed, and the
// list checks itself: an entry whose document no longer cites such a file fails until removed.

import { describe, expect, it } from 'vitest';

import { readRepoFile, trackedFiles } from './markdown.ts';

/** Documents that still cite repository-only files bare, each with why it is left for now. */
const PENDING: Readonly<Record<string, string>> = {
  'README.md': 'the repository front page; it describes the checkout, not only the package',
  'docs/architecture.md': 'names the test that holds the layering, for contributors',
  'docs/benchmarks.md': 'written by npm run bench, which names its own sources',
  'docs/bounds.md': 'names the hostile-host tests row by row, for contributors',
  'docs/contributing.md': "a contributor's guide, read in a checkout",
  'docs/falsifiability.md': 'written by npm run falsifiability, which names its own sources',
  'docs/generated-suites.md': 'names the differential and pack tests, for contributors',
  'docs/mutation.md': 'describes the mutation configs, which only a checkout has',
  'docs/report.md': 'names the tests that pin two examples',
  'docs/schema-deltas.md': 'names the tests that pin the deltas',
  'docs/wire-contract.md': 'names the test that resolves citations',
};

const REPO_ONLY = /(?<![\w./-])((?:tests|bench|mutation)\/(?:[A-Za-z0-9_./-]*[A-Za-z0-9_])?)/g;
const SAYS_REPOSITORY = /\b(in the repository|the repository's)\b/i;

interface Manifest {
  readonly files: readonly string[];
}

function shipped(path: string, files: readonly string[]): boolean {
  return files.some((f) => f === path || (f.endsWith('/') && path.startsWith(f)));
}

/** `FILE:LINE: PATH` for each repository-only path a document cites without saying so. */
export function bareCitations(file: string, text: string, files: readonly string[]): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) =>
    [...line.matchAll(REPO_ONLY)]
      .map((m) => m[1] ?? '')
      .filter((path) => !shipped(path, files))
      .filter((_) => !SAYS_REPOSITORY.test(`${lines[i - 1] ?? ''} ${line}`))
      .map((path) => `${file}:${i + 1}: ${path}`),
  );
}

const manifest = JSON.parse(readRepoFile('package.json')) as Manifest;
const documents = trackedFiles().filter((f) => /^docs\/.*\.md$/.test(f) || f === 'README.md');

describe('citations in shipped documents', () => {
  it('name only shipped files, or say the file is in the repository', () => {
    const problems = documents
      .filter((f) => !(f in PENDING))
      .flatMap((f) => bareCitations(f, readRepoFile(f), manifest.files));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('leave no document on the pending list that no longer needs it', () => {
    const done = Object.keys(PENDING).filter(
      (f) =>
        !documents.includes(f) || bareCitations(f, readRepoFile(f), manifest.files).length === 0,
    );
    expect(done).toEqual([]);
  });

  it('find a bare test path, accept a shipped one and one said to be in the repository', () => {
    const files = ['tests/v2-eval-trajectory-trials.test.ts', 'docs/'];
    expect(bareCitations('x.md', 'see `tests/cli/action.test.ts`', files)).toEqual([
      'x.md:1: tests/cli/action.test.ts',
    ]);
    expect(bareCitations('x.md', 'bench/main.ts and mutation/', files)).toEqual([
      'x.md:1: bench/main.ts',
      'x.md:1: mutation/',
    ]);
    expect(
      bareCitations('x.md', 'the legs, `tests/v2-eval-trajectory-trials.test.ts`', files),
    ).toEqual([]);
    expect(
      bareCitations('x.md', 'in the repository,\n`tests/pack/install.test.ts` installs', files),
    ).toEqual([]);
    expect(bareCitations('x.md', 'lib/tests/x.ts is not a test path', files)).toEqual([]);
  });
});
