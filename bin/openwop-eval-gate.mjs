#!/usr/bin/env node
// `openwop-eval-gate`: runs the CLI compiled to dist/ by `npm run build` (npm runs it on install
// from a clone and before packing), with plain Node and no TypeScript loader.
await import('../dist/cli/main.js');
