// One conformance run of every leg against a base URL, strict, as the CLI would drive it, for the
// tests of this folder that start their own host.

import type { LegOutcome } from '../../lib/types.ts';
import { forgetDiscoveries } from '../../lib/discovery.ts';
import { resolveConfig } from '../../lib/env.ts';
import { LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/run-leg.ts';
import { openTarget } from '../../lib/target.ts';

export async function runEveryLeg(
  baseUrl: string,
  apiKey: string,
  pollTimeoutS = 2,
): Promise<readonly LegOutcome[]> {
  const config = resolveConfig({
    OPENWOP_BASE_URL: baseUrl,
    OPENWOP_API_KEY: apiKey,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: String(pollTimeoutS),
    OPENWOP_RUN_TIMEOUT_MS: '8000',
  });
  // Ports are reused between hosts; forgetting and fetching happen in one synchronous step.
  forgetDiscoveries();
  const target = await openTarget(config);
  try {
    return await Promise.all(LEGS.map((leg) => runLeg(leg, target)));
  } finally {
    await target?.client.close();
  }
}
