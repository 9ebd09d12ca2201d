// What the CLI tests rest on when they verify a report of a host that is down, or of one they
// started earlier in the file (tests/support/kept-addresses.ts): the address stays the file's. No
// other server can take its port, so a live read there finds this file's host or nothing, never
// another file's discovery.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS } from '../../lib/env.ts';
import { advertisedImplementation, readDiscovery } from '../../lib/observe/discovery.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { LEAKY_KEY } from './support.ts';

const kept = keepAddresses();

/** The discovery at `url`, read as verify reads a live source: no key, bounded. */
async function discoveryAt(url: string): Promise<Awaited<ReturnType<typeof readDiscovery>>> {
  const client = createHostClient({
    baseUrl: url,
    requestTimeoutMs: DEFAULT_BOUNDS.requestTimeoutMs,
    maxBodyBytes: DEFAULT_BOUNDS.maxBodyBytes,
  });
  try {
    return await readDiscovery(client);
  } finally {
    await client.close();
  }
}

/** The error another server meets listening on `url`'s port, or `listened` when it could. */
async function anotherListener(url: string): Promise<string> {
  const other = createServer();
  return new Promise((resolve) => {
    other.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    other.listen(Number(new URL(url).port), '127.0.0.1', () => {
      other.close(() => resolve('listened'));
    });
  });
}

describe('an address a test file keeps', () => {
  it('serves its host until the host goes down, then answers nothing, and no other server can take it', async () => {
    const host = await kept.goingDown({ apiKey: LEAKY_KEY });
    const up = await discoveryAt(host.url);
    expect(up.ok && advertisedImplementation(up.document)?.name).toBe('openwop-reference-host');
    await host.down();
    expect(await discoveryAt(host.url)).toMatchObject({ ok: false });
    expect(await anotherListener(host.url)).toBe('EADDRINUSE');
  });

  it('a dropping address answers nothing, and no other server can take it', async () => {
    const url = await kept.dropping();
    expect(await discoveryAt(url)).toMatchObject({ ok: false });
    expect(await anotherListener(url)).toBe('EADDRINUSE');
  });

  it('a kept host is up for every test of the file', async () => {
    const host = await kept.host({ apiKey: LEAKY_KEY });
    expect((await discoveryAt(host.url)).ok).toBe(true);
    expect(await anotherListener(host.url)).toBe('EADDRINUSE');
  });
});
