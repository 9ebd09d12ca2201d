#!/usr/bin/env node
// `npm run bench`: loads the TypeScript benchmark through tsx and runs it.
import { register } from 'tsx/esm/api';

register();
await import('../bench/main.ts');
