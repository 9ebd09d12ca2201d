#!/usr/bin/env node
// `openwop-eval-gate-host`: the reference host compiled to dist/ by `npm run build`, run with
// plain Node and no TypeScript loader.
await import('../dist/reference-host/main.js');
