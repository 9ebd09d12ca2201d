// Builds the one target every leg of a run shares: a client and the discovery fetched once, so
// every leg, the host checks and the report see one document.

import type { SuiteConfig } from '../env.ts';
import type { LegTarget } from './leg-target.ts';
import { createHostClient } from '../observe/host-client.ts';
import { readDiscovery, type DiscoveryResult } from '../observe/discovery.ts';

/**
 * Undefined when the suite was given no base URL: host legs then end `blocked`. `discovery` is the
 * read the caller already made of this host (the CLI's pre-flight); without one it is read here.
 */
export async function openTarget(
  config: SuiteConfig,
  discovery?: DiscoveryResult,
): Promise<LegTarget | undefined> {
  if (config.baseUrl === undefined) return undefined;
  const client = createHostClient({
    baseUrl: config.baseUrl,
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  return { client, discovery: discovery ?? (await readDiscovery(client)), config };
}
