// Loaded with `node --import` into a CLI run by tests/perf/run-path.test.ts. At exit it prints on
// stderr, as `code cache: USE`, what became of the bundle's code cache in this process ('used',
// 'rejected' or 'none'), read from the one loader the bin and the bundle share
// (dist/bundle/code-cache.cjs, found in the require cache the bin loaded it into).

import { createRequire } from 'node:module';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const loader = fileURLToPath(new URL('../../dist/bundle/code-cache.cjs', import.meta.url));
const bundle = fileURLToPath(new URL('../../dist/bundle/main.cjs', import.meta.url));
const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const use = required[loader]?.exports.codeCacheUse(bundle) ?? 'the loader was never loaded';
  process.stderr.write(`code cache: ${use}\n`);
});
