// The RFC 0246 legs, run the way upstream's conformance suite is run:
//
//   OPENWOP_BASE_URL=http://host:port OPENWOP_API_KEY=... OPENWOP_REQUIRE_BEHAVIOR=true \
//     npx vitest run tests/v2-eval-trajectory-trials.test.ts
//
// or, from an installed package, as a project of the host team's own vitest (`evalGateProject`
// from openwop-eval-gate-conformance/vitest). It runs the suite through the package's API, the
// same call the CLI makes: the same legs, the generated pack in strict mode, the same report files
// in OPENWOP_REPORT_DIR and the same closing line. Each test then renders its requirement's row:
// executed-pass passes, executed-fail and blocked fail with the row's reason, inapplicable and
// skipped are skipped with theirs. Without OPENWOP_BASE_URL it refuses in one line: unlike
// `npm run conformance` it starts no embedded host, because a run against the suite's own
// reference host is no evidence about a host the caller meant to test.

import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runConformance } from '../cli/api.ts';
import type { ProvidedSigning } from '../cli/vitest.ts';
import { readSigningKey } from '../lib/report/verify/signature.ts';
import { PACK_CONCURRENCY } from '../lib/decide/pack-request.ts';
import { readConfig } from '../lib/env.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../lib/legs.ts';
import type { ReportRow } from '../lib/report/report.ts';
import type { TestContext } from 'vitest';
import { currentSet } from '../lib/requirement-sets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** From `evalGateProject`: the key to sign the report with, as `run --sign` takes it. */
    openwopEvalGate: ProvidedSigning;
  }
}

const config = readConfig();
const rows = new Map<string, ReportRow>();
/** Runs one after another: the legs' run, then the strict pack's cases a batch at a time. */
const serialRuns = config.requireBehavior
  ? 1 + Math.ceil(currentSet().pack.count / PACK_CONCURRENCY)
  : 1;

beforeAll(
  async () => {
    if (config.baseUrl === undefined) {
      throw new Error(
        'OPENWOP_BASE_URL is not set: point the legs at a host, or run `npm run conformance` for the embedded reference host',
      );
    }
    // Run the upstream way, with no project around it, nothing is provided.
    const signing: ProvidedSigning = inject('openwopEvalGate') ?? {};
    const signingKey =
      signing.signingKey === undefined ? undefined : await readSigningKey(signing.signingKey);
    const { report } = await runConformance({
      log: (line) => console.log(line),
      ...(signingKey === undefined ? {} : { signingKey }),
      ...(signing.keyId === undefined ? {} : { keyId: signing.keyId }),
    });
    for (const row of report.requirements) rows.set(row.id, row);
  },
  config.bounds.runTimeoutMs * serialRuns + 30_000,
);

/** A requirement's row as a test's outcome. */
function renderRow(row: ReportRow, ctx: TestContext): void {
  if (row.disposition === 'inapplicable' || row.disposition === 'skipped') {
    ctx.skip(`${row.disposition}: ${row.reason ?? ''}`);
  }
  if (row.disposition !== 'executed-pass') {
    throw new Error(`${row.disposition}: ${row.reason ?? 'no reason recorded'}`);
  }
  expect.hasAssertions();
  for (const f of row.findings) {
    if (f.severity === 'MUST') expect.soft(f.ok, `${f.rule} (${f.ref}): ${f.message}`).toBe(true);
  }
}

describe('RFC 0246: a trial that fails its trajectory cannot carry a pass', () => {
  for (const leg of LEGS) {
    it(`${leg.id}: ${leg.title}`, (ctx) => {
      const row = rows.get(leg.id);
      if (row === undefined) throw new Error(`the report holds no row for ${leg.id}`);
      renderRow(row, ctx);
    });
  }
  it(`${GENERATED_REQUIREMENT}: every case of the generated pack`, (ctx) => {
    const row = rows.get(GENERATED_REQUIREMENT);
    // A run that is not strict, or a host that opted out of the pack, drives none.
    if (row === undefined) ctx.skip('the generated pack was not driven in this run');
    else renderRow(row, ctx);
  });
});
