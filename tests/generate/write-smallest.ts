// Rewrites the smallest-pack table of docs/generated-suites.md: `npm run generated-table`. It runs
// every reference-host defect against the pack of 200 at seed 1, in process and then over HTTP
// with the host checks of the same run (a few minutes); run it again whenever a defect is added.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { smallestPacks } from './smallest-pack.ts';
import { tally, withTable } from './smallest-table.ts';

const page = fileURLToPath(new URL('../../docs/generated-suites.md', import.meta.url));
const rows = await smallestPacks();
const options = { ...(await resolveConfig(page)), parser: 'markdown' };
writeFileSync(page, await format(withTable(readFileSync(page, 'utf8'), rows), options));
process.stdout.write(`${tally(rows)}\n`);
