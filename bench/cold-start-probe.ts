// Times, in a fresh process, each fixed cost a suite run pays once per process before its first
// verdict, in the order a leg meets them. Prints one JSON object of milliseconds to stdout.

const costs: Record<string, number> = {};
let mark = performance.now();
const lap = (name: string): void => {
  const now = performance.now();
  costs[name] = now - mark;
  mark = now;
};

await import('undici');
lap('import undici (its package root)');
await import('../lib/decide/run-leg.ts');
await import('../lib/decide/target.ts');
await import('../lib/env.ts');
const { validate, SCHEMA_NAMES } = await import('../lib/schemas.ts');
lap('import lib/ (own code and the precompiled validators, via tsx)');
for (const name of SCHEMA_NAMES) validate(name, {});
lap('first validation against every schema (nothing to compile)');
const { startReferenceHost } = await import('../reference-host/index.ts');
const host = await startReferenceHost();
lap('import and start the reference host');
await host.close();
await import('vitest/node');
lap('import vitest/node (the harness: the empty run pays it too)');

process.stdout.write(`${JSON.stringify(costs)}\n`);
