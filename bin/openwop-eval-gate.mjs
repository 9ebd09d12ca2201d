#!/usr/bin/env node
// `openwop-eval-gate`: runs the CLI that `npm run build` compiles to dist/ and bundles into
// dist/bundle/ (npm runs it on install from a clone and before packing), with plain Node and no
// TypeScript loader.
await import('../dist/bundle/main.js');
