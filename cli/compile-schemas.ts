// `npx tsx cli/compile-schemas.ts`: rewrites lib/generated/ from schemas/v2/. Run it after any
// schema change; the suite's tests fail until the committed module matches.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateValidators } from './schema-codegen.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { files } = await generateValidators(ROOT);
for (const [path, text] of Object.entries(files)) {
  await mkdir(dirname(join(ROOT, path)), { recursive: true });
  await writeFile(join(ROOT, path), text);
  process.stdout.write(`wrote ${path}\n`);
}
