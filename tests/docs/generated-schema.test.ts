// The report schema names exactly the probes of the probe table, as `npm run docs:generate`
// writes them, so a probe added to the table is one the report may record.

import { describe, expect, it } from 'vitest';

import { PROBE_NAMES } from '../../lib/host-probes.ts';
import { REPORT_SCHEMA, regeneratedSchema } from './generated-schema.ts';
import { readRepoFile } from './markdown.ts';

describe("the report schema's probe names", () => {
  it('are what npm run docs:generate writes from the probe table', async () => {
    const fresh = await regeneratedSchema();
    expect(
      readRepoFile(REPORT_SCHEMA) === fresh,
      `${REPORT_SCHEMA} is stale: run npm run docs:generate`,
    ).toBe(true);
    const schema = JSON.parse(fresh) as { $defs?: { probeName?: { enum?: unknown } } };
    expect(schema.$defs?.probeName?.enum).toEqual(PROBE_NAMES);
  });

  it('change with the table: a probe added is a name the schema lists', async () => {
    const more = await regeneratedSchema([...PROBE_NAMES, 'added-later']);
    expect(more).not.toBe(readRepoFile(REPORT_SCHEMA));
    expect(more).toContain('"added-later"');
  });
});
