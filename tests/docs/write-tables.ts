// `npm run docs:generate`: rewrites every table the docs restate from `LEGS` (lib/legs.ts), between
// its marker comments. tests/docs/generated-tables.test.ts fails until this has been run.

import { writeFileSync } from 'node:fs';

import { GENERATED, regenerated } from './generated-tables.ts';
import { ROOT, readRepoFile } from './markdown.ts';

for (const path of Object.keys(GENERATED)) {
  const text = await regenerated(path);
  const changed = text !== readRepoFile(path);
  if (changed) writeFileSync(`${ROOT}${path}`, text);
  process.stdout.write(`${path}: ${changed ? 'rewritten' : 'already current'}\n`);
}
