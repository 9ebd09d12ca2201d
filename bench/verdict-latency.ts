// Measurement 1: verdict latency, from the host's last append to the result in hand, for the
// suite's driver (long-poll) and for the 250 ms fixed-interval poller, side by side. Each round
// draws one run length and drives it both ways, in alternating order, against the same host.

import type { Bounds } from '../lib/env.ts';
import { DEFAULT_BOUNDS } from '../lib/env.ts';
import { driveEvalRun } from '../lib/observe/driver.ts';
import { createHostClient } from '../lib/observe/host-client.ts';
import { naivePoll, NAIVE_INTERVAL_MS } from './naive-poller.ts';
import type { Section } from './report.ts';
import { fmt, fmtSummary, pairedRatios, seededRandom, summarize } from './stats.ts';
import { startTimedHost } from './timed-host.ts';

const REQUEST = { evalSuiteRef: 'bench.evals.timed@1.0.0', agentId: 'bench.agent' };
const TARGET_RATIO = 10;

export interface LatencySamples {
  readonly longPoll: readonly number[];
  readonly naive: readonly number[];
}

/**
 * Run lengths are drawn uniformly from [100, 100 + interval) ms so that the naive poller's phase
 * against the finish is uniform too, as it is for a real run of unknown length.
 */
export async function sampleVerdictLatency(rounds: number): Promise<LatencySamples> {
  const random = seededRandom(246);
  let nextRunMs = 100;
  const host = await startTimedHost({ honourTimeout: true, runMs: () => nextRunMs });
  const bounds: Bounds = { ...DEFAULT_BOUNDS, runTimeoutMs: 30_000 };
  const client = createHostClient({
    baseUrl: host.url,
    requestTimeoutMs: bounds.requestTimeoutMs,
    maxBodyBytes: bounds.maxBodyBytes,
  });
  const longPoll: number[] = [];
  const naive: number[] = [];
  const latency = (runId: string, doneAt: number): number => {
    const finished = host.finishedAt(runId);
    if (finished === undefined) throw new Error(`run ${runId} returned before it finished`);
    return doneAt - finished;
  };
  const viaDriver = async (): Promise<void> => {
    const result = await driveEvalRun(client, REQUEST, bounds);
    const doneAt = performance.now();
    if (result.kind !== 'observed') throw new Error(`driver: ${result.kind} ${result.reason}`);
    longPoll.push(latency(result.observation.runId, doneAt));
  };
  const viaNaive = async (): Promise<void> => {
    const result = await naivePoll(client, REQUEST);
    naive.push(latency(result.runId, performance.now()));
  };
  try {
    await viaDriver(); // warm-up: connections, JIT; not recorded
    longPoll.length = 0;
    for (let round = 0; round < rounds; round += 1) {
      nextRunMs = 100 + random() * NAIVE_INTERVAL_MS;
      const order = round % 2 === 0 ? [viaDriver, viaNaive] : [viaNaive, viaDriver];
      for (const drive of order) await drive();
    }
  } finally {
    await client.close();
    await host.close();
  }
  return { longPoll, naive };
}

export async function measureVerdictLatency(rounds: number): Promise<Section> {
  const { longPoll, naive } = await sampleVerdictLatency(rounds);
  const fast = summarize(longPoll);
  const slow = summarize(naive);
  const ratio = slow.median / Math.max(fast.median, Number.EPSILON);
  const paired = summarize(pairedRatios(naive, longPoll));
  const met = ratio >= TARGET_RATIO;
  return {
    title: '1. Verdict latency: long-poll driver vs. 250 ms fixed-interval poller',
    method:
      `A bench-local loopback host (bench/timed-host.ts) finishes each run at a drawn instant and ` +
      `records when it appended the last event; latency is from that instant to the driver's ` +
      `(or poller's) result, summary in hand. ${rounds} rounds; each round drives one run with ` +
      `lib/observe/driver.ts (long-poll, timeout ${DEFAULT_BOUNDS.pollTimeoutS} s) and one with the ` +
      `naive poller (bench/naive-poller.ts), alternating which goes first.`,
    headers: ['series', 'min / median / max'],
    rows: [
      ['long-poll driver (ms)', fmtSummary(fast)],
      [`${NAIVE_INTERVAL_MS} ms poller (ms)`, fmtSummary(slow)],
      ['paired ratio poller / driver (×)', fmtSummary(paired)],
    ],
    judged: {
      ratio: `median poller / median driver = ${fmt(ratio)}×`,
      target: `≥ ${TARGET_RATIO}×`,
      met,
      verdict: met
        ? `${fmt(ratio / TARGET_RATIO)} times the target ratio: the driver's last ` +
          `poll is held by the host and answered at the append, then the summary, the status and ` +
          `the three cursor replays follow at once (loopback round trips, no sleep on that path).`
        : `${fmt(ratio)}× is ${fmt(TARGET_RATIO - ratio)}× short of ${TARGET_RATIO}×; ` +
          `the driver's median latency was ${fmt(fast.median)} ms.`,
    },
  };
}
