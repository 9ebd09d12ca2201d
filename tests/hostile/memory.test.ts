// The body limit bounds memory, not just time: a host streaming without end must not make the
// suite buffer what it sends. Alone in its file so no concurrent test moves the heap it measures.

import { describe, expect, it } from 'vitest';
import {
  expectOutcome,
  HOSTILE_BOUNDS,
  runMeanLeg,
  startHostileHost,
  streamBody,
} from '../support/hostile-host.ts';

const MIB = 1024 * 1024;

/** Heap and buffers together: undici hands the body over as Buffers, which live outside the heap. */
const footprint = (): number => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

describe('a body that never ends holds memory near the body limit', () => {
  it('five endless summaries grow the footprint by far less than the host sent', async () => {
    // The request deadline is long here, so only the body limit can end each read.
    const bounds = { ...HOSTILE_BOUNDS, requestTimeoutMs: 10_000, runTimeoutMs: 20_000 };
    const chunk = Buffer.alloc(64 * 1024, 32);
    const sentBy: (() => number)[] = [];
    const host = await startHostileHost({
      routes: {
        summary: ({ response }) => {
          sentBy.push(streamBody(response, chunk, 0));
        },
      },
    });
    const baseline = footprint();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, footprint());
    }, 2);
    try {
      for (let i = 0; i < 5; i += 1) {
        const run = await runMeanLeg(host.url, { bounds });
        expectOutcome(run, 'blocked', /\(summary\)/, /exceeds the 65536-byte limit/);
      }
    } finally {
      clearInterval(sampler);
      await host.close();
    }
    peak = Math.max(peak, footprint());
    expect(sentBy).toHaveLength(5);
    // Each read stops at the limit; what the host got out is what the socket buffers absorbed.
    for (const sent of sentBy) expect(sent()).toBeLessThan(32 * MIB);
    // Generous: a client that buffered the stream would grow by the megabytes it was sent.
    expect(peak - baseline).toBeLessThan(48 * MIB);
  });
});
