// The two pieces of undici the host client uses: a connection Pool and the promise form of its
// `request`. undici's package root loads every dispatcher, the mocks, fetch and WebSocket, about
// 180 ms a process; the suite pays that twice per run (the CLI and the vitest worker), on the path
// every run waits on. These two internal modules are the ones the root re-exports for these names,
// and the root attaches `request` to every dispatcher the same way `requestOn` calls it here. The
// lockfile pins undici; tests/io/undici-pool.test.ts fails if either path or shape moves.

import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';

const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;

const request = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/** `pool.request(options)`, without the package root that installs it on the prototype. */
export function requestOn(
  pool: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return request.call(pool, options);
}
