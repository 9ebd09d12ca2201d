// Loaded with `node --import` into a CLI run by tests/perf/run-path.test.ts. It registers a module
// resolve hook that passes every URL the process resolves back to this thread, and at exit prints
// them on stderr, one `module: URL` line each, with every CommonJS module in the require cache
// (a package the bundle requires on first use never passes an import hook), so a test can read
// which modules a run loaded. Public APIs only: node:module's register() and createRequire's
// cache, and a MessageChannel.

import { createRequire, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const resolved = new Set();
port1.on('message', (url) => resolved.add(url));
// The channel must not keep a finished run alive.
port1.unref();
register('./module-graph-resolve.mjs', {
  parentURL: import.meta.url,
  data: { port: port2 },
  transferList: [port2],
});
const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  for (const file of Object.keys(required)) resolved.add(pathToFileURL(file).href);
  for (const url of resolved) process.stderr.write(`module: ${url}\n`);
});
