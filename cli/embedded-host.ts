// The embedded default target: the reference host, in this process, with a throwaway key.
// Results against it say nothing about any other host, and the CLI says so.

import { randomBytes } from 'node:crypto';
import { startReferenceHost } from '../reference-host/index.ts';

export interface EmbeddedHost {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export async function startEmbeddedHost(): Promise<EmbeddedHost> {
  const apiKey = randomBytes(24).toString('base64url');
  const host = await startReferenceHost({ apiKey });
  return { url: host.url, apiKey, close: () => host.close() };
}
