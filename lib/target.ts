// Builds the one target every leg of a process shares: a client, the discovery fetched once, and
// the runs created for the legs before they started, if the process that started them took any.

import type { SuiteConfig } from './env.ts';
import type { HeadStart } from './head-start.ts';
import type { LegTarget } from './run-leg.ts';
import { createHostClient } from './host-client.ts';
import { fetchDiscovery } from './discovery.ts';

/** Undefined when the suite was given no base URL: host legs then end `blocked`. */
export async function openTarget(
  config: SuiteConfig,
  headStarts: readonly HeadStart[] = [],
): Promise<LegTarget | undefined> {
  if (config.baseUrl === undefined) return undefined;
  const client = createHostClient({
    baseUrl: config.baseUrl,
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  const discovery = await fetchDiscovery(client, config.baseUrl);
  return {
    client,
    discovery,
    config,
    ...(headStarts.length === 0
      ? {}
      : { headStarts: new Map(headStarts.map((h) => [h.legId, h])) }),
  };
}
