// Loaded with `node --import` into a CLI run by tests/perf/validators-load.test.ts. It prints, on
// stderr, whether each validator file has been loaded at two moments: each time an answer to a
// POST /runs finishes arriving, and when the process exits. It reads only public APIs: the
// http.client.response.finish diagnostics channel and the CommonJS module cache.

import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import process from 'node:process';

const cache = createRequire(import.meta.url).cache;

function loaded() {
  const files = Object.keys(cache);
  const has = (name) => files.some((file) => file.endsWith(`/lib/generated/${name}`));
  return `fixture-validator=${has('fixture-validator.cjs')} validators=${has('validators.cjs')}`;
}

subscribe('http.client.response.finish', ({ request, response }) => {
  if (request.method === 'POST' && request.path === '/runs') {
    process.stderr.write(`load-order: POST /runs ${response.statusCode} ${loaded()}\n`);
  }
});
process.on('exit', () => process.stderr.write(`load-order: exit ${loaded()}\n`));
