#!/usr/bin/env node
// Runs the TypeScript reference host without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../reference-host/main.ts');
