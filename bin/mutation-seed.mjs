#!/usr/bin/env node
// Run by `npm run mutation[:decide|:observe]` before StrykerJS. Stryker reads and rewrites its
// incremental file in place, writing the machine's own folder into it, so each configuration
// (mutation/*.config.json) points that file under reports/ (git-ignored) and a run leaves the
// tracked tree as it found it. The committed baseline of the same name in mutation/ seeds it the
// first time, so a first run on a fresh clone is incremental too.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const config = process.argv[2];
if (config === undefined) {
  process.stderr.write('usage: node bin/mutation-seed.mjs mutation/CONFIG.json\n');
  process.exit(2);
}
const { incrementalFile } = JSON.parse(readFileSync(config, 'utf8'));
const baseline = join(dirname(config), basename(incrementalFile));
if (!existsSync(incrementalFile) && existsSync(baseline)) {
  mkdirSync(dirname(incrementalFile), { recursive: true });
  copyFileSync(baseline, incrementalFile);
  process.stdout.write(`seeded ${incrementalFile} from ${baseline}\n`);
}
