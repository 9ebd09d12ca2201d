// The RFC 0246 legs, run the way upstream's conformance suite is run:
//
//   OPENWOP_BASE_URL=http://host:port OPENWOP_API_KEY=... OPENWOP_REQUIRE_BEHAVIOR=true \
//     npx vitest run tests/v2-eval-trajectory-trials.test.ts
//
// It reads the configuration through lib/env.ts, runs the suite with the same engine the CLI runs
// (lib/decide/run-suite.ts) and publishes the same report files (lib/report/publish.ts) into
// OPENWOP_REPORT_DIR. Each test then renders its requirement's row: executed-pass passes,
// executed-fail and blocked fail with the row's reason, inapplicable and skipped are skipped with
// theirs. Without OPENWOP_BASE_URL it refuses in one line: unlike `npm run conformance` it starts
// no embedded host, because a run against the suite's own reference host is no evidence about a
// host the caller meant to test.

import { beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../lib/env.ts';
import { LEGS } from '../lib/legs.ts';
import { runSuite } from '../lib/decide/run-suite.ts';
import { publishRun } from '../lib/report/publish.ts';
import type { ReportRow } from '../lib/report/report.ts';
import { closingLineOf } from '../lib/report/run-verdict.ts';

const config = readConfig();
const rows = new Map<string, ReportRow>();

beforeAll(async () => {
  const baseUrl = config.baseUrl;
  if (baseUrl === undefined) {
    throw new Error(
      'OPENWOP_BASE_URL is not set: point the legs at a host, or run `npm run conformance` for the embedded reference host',
    );
  }
  const run = await runSuite(config, { onProgress: (line) => console.log(line) });
  const published = await publishRun(run, config, {
    baseUrl,
    embedded: false,
    apiKey: config.apiKey,
  });
  if (!published.ok) throw new Error(`${published.problem}; this is a suite bug`);
  for (const row of published.report.requirements) rows.set(row.id, row);
  console.log(closingLineOf(published.verdict));
  // Every leg runs at once, so the bound is one run's, plus the requests around it.
}, config.bounds.runTimeoutMs + 30_000);

describe('RFC 0246: a trial that fails its trajectory cannot carry a pass', () => {
  for (const leg of LEGS) {
    it(`${leg.id}: ${leg.title}`, (ctx) => {
      const row = rows.get(leg.id);
      if (row === undefined) throw new Error(`the report holds no row for ${leg.id}`);
      if (row.disposition === 'inapplicable' || row.disposition === 'skipped') {
        ctx.skip(`${row.disposition}: ${row.reason ?? ''}`);
      }
      if (row.disposition !== 'executed-pass') {
        throw new Error(`${row.disposition}: ${row.reason ?? 'no reason recorded'}`);
      }
      expect.hasAssertions();
      for (const f of row.findings) {
        if (f.severity === 'MUST')
          expect.soft(f.ok, `${f.rule} (${f.ref}): ${f.message}`).toBe(true);
      }
    });
  }
});
