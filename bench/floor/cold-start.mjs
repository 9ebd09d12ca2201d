#!/usr/bin/env node
// Runs bench/cold-start-probe.ts in a fresh process (node + tsx, as the CLI starts), so that each
// module it times is imported for the first time.
import { register } from 'tsx/esm/api';

register();
await import('../cold-start-probe.ts');
