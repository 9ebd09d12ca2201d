// No false fail, proven (contract §9): the independent host makes, one family at a time and then
// all together, the choices the published v2 structures leave to a host, and every leg must
// still pass it in strict mode with not even a SHOULD finding. Each mode is combined with other
// habits of the host (timing, throttling, paging) and each case checks that the host really made
// its choice on the run the suite drove, or passing would prove nothing.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunObservation } from '../../lib/types.ts';
import { ORACLE_MODES, startOracleHost } from '../support/oracle-host.ts';
import type { OracleHost, OracleHostOptions, OracleMode } from '../support/oracle-host.ts';
import { expectEveryLegPassed, HANG_GUARD_MS, runEveryLeg } from '../support/run-every-leg.ts';

type Check = (observation: RunObservation, host: OracleHost) => void;

const payloads = (o: RunObservation, type: string): Record<string, unknown>[] =>
  o.events.filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

const summaryOf = (o: RunObservation): Record<string, unknown> =>
  o.summary as Record<string, unknown>;

/** What the suite must have been served for a mode to count as exercised. */
const SEEN: Readonly<Record<OracleMode, Check>> = {
  'optional-members': (o) => {
    const summary = summaryOf(o);
    for (const key of ['evaluatedModelClass', 'totalCostUsd', 'pinnedNodeIds', 'regression']) {
      expect(summary, key).toHaveProperty(key);
    }
    const [task] = summary.tasks as Record<string, unknown>[];
    for (const key of ['costUsd', 'latencyMs', 'schemaValid', 'safetyFindings']) {
      expect(task, key).toHaveProperty(key);
    }
    expect(payloads(o, 'eval.started')[0]).toHaveProperty('baselineRunId');
    expect(payloads(o, 'eval.scored')[0]).toHaveProperty('safetyFindingCount');
    expect(payloads(o, 'eval.completed')[0]).toHaveProperty('regressionVsBaseline');
  },
  'vendor-keys': (o) => {
    for (const type of ['eval.started', 'eval.scored', 'eval.completed']) {
      expect(payloads(o, type)[0], type).toHaveProperty(['x-acme-wall-ms']);
    }
  },
  'anon-tenant': (o, host) => {
    expect(host.tenant).toMatch(/^anon:/);
    expect(o.runId.startsWith(`${host.tenant}/`)).toBe(true);
  },
  'one-event-pages': (o) => {
    expect(o.pages.every((p) => p.eventCount <= 1)).toBe(true);
    expect(o.pages.length).toBeGreaterThanOrEqual(o.events.length);
  },
  'held-poll': (_o, host) => {
    // Some poll was held past more than one append: it waited for the end, not the next event.
    expect(host.mostAppendsWhileHeld()).toBeGreaterThan(1);
  },
};

/** Each mode with a different set of the host's other habits; then every mode at once. */
const CASES: readonly (readonly [string, Omit<OracleHostOptions, 'apiKey'>, number])[] = [
  ['optional-members', { seed: 31, modes: ['optional-members'] }, 2],
  ['vendor-keys, late answers', { seed: 32, jitterMs: 12, modes: ['vendor-keys'] }, 2],
  [
    'anon-tenant, every second create refused',
    { seed: 33, throttleEvery: 2, modes: ['anon-tenant'] },
    2,
  ],
  [
    'one-event-pages, no gaps',
    { seed: 34, eventGapMs: 0, jitterMs: 0, modes: ['one-event-pages'] },
    2,
  ],
  ['held-poll, slow appends', { seed: 35, eventGapMs: 25, modes: ['held-poll'] }, 2],
  [
    'one-event-pages, the shortest hold a suite may ask',
    { seed: 36, modes: ['one-event-pages'] },
    1,
  ],
  [
    'every mode, another path prefix',
    { seed: 37, eventGapMs: 25, prefix: '/tenants/acme/openwop', modes: [...ORACLE_MODES] },
    2,
  ],
];

describe.concurrent(
  'every leg passes the independent host whatever upstream leaves optional',
  () => {
    it.each(CASES)(
      'strict mode, every leg executed-pass (%s)',
      { timeout: HANG_GUARD_MS },
      async (_, options, pollS) => {
        const apiKey = randomBytes(18).toString('base64url');
        const host = await startOracleHost({ apiKey, ...options });
        try {
          const observed = expectEveryLegPassed(await runEveryLeg(host.url, apiKey, pollS));
          for (const mode of options.modes ?? []) {
            for (const observation of observed) SEEN[mode](observation, host);
          }
        } finally {
          await host.close();
        }
      },
    );
  },
);

it('every mode is exercised by some case', () => {
  const used = new Set(CASES.flatMap(([, options]) => options.modes ?? []));
  expect([...used].sort()).toEqual([...ORACLE_MODES].sort());
});
