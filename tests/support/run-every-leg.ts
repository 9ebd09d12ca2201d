// One conformance run of every leg (or of the legs given) against a base URL, strict, as the CLI
// would drive it, for tests that start their own host. Given `exchanges`, every answer the suite
// got, discovery included, is recorded there for ./served-documents.ts to hold. And the check
// every no-false-fail test ends with: every leg passed, and not vacuously.

import { expect } from 'vitest';
import type { LegOutcome, RunObservation } from '../../lib/types.ts';
import { readDiscovery } from '../../lib/observe/discovery.ts';
import { resolveConfig } from '../../lib/env.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { LEGS, type LegDefinition } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import type { LegTarget } from '../../lib/decide/leg-target.ts';
import { recordingClient } from './served-documents.ts';
import type { Exchange } from './served-documents.ts';

/**
 * Ten minutes: far past any run these hosts serve, however busy the machine. A test that drives
 * every leg takes it as its own timeout too: several such runs side by side on a machine shared
 * with other work can outlast vitest's 30 s default without anything being wrong.
 */
export const HANG_GUARD_MS = 600_000;

export async function runEveryLeg(
  baseUrl: string,
  apiKey: string,
  pollTimeoutS = 2,
  exchanges?: Exchange[],
  legs: readonly LegDefinition[] = LEGS,
): Promise<readonly LegOutcome[]> {
  const config = resolveConfig({
    OPENWOP_BASE_URL: baseUrl,
    OPENWOP_API_KEY: apiKey,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: String(pollTimeoutS),
    // Only guards against a hang: every caller expects its legs to end by themselves, so no verdict
    // may wait on a deadline that a busy machine can reach first.
    OPENWOP_RUN_TIMEOUT_MS: String(HANG_GUARD_MS),
    OPENWOP_REQUEST_TIMEOUT_MS: String(HANG_GUARD_MS),
  });
  const direct = createHostClient({
    baseUrl,
    apiKey,
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  const client = exchanges === undefined ? direct : recordingClient(direct, exchanges);
  try {
    // Ports are reused between hosts; forgetting and fetching happen in one synchronous step.
    const target: LegTarget = { client, discovery: await readDiscovery(client), config };
    return await Promise.all(legs.map((leg) => runLeg(leg, target)));
  } finally {
    await client.close();
  }
}

/**
 * Every leg passed, and not vacuously: each made assertions, no finding failed (not even a
 * SHOULD), and every host leg observed a run. Returns those observations.
 */
export function expectEveryLegPassed(
  outcomes: readonly LegOutcome[],
  /** SHOULD rules a caller expects to warn (each still a SHOULD, never a MUST). */
  expectedWarnings: readonly string[] = [],
): RunObservation[] {
  expect(outcomes.map((o) => [o.requirement, o.disposition, o.reason ?? ''])).toEqual(
    LEGS.map((leg) => [leg.id, 'executed-pass', '']),
  );
  for (const outcome of outcomes) expect(outcome.assertions).toBeGreaterThan(0);
  const failed = outcomes.flatMap((o) =>
    o.findings
      .filter((f) => !f.ok)
      .filter((f) => !(f.severity === 'SHOULD' && expectedWarnings.includes(f.rule)))
      .map((f) => `${f.rule}: ${f.message}`),
  );
  expect(failed).toEqual([]);
  const observed = outcomes.flatMap((o) => (o.observation === undefined ? [] : [o.observation]));
  expect(observed).toHaveLength(LEGS.filter((leg) => leg.fixtureId !== undefined).length);
  return observed;
}
