#!/usr/bin/env node
// `openwop-eval-gate`: runs the CLI that `npm run build` compiles to dist/ and bundles into one
// CommonJS file, dist/bundle/main.cjs (npm runs it on install from a clone and before packing),
// with plain Node and no TypeScript loader. The bundle is compiled from the V8 code cache the
// build wrote for its very text when there is one (lib/code-cache.ts), and plainly when not.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { requireWithCodeCache } = require('../dist/bundle/code-cache.cjs');
await requireWithCodeCache(require.resolve('../dist/bundle/main.cjs')).main();
