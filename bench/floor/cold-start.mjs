#!/usr/bin/env node
// Times, in a fresh plain-node process, each fixed cost a run pays once per process, in the order
// the CLI meets them, importing the compiled modules under dist/ as the bin does. Prints one JSON
// object of milliseconds to stdout.
import { performance } from 'node:perf_hooks';
import { stdout } from 'node:process';

const costs = {};
let mark = performance.now();
const lap = (name) => {
  const now = performance.now();
  costs[name] = now - mark;
  mark = now;
};

await import('node:http');
lap("import node:http (the host client's transport)");
await import('../../dist/lib/decide/run-leg.js');
await import('../../dist/lib/decide/target.js');
await import('../../dist/lib/env.js');
await import('../../dist/lib/decide/run-suite.js');
const { preloadValidators, validate, SCHEMA_NAMES } = await import('../../dist/lib/schemas.js');
lap('import lib/ (compiled; the precompiled validators load when first needed)');
validate('fixture', {});
lap("load the fixture's validator (before the runs are created)");
preloadValidators();
lap('load every other validator (once the runs are created, while the host works)');
for (const name of SCHEMA_NAMES) validate(name, {});
lap('first validation against every schema (nothing to compile)');
const { startReferenceHost } = await import('../../dist/reference-host/index.js');
const host = await startReferenceHost();
lap('import and start the reference host');
await host.close();

stdout.write(`${JSON.stringify(costs)}\n`);
