#!/usr/bin/env node
// Loads the TypeScript CLI through tsx, so the package runs from source on Node 20.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
