// `npm run docs:generate`: rewrites every table the docs restate from `LEGS` (lib/legs.ts), between
// its marker comments, and the report schema's probe names from the probe table
// (lib/host-probes.ts), then recompiles the validators when the schema changed.
// tests/docs/generated-tables.test.ts and generated-schema.test.ts fail until this has been run.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { generateValidators } from '../../cli/schema-codegen.ts';
import { REPORT_SCHEMA, regeneratedSchema } from './generated-schema.ts';
import { GENERATED, regenerated } from './generated-tables.ts';
import { ROOT, readRepoFile } from './markdown.ts';
import { formattedTraceability } from './traceability.ts';

for (const path of Object.keys(GENERATED)) {
  const text = await regenerated(path);
  const changed = text !== readRepoFile(path);
  if (changed) writeFileSync(`${ROOT}${path}`, text);
  process.stdout.write(`${path}: ${changed ? 'rewritten' : 'already current'}\n`);
}

// The traceability table reads the three documents above as they now stand, so it comes after.
const TRACEABILITY = 'docs/traceability.md';
const trace = await formattedTraceability();
const traceChanged = trace !== readRepoFile(TRACEABILITY);
if (traceChanged) writeFileSync(`${ROOT}${TRACEABILITY}`, trace);
process.stdout.write(`${TRACEABILITY}: ${traceChanged ? 'rewritten' : 'already current'}\n`);

const schema = await regeneratedSchema();
if (schema === readRepoFile(REPORT_SCHEMA)) {
  process.stdout.write(`${REPORT_SCHEMA}: already current\n`);
} else {
  writeFileSync(`${ROOT}${REPORT_SCHEMA}`, schema);
  process.stdout.write(`${REPORT_SCHEMA}: rewritten\n`);
  // The validators are compiled from the schema, so a new name must reach them too.
  const { files } = await generateValidators(ROOT);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(`${ROOT}${path}`), { recursive: true });
    writeFileSync(`${ROOT}${path}`, text);
    process.stdout.write(`${path}: rewritten\n`);
  }
}
