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

/** `packDir`: a pack `fixtures --out` wrote, seeded after the shipped fixtures and listed too. */
export async function startEmbeddedHost(
  configuredKey?: string,
  packDir?: string,
): Promise<EmbeddedHost> {
  const apiKey = configuredKey ?? randomBytes(24).toString('base64url');
  const host = await startReferenceHost({
    apiKey,
    ...(packDir === undefined ? {} : { extraFixturesDirs: [packDir] }),
  });
  return { url: host.url, apiKey, close: () => host.close() };
}
