// `npm publish --dry-run` is clean: the manifest is publishable (not private, public access, a
// repository, keywords, engines) and npm packs it without an error or a warning about the
// package. It runs offline against a registry address nothing listens on, so it can neither
// publish nor depend on the network; the one warning npm always gives a dry run, that nobody is
// logged in, is the only one allowed. Scripts are off: the build that `prepare` would run has
// already been done from these sources by the tests' globalSetup.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';
import { runProcess } from '../support/process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEAD_REGISTRY = 'http://127.0.0.1:9/';

interface Manifest {
  readonly private?: boolean;
  readonly publishConfig?: { readonly access?: string };
  readonly repository?: { readonly url?: string };
  readonly keywords?: readonly string[];
  readonly engines?: { readonly node?: string };
  readonly files?: readonly string[];
}

describe('publishing', () => {
  it('the manifest is publishable: not private, public access, a repository, keywords and engines', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.private).toBeUndefined();
    expect(manifest.publishConfig?.access).toBe('public');
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\//);
    expect(manifest.keywords).toContain('openwop');
    expect(manifest.engines?.node).toMatch(/^>=20/);
    expect(manifest.files).toContain('lib/');
  });

  it(
    'npm publish --dry-run packs it offline with no error and no warning about the package',
    { timeout: 60_000 },
    async () => {
      const result = await runProcess(
        'npm',
        [
          'publish',
          '--dry-run',
          '--offline',
          '--json',
          '--ignore-scripts',
          '--registry',
          DEAD_REGISTRY,
        ],
        { cwd: ROOT, env: isolatedEnv(), deadlineMs: 50_000 },
      );
      expect(result.status, result.stderr).toBe(0);
      const problems = result.stderr
        .split('\n')
        .filter((l) => /^npm (warn|error|ERR)/i.test(l))
        .filter((l) => !/requires you to be logged in .*\(dry-run\)$/.test(l));
      expect(problems).toEqual([]);
      const parsed = JSON.parse(result.stdout) as Record<string, { files: { path: string }[] }>;
      const files = Object.values(parsed)[0]?.files.map((f) => f.path) ?? [];
      expect(files).toContain('bin/openwop-eval-gate.mjs');
      expect(files.filter((p) => p.startsWith('tests/'))).toEqual([
        'tests/v2-eval-trajectory-trials.test.ts',
      ]);
    },
  );
});
