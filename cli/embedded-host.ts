// The embedded default target: the reference host, in this process. It demands the configured
// key when there is one, so a key can be tried end to end before any real host is at hand, and a
// throwaway key otherwise. Results against it say nothing about any other host, and the CLI says so.

import { randomBytes } from 'node:crypto';
import { startReferenceHost } from '../reference-host/index.ts';

export interface EmbeddedHost {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export async function startEmbeddedHost(configuredKey?: string): Promise<EmbeddedHost> {
  const apiKey = configuredKey ?? randomBytes(24).toString('base64url');
  const host = await startReferenceHost({ apiKey });
  return { url: host.url, apiKey, close: () => host.close() };
}
