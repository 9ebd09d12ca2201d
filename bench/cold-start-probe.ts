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
lap('import undici');
await import('ajv/dist/2020.js');
await import('ajv-formats');
lap('import ajv + ajv-formats');
await import('../lib/run-leg.ts');
await import('../lib/target.ts');
await import('../lib/env.ts');
const { validate, SCHEMA_NAMES } = await import('../lib/schemas.ts');
lap('import lib/ (own code, via tsx)');
validate('fixture', {});
lap('compile the fixture schema (first validate)');
for (const name of SCHEMA_NAMES) validate(name, {});
lap('compile every other schema');
const { startReferenceHost } = await import('../reference-host/index.ts');
const host = await startReferenceHost();
lap('import and start the reference host');
await host.close();

process.stdout.write(`${JSON.stringify(costs)}\n`);
