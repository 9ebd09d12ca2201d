// "Installed size": read from bench/recorded/package-install.json, which `npm run test:package`
// writes after installing the packed tarball into an empty project. It needs the registry, so the
// bench reports the last recording and says when it was taken instead of measuring again.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Section } from './report.ts';

const RECORD = fileURLToPath(new URL('./recorded/package-install.json', import.meta.url));

interface InstallRecord {
  readonly measuredAt: string;
  readonly node: string;
  readonly npm: string;
  readonly version: string;
  readonly tarballKiB: number;
  readonly packedFiles: number;
  readonly installedKiB: number;
  readonly packages: number;
  readonly packageNames: readonly string[];
  readonly passed: boolean;
}

export async function installedSizeSection(): Promise<Section> {
  const record = JSON.parse(await readFile(RECORD, 'utf8')) as InstallRecord;
  const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;
  return {
    title: 'Installed size',
    method:
      `Recorded by \`npm run test:package\` (bin/test-package.mjs) at ${record.measuredAt} with ` +
      `node ${record.node} and npm ${record.npm}: \`npm pack\`, then a plain \`npm install\` of ` +
      `the tarball into an empty project, every dependency range resolved afresh from the ` +
      `registry; the size is \`du -sk\` of that project's node_modules and the count is the ` +
      `packages npm installed there, this one included. It needs the registry, so \`npm test\` ` +
      `does not run it and the bench reports the last recording.`,
    headers: ['series', 'value'],
    rows: [
      ['installed size', mib(record.installedKiB)],
      ['packages installed', String(record.packages)],
      ['tarball', `${record.tarballKiB} KiB, ${record.packedFiles} files`],
      ['packages', record.packageNames.join(', ')],
      ['before: installed size', '62 MB over 48 packages (vite, rolldown, esbuild, tsx, vitest)'],
      ['installed run checks passed', record.passed ? 'yes' : 'no'],
    ],
  };
}
