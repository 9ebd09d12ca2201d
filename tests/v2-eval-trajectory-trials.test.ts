// The RFC 0246 legs. Each test drives one requirement against the configured host and records
// its outcome in `meta`, which the report reads: vitest's pass/fail/skip cannot say `blocked` or
// `inapplicable`, so the runner's state is never used to guess them.
//
// Run through `npm run conformance`, which provides the configuration (and the embedded host
// when no OPENWOP_BASE_URL is given). Run directly, it reads the environment through lib/env.ts.

import { afterAll, describe, inject, it, type ExpectStatic } from 'vitest';
import type { DiscoveryResult } from '../lib/observe/discovery.ts';
import type { SuiteConfig } from '../lib/env.ts';
import type { HeadStart } from '../lib/decide/leg-target.ts';
import type { LegOutcome } from '../lib/types.ts';
import type { LegTarget } from '../lib/decide/leg-target.ts';
import { readConfig } from '../lib/env.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../lib/legs.ts';
import { runLeg } from '../lib/decide/run-leg.ts';
import { PACK_CONCURRENCY, type PackRequest } from '../lib/decide/pack-request.ts';
import { openTarget } from '../lib/decide/target.ts';

declare module 'vitest' {
  interface ProvidedContext {
    evalGateConfig: SuiteConfig;
    evalGateHeadStarts: readonly HeadStart[];
    evalGateDiscovery: DiscoveryResult | undefined;
    /** The requirements --only/--skip selected; absent: every one. */
    evalGateSelected: readonly string[] | undefined;
    /** The generated pack `run --generate N --seed S` asked for; absent: no generated row. */
    evalGatePack: PackRequest | undefined;
  }
  interface TaskMeta {
    evalGate?: LegOutcome;
  }
}

const config: SuiteConfig = inject('evalGateConfig') ?? readConfig();
let opened: Promise<LegTarget | undefined> | undefined;
// What the CLI read and created before vitest started: the discovery every leg decides from and
// the report records, and runs whose time overlapped vitest's start-up.
const headStarts: readonly HeadStart[] = inject('evalGateHeadStarts') ?? [];
const discovery = inject('evalGateDiscovery');
const selected = inject('evalGateSelected');
const pack = inject('evalGatePack');
const target = (): Promise<LegTarget | undefined> =>
  (opened ??= openTarget(config, {
    headStarts,
    ...(discovery === undefined ? {} : { discovery }),
  }));

afterAll(async () => {
  const t = await opened;
  await t?.client.close();
});

describe.concurrent('RFC 0246: a trial that fails its trajectory cannot carry a pass', () => {
  for (const leg of LEGS) {
    it(`${leg.id}: ${leg.title}`, async (ctx) => {
      // The runner records an unselected leg as skipped; it must not drive the host.
      if (selected !== undefined && !selected.includes(leg.id)) ctx.skip('not selected');
      const outcome = await runLeg(leg, await target());
      ctx.task.meta.evalGate = outcome;

      if (outcome.disposition === 'inapplicable' || outcome.disposition === 'skipped') {
        ctx.skip(`${outcome.disposition}: ${outcome.reason ?? ''}`);
      }
      if (outcome.disposition === 'blocked') {
        throw new Error(`blocked: ${outcome.reason ?? 'no reason recorded'}`);
      }
      if (outcome.findings.length === 0) {
        throw new Error(`${outcome.disposition}: ${outcome.reason ?? 'no finding recorded'}`);
      }
      expectFindingsHeld(ctx.expect, outcome);
    });
  }

  if (pack !== undefined) {
    // Each wave of the pack may take a whole run's time; the bound grows with the waves.
    const waves = Math.ceil(pack.count / PACK_CONCURRENCY);
    it(
      `${GENERATED_REQUIREMENT}: every generated fixture of seed ${pack.seed} (${pack.count}) is judged like a leg's`,
      { timeout: config.bounds.runTimeoutMs * waves + 30_000 },
      async (ctx) => {
        // Loaded only when a pack is requested: the generator brings fast-check with it.
        const { runGeneratedLeg } = await import('../lib/decide/generated-leg.ts');
        const outcome = await runGeneratedLeg(pack, await target());
        ctx.task.meta.evalGate = outcome;
        if (outcome.disposition === 'inapplicable' || outcome.disposition === 'skipped') {
          ctx.skip(`${outcome.disposition}: ${outcome.reason ?? ''}`);
        }
        if (outcome.disposition === 'blocked' || outcome.findings.length === 0) {
          throw new Error(`${outcome.disposition}: ${outcome.reason ?? 'no finding recorded'}`);
        }
        expectFindingsHeld(ctx.expect, outcome);
      },
    );
  }
});

function expectFindingsHeld(expect: ExpectStatic, outcome: LegOutcome): void {
  expect.hasAssertions();
  for (const f of outcome.findings) {
    if (f.severity === 'MUST') expect.soft(f.ok, `${f.rule} (${f.ref}): ${f.message}`).toBe(true);
  }
}
