// Unpacks a generated-pack report an earlier commit wrote (tests/report/legacy/pack-NAME.json.gz)
// into a scratch folder, with its sidecar (pack-NAME.jsonl.gz), when it streamed one, beside it
// under the name the report gives it, as `verify` expects to find them.

import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { EvalGateReport } from '../../lib/report/report.ts';

export const LEGACY = join(import.meta.dirname, 'legacy');

export async function unpackLegacyPack(
  dir: string,
  name: string,
): Promise<{ readonly path: string; readonly report: EvalGateReport }> {
  const text = gunzipSync(await readFile(join(LEGACY, `pack-${name}.json.gz`)));
  const report = JSON.parse(text.toString('utf8')) as EvalGateReport;
  const path = join(dir, `${name}.json`);
  await writeFile(path, text);
  const generated = report.requirements.find((r) => r.generated !== undefined)?.generated;
  if (generated !== undefined && 'sidecar' in generated) {
    await copyFile(join(LEGACY, `pack-${name}.jsonl.gz`), join(dir, generated.sidecar.file));
  }
  return { path, report };
}
