// The body limit bounds memory, not just time: a host streaming without end must not make the
// suite buffer what it sends. Alone in its file so no concurrent test moves the heap it measures.

import { beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../support/scripted-server.ts';
import {
  eventIdOf,
  expectOutcome,
  HOSTILE_BOUNDS,
  HOSTILE_RUN_ID,
  runMeanLeg,
  startHostileHost,
  streamBody,
  warmUp,
} from '../support/hostile-host.ts';

beforeAll(warmUp);

const MIB = 1024 * 1024;

/** Heap and buffers together: the host client reads the body as Buffers, which live outside the heap. */
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

  it('a log that pages new events without end is cut at sixteen body limits summed over its pages', async () => {
    // Each page fits the limit and moves the cursor on; only a budget for the whole log can stop
    // the suite keeping every event until the run deadline.
    const bounds = { ...HOSTILE_BOUNDS, runTimeoutMs: 20_000 };
    const host = await startHostileHost({
      routes: {
        poll: ({ response, afterSequence }) => {
          const from = (afterSequence ?? -1) + 1;
          const events = Array.from({ length: 200 }, (_, i) => ({
            eventId: eventIdOf(from + i),
            runId: HOSTILE_RUN_ID,
            type: 'eval.scored',
            payload: { taskId: 'forbidden-in-every-trial', score: 1, passed: false, trial: 1 },
            timestamp: '2026-10-16T12:00:00.000Z',
            sequence: from + i,
            schemaVersion: 1,
          }));
          const page = {
            runId: HOSTILE_RUN_ID,
            events,
            lastSequence: from + 199,
            isTerminal: false,
          };
          sendJson(response, 200, { ...page, status: 'running' });
        },
      },
    });
    const baseline = footprint();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, footprint());
    }, 2);
    try {
      const run = await runMeanLeg(host.url, { bounds });
      expect(run.outcome.disposition, run.outcome.reason).toBe('blocked');
      expect(run.outcome.reason).toMatch(
        /\(events\): the event log exceeds the 1048576-byte limit/,
      );
      // Stopped by the budget long before the deadline could have.
      expect(run.legMs).toBeLessThan(5_000);
    } finally {
      clearInterval(sampler);
      await host.close();
    }
    expect(peak - baseline).toBeLessThan(48 * MIB);
  });
});
