// The type a leg is handed: the target it drives. It lives apart from the code that fills it
// (target.ts) and the code that reads it (run-leg.ts, generated-pack.ts).

import type { SuiteConfig } from '../env.ts';
import type { DiscoveryResult } from '../observe/discovery.ts';
import type { HostClient } from '../observe/host-client.ts';

/** What a host leg needs: a client, the discovery fetched once, and the settings that gate. */
export interface LegTarget {
  readonly client: HostClient;
  readonly discovery: DiscoveryResult;
  readonly config: Pick<SuiteConfig, 'requireBehavior' | 'optedOut' | 'bounds'>;
}
