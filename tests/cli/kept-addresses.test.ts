// What the CLI tests rest on when they verify a report of a host that is down, or of one they
// started earlier in the file (tests/support/kept-addresses.ts): the address stays the file's. No
// other server can take its port, so a live read there finds this file's host or nothing, never
// another file's discovery.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TrustSources } from '../../cli/trust-source.ts';
import { advertisedImplementation } from '../../lib/observe/discovery.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { LEAKY_KEY } from './support.ts';

const kept = keepAddresses();

/**
 * The discovery verify reads at `url` for a report of that host (cli/trust-source.ts): the
 * implementation it advertises, or `no answer`. Sources read each host once, so a fresh one a read.
 */
async function discoveryAt(url: string): Promise<string> {
  const report = { target: { baseUrl: url, embedded: false } } as EvalGateReport;
  const source = await new TrustSources({}).for(report);
  if (source.kind !== 'live') throw new Error(`not a live source: ${source.kind}`);
  if (!source.read.ok) return 'no answer';
  return advertisedImplementation(source.read.document)?.name ?? 'no implementation';
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
    expect(await discoveryAt(host.url)).toBe('openwop-reference-host');
    await host.down();
    expect(await discoveryAt(host.url)).toBe('no answer');
    expect(await anotherListener(host.url)).toBe('EADDRINUSE');
  });

  it('a dropping address answers nothing, and no other server can take it', async () => {
    const url = await kept.dropping();
    expect(await discoveryAt(url)).toBe('no answer');
    expect(await anotherListener(url)).toBe('EADDRINUSE');
  });

  it('a kept host is up for every test of the file', async () => {
    const host = await kept.host({ apiKey: LEAKY_KEY });
    expect(await discoveryAt(host.url)).toBe('openwop-reference-host');
    expect(await anotherListener(host.url)).toBe('EADDRINUSE');
  });
});
