// What the oracle host serves, apart from HTTP: a run's event log (drafted in the host's own
// shape, then appended over time and sequenced) and the summary with its vendor members. Both
// start from the property tests' oracle: the grading is the oracle's, the presentation the host's.

import { randomUUID } from 'node:crypto';
import type { EvalSummary, Fixture, Json } from '../../lib/types.ts';
import { observe } from '../property/oracle.ts';
import type { Graded } from '../property/oracle.ts';

export type JsonObject = { readonly [k: string]: Json };

/** One event before the host gives it a sequence, an id, a time and its envelope members. */
export interface DraftEvent {
  readonly type: string;
  readonly payload: JsonObject;
}

/** mulberry32: small, seedable, good enough to vary page sizes and timing. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Envelope extends JsonObject {
  readonly sequence: number;
}

export class Run {
  readonly events: Envelope[] = [];
  status: 'queued' | 'running' | 'completed' = 'queued';
  timer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  constructor(
    readonly runId: string,
    readonly evalSuiteRef: string,
    readonly summary: JsonObject,
    readonly rand: () => number,
  ) {}
  get done(): boolean {
    return this.status === 'completed';
  }
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
  /** Resolves on the next append or the end of the run, or after `ms`. */
  waitFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  /** Appends the log a burst of one to three events at a time, `gapMs` apart on average. */
  start(pending: DraftEvent[], gapMs: number, closed: () => boolean): void {
    const tick = (): void => {
      if (closed()) return;
      this.status = 'running';
      const burst = 1 + Math.floor(this.rand() * 3);
      for (const draft of pending.splice(0, burst)) this.append(draft);
      if (pending.length === 0) {
        this.status = 'completed';
        this.timer = undefined;
      } else {
        this.timer = setTimeout(tick, gapMs * (0.5 + this.rand()));
      }
      this.wake();
    };
    this.timer = setTimeout(tick, gapMs);
  }

  /** Sequences from 1000 in steps of 7, with a UUID event id and vendor envelope members. */
  private append(draft: DraftEvent): void {
    const previous = this.events.at(-1);
    const sequence = previous === undefined ? 1000 : previous.sequence + 7;
    const agent = draft.type.startsWith('agent.');
    this.events.push({
      'x-acme-shard': sequence % 5,
      sequence,
      type: draft.type,
      eventId: randomUUID(),
      timestamp: new Date().toISOString(),
      runId: this.runId,
      payload: draft.payload,
      ...(agent ? { nodeId: 'acme-agent-node' } : {}),
      ...(agent && previous !== undefined ? { causationId: String(previous.eventId) } : {}),
      'vendor.acme.ingest': { lagMs: Math.round(this.rand() * 3) },
    });
  }
}

/**
 * The log in this host's own shape: run.* and a metering event around the eval.* events, each
 * trial's agent.* events before its eval.scored, and every trial 1 before any trial 2.
 */
export function draftLog(fixture: Fixture, graded: Graded, summary: EvalSummary): DraftEvent[] {
  const oracleLog = observe(fixture, graded, summary).events.map((e) => ({
    type: String(e.type),
    payload: e.payload as JsonObject,
  }));
  const started = oracleLog.filter((e) => e.type === 'eval.started');
  const completed = oracleLog.filter((e) => e.type === 'eval.completed');
  const scored = oracleLog
    .filter((e) => e.type === 'eval.scored')
    .map((e) => ({ ...e, trial: typeof e.payload.trial === 'number' ? e.payload.trial : 1 }))
    .sort((a, b) => a.trial - b.trial);
  const out: DraftEvent[] = [{ type: 'run.started', payload: { mode: 'eval' } }];
  for (const e of started) {
    out.push({ type: e.type, payload: { ...e.payload, 'x-acme-queue': 'standard' } });
  }
  for (const e of scored) {
    const taskId = String(e.payload.taskId);
    const task = graded.tasks.find((t) => t.taskId === taskId);
    const trial = task?.trials[e.trial - 1];
    const entries = fixture.script[taskId] ?? [];
    const calls = (entries.length === 1 ? entries[0] : entries[e.trial - 1])?.calls ?? [];
    out.push({
      type: 'agent.invocation-started',
      payload: { taskId, attempt: e.trial, agentId: fixture.agentId },
    });
    calls.forEach((call, i) => {
      out.push({ type: 'agent.tool-called', payload: { tool: call.tool, step: i + 1 } });
      out.push({ type: 'agent.tool-returned', payload: { tool: call.tool, step: i + 1 } });
    });
    out.push({ type: 'agent.decided', payload: { kind: 'final-answer' } });
    out.push({ type: 'agent.invocation-completed', payload: { taskId, steps: calls.length } });
    out.push({
      type: e.type,
      payload: {
        ...e.payload,
        ...(task?.hasTrajectory === true ? { trajectoryMatched: trial?.matched === true } : {}),
        failedClosed: trial?.failedClosed === true,
        'x-acme-wall-ms': 3 + calls.length,
        'vendor.acme.judge': { engine: 'exact-v3' },
      },
    });
  }
  out.push({ type: 'acme.usage.metered', payload: { units: scored.length } });
  for (const e of completed) {
    out.push({ type: e.type, payload: { ...e.payload, 'x-acme-billing-units': scored.length } });
  }
  out.push({ type: 'run.completed', payload: { status: 'completed' } });
  return out;
}

/** The summary as served: vendor members on the root, each task, its trials and their stats. */
export function decorate(summary: EvalSummary): JsonObject {
  const tasks = summary.tasks.map((task, i) => ({
    'x-acme-slot': i,
    ...task,
    ...(task.trials === undefined
      ? {}
      : {
          trials: {
            ...task.trials,
            'x-acme-parallelism': 2,
            ...(task.trials.trialStats === undefined
              ? {}
              : { trialStats: { ...task.trials.trialStats, 'vendor.acme.p50Ms': 4 } }),
          },
        }),
  }));
  return {
    'vendor.acme.generator': { name: 'acme-grader', version: '3' },
    ...summary,
    tasks,
    'x-acme-graded-by': 'oracle',
  } as unknown as JsonObject;
}
