// Until the package is on the registry, the documented install names what exists: the tarball
// `npm pack` writes for this name and version, and the repository's own git URL, never a
// placeholder. The README's quick start shows the installed bins beside the checkout's scripts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, trackedFiles } from './markdown.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  repository: { url: string };
  bin: Record<string, string>;
};
const TARBALL = `${manifest.name}-${manifest.version}.tgz`;
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('the documented install', () => {
  it.each(['README.md', 'docs/ci.md'])(
    '%s installs the tarball npm pack writes, and the git URL of the repository',
    (path) => {
      const text = read(path);
      expect(text).toContain(`npm install --save-dev ./${TARBALL}`);
      expect(text).toContain(`npm install --save-dev ${manifest.repository.url}`);
    },
  );

  it('no tracked document or workflow holds an OWNER/REPO placeholder', () => {
    const placeholders = trackedFiles()
      .filter((f) => /\.(md|ya?ml)$/.test(f))
      .filter((f) => /\bOWNER\/REPO\b/.test(read(f)));
    expect(placeholders).toEqual([]);
  });

  it('the quick start runs each bin as installed beside the same command in the checkout', () => {
    const quickStart = read('README.md').split('\n## ')[1] ?? '';
    expect(quickStart).toMatch(/^Quick start/);
    for (const bin of Object.keys(manifest.bin)) expect(quickStart).toContain(`\`npx ${bin} `);
    expect(quickStart).toContain('`npm run conformance -- ');
    expect(quickStart).toContain('`npm run host -- ');
  });
});
