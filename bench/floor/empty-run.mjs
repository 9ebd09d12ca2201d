#!/usr/bin/env node
// The harness floor as a process: node, the tsx loader, then one empty vitest run started from
// code, so that it pays the same start-up as `npm run conformance` (bin/openwop-eval-gate.mjs).
import { register } from 'tsx/esm/api';

register();
const { timeEmptyVitestRun } = await import('../vitest-floor.ts');
await timeEmptyVitestRun();
