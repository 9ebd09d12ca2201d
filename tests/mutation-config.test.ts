// `npm run mutation` leaves the tracked tree as it found it: everything a mutation configuration
// makes Stryker write (its incremental file, which it rewrites with the machine's own folder as
// projectRoot, its reports and its sandbox) lies in a git-ignored, untracked place, and each npm
// script seeds the incremental file from the committed baseline of the configuration it runs.

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface StrykerConfig {
  readonly incremental?: boolean;
  readonly incrementalFile: string;
  readonly tempDirName: string;
  readonly htmlReporter?: { readonly fileName: string };
  readonly jsonReporter?: { readonly fileName: string };
}

const CONFIGS = readdirSync(join(ROOT, 'mutation')).filter((f) =>
  /^stryker.*config\.json$/.test(f),
);

function configOf(file: string): StrykerConfig {
  return JSON.parse(readFileSync(join(ROOT, 'mutation', file), 'utf8')) as StrykerConfig;
}

/** Every path a run of this configuration writes, relative to the repository. */
function writtenBy(config: StrykerConfig): string[] {
  return [
    config.incrementalFile,
    // A file inside the sandbox folder: git ignores `.stryker-tmp/` as a folder only.
    `${config.tempDirName}/sandbox-file`,
    ...(config.htmlReporter === undefined ? [] : [config.htmlReporter.fileName]),
    ...(config.jsonReporter === undefined ? [] : [config.jsonReporter.fileName]),
  ];
}

const tracked = new Set(
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0'),
);

function ignored(path: string): boolean {
  return spawnSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: ROOT }).status === 0;
}

describe('the mutation configurations', () => {
  it('are the three the npm scripts run', () => {
    expect(CONFIGS.sort()).toEqual([
      'stryker.config.json',
      'stryker.decide.config.json',
      'stryker.observe.config.json',
    ]);
  });

  it.each(CONFIGS)('%s writes nothing tracked and nothing git would pick up', (file) => {
    const config = configOf(file);
    expect(config.incremental).toBe(true);
    for (const path of writtenBy(config)) {
      expect(tracked.has(path), `${file} writes the tracked file ${path}`).toBe(false);
      expect(ignored(path), `${file} writes ${path}, which git does not ignore`).toBe(true);
    }
  });

  it.each(CONFIGS)('%s is run by an npm script that seeds its incremental file first', (file) => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const config = `mutation/${file}`;
    const runs = Object.values(scripts).filter((s) => s.includes(`stryker run ${config}`));
    expect(runs).toEqual([`node bin/mutation-seed.mjs ${config} && stryker run ${config}`]);
    // The seed is the committed baseline of the same name, with a relative projectRoot.
    const baseline = `mutation/${basename(configOf(file).incrementalFile)}`;
    expect(tracked.has(baseline)).toBe(true);
    const seed = JSON.parse(readFileSync(join(ROOT, baseline), 'utf8')) as { projectRoot: string };
    expect(seed.projectRoot).toBe('.');
  });
});
