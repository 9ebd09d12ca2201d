// The report schema's list of probe names, restated from the probe table (lib/host-probes.ts):
// rendered from it by `npm run docs:generate` and compared with a fresh rendering by
// tests/docs/generated-schema.test.ts, so a probe added to the table is a name the report may
// record with no edit to the schema.

import { format, resolveConfig } from 'prettier';

import { PROBE_NAMES } from '../../lib/host-probes.ts';
import { ROOT, readRepoFile } from './markdown.ts';

export const REPORT_SCHEMA = 'schemas/v2/eval-gate-report.schema.json';

/** The `probeName` definition's enum, from its opening to its closing bracket. */
const PROBE_NAME_ENUM = /("probeName":\s*\{\s*"description":\s*"[^"]*",\s*"enum":\s*)\[[^\]]*\]/;

/** The report schema as `npm run docs:generate` writes it: the probe names of the table. */
export async function regeneratedSchema(names: readonly string[] = PROBE_NAMES): Promise<string> {
  const text = readRepoFile(REPORT_SCHEMA);
  if (!PROBE_NAME_ENUM.test(text)) {
    throw new Error(`${REPORT_SCHEMA} has no probeName enum where the generator writes it`);
  }
  const filled = text.replace(
    PROBE_NAME_ENUM,
    (_, head: string) => `${head}${JSON.stringify(names)}`,
  );
  const options = (await resolveConfig(`${ROOT}${REPORT_SCHEMA}`)) ?? {};
  return format(filled, { ...options, parser: 'json' });
}
