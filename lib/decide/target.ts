// Builds the one target every leg of a process shares: a client, the discovery fetched once, and
// the runs created for the legs before they started, if the process that started them took any.
// A process that already read discovery hands it on, so every leg and the report see one document.

import type { DiscoveryResult } from '../observe/discovery.ts';
import type { SuiteConfig } from '../env.ts';
import type { HeadStart, LegTarget } from './leg-target.ts';
import { createHostClient } from '../observe/host-client.ts';
import { fetchDiscovery } from '../observe/discovery.ts';

export interface Prepared {
  readonly headStarts?: readonly HeadStart[];
  /** Discovery as another process of the same run read it. */
  readonly discovery?: DiscoveryResult;
}

/** Undefined when the suite was given no base URL: host legs then end `blocked`. */
export async function openTarget(
  config: SuiteConfig,
  prepared: Prepared = {},
): Promise<LegTarget | undefined> {
  if (config.baseUrl === undefined) return undefined;
  const client = createHostClient({
    baseUrl: config.baseUrl,
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  const discovery = prepared.discovery ?? (await fetchDiscovery(client, config.baseUrl));
  const headStarts = prepared.headStarts ?? [];
  return {
    client,
    discovery,
    config,
    ...(headStarts.length === 0
      ? {}
      : { headStarts: new Map(headStarts.map((h) => [h.legId, h])) }),
  };
}
