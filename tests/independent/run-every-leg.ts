// One conformance run of every leg against a base URL, strict, as the CLI would drive it, for the
// tests of this folder that start their own host. Given `exchanges`, every answer the suite got,
// discovery included, is recorded there for tests/support/served-documents.ts to hold.

import type { LegOutcome } from '../../lib/types.ts';
import { fetchDiscovery, forgetDiscoveries } from '../../lib/observe/discovery.ts';
import { resolveConfig } from '../../lib/env.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import type { LegTarget } from '../../lib/decide/leg-target.ts';
import { recordingClient } from '../support/served-documents.ts';
import type { Exchange } from '../support/served-documents.ts';

export async function runEveryLeg(
  baseUrl: string,
  apiKey: string,
  pollTimeoutS = 2,
  exchanges?: Exchange[],
): Promise<readonly LegOutcome[]> {
  const config = resolveConfig({
    OPENWOP_BASE_URL: baseUrl,
    OPENWOP_API_KEY: apiKey,
    OPENWOP_REQUIRE_BEHAVIOR: 'true',
    OPENWOP_POLL_TIMEOUT_S: String(pollTimeoutS),
    OPENWOP_RUN_TIMEOUT_MS: '8000',
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
    forgetDiscoveries();
    const target: LegTarget = { client, discovery: await fetchDiscovery(client, baseUrl), config };
    return await Promise.all(LEGS.map((leg) => runLeg(leg, target)));
  } finally {
    await client.close();
  }
}
