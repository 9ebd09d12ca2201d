// The types a leg is handed: the target it drives and the runs created for it ahead of time. They
// live apart from the code that fills them (target.ts, head-start.ts) and the code that reads them
// (run-leg.ts), so that neither of those modules has to import the other.

import type { SuiteConfig } from '../env.ts';
import type { DiscoveryResult } from '../observe/discovery.ts';
import type { TransportErrorCode } from '../observe/errors.ts';
import type { HostClient, HostResponse } from '../observe/host-client.ts';

/** What a host leg needs: a client, the discovery fetched once, and the settings that gate. */
export interface LegTarget {
  readonly client: HostClient;
  readonly discovery: DiscoveryResult;
  readonly config: Pick<SuiteConfig, 'requireBehavior' | 'optedOut' | 'bounds'>;
  /** Runs created before the legs started (lib/decide/head-start.ts), by leg id. */
  readonly headStarts?: ReadonlyMap<string, HeadStart>;
}

/** The answer to one early POST /runs, as plain data so vitest can hand it to the worker. */
export type RecordedAnswer =
  | { readonly kind: 'response'; readonly response: HostResponse }
  | {
      readonly kind: 'transport-error';
      readonly code: TransportErrorCode;
      readonly method: string;
      readonly path: string;
      readonly detail: string;
    };

export interface HeadStart {
  readonly legId: string;
  /** Epoch milliseconds when the leg's work began here; its duration counts from this. */
  readonly startedAt: number;
  /** The JSON body sent; only a POST /runs with this very body is answered from the record. */
  readonly body: string;
  readonly answer: RecordedAnswer;
}
