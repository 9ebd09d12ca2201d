// What the oracle host serves, apart from HTTP: a run's event log (drafted in the host's own
// order, then appended over time as closed RunEventDoc envelopes) and the summary. Both start
// from the property tests' oracle: the grading is the oracle's, the presentation the host's.

import { randomUUID } from 'node:crypto';
import type { EvalSummary, EvalTask, Fixture, Json } from '../../lib/types.ts';
import { observe } from '../property/oracle.ts';
import type { Graded } from '../property/oracle.ts';
import {
  AGENT_NODE,
  ENGINE_VERSION,
  EVENT_SCHEMA_VERSION,
  baselineOf,
  costsOf,
  hatchKeys,
} from './oracle-host-modes.ts';
import type { JsonObject, OracleMode } from './oracle-host-modes.ts';

export type { JsonObject } from './oracle-host-modes.ts';

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
  readonly eventId: string;
}

export class Run {
  readonly events: Envelope[] = [];
  status: 'pending' | 'running' | 'completed' = 'pending';
  timer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  constructor(
    readonly runId: string,
    readonly evalSuiteRef: string,
    readonly summary: JsonObject,
    readonly rand: () => number,
    private readonly modes: ReadonlySet<OracleMode>,
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

  /**
   * Sequences from 0 in steps of 7 (strictly increasing with gaps, which events.md allows), a
   * UUID event id, and the optional envelope members only when the mode asks for them.
   */
  private append(draft: DraftEvent): void {
    const previous = this.events.at(-1);
    const sequence = previous === undefined ? 0 : previous.sequence + 7;
    const optional = this.modes.has('optional-members');
    const onNode = draft.type.startsWith('agent.') || draft.type === 'eval.scored';
    this.events.push({
      sequence,
      type: draft.type,
      eventId: randomUUID(),
      timestamp: new Date().toISOString(),
      runId: this.runId,
      schemaVersion: EVENT_SCHEMA_VERSION,
      payload: draft.payload,
      ...(optional && onNode ? { nodeId: AGENT_NODE } : {}),
      ...(optional ? { engineVersion: ENGINE_VERSION } : {}),
      ...(optional && previous !== undefined ? { causationId: previous.eventId } : {}),
    });
  }
}

/** The first recorded answer for `tool`; undefined on a miss. */
function recorded(
  task: EvalTask | undefined,
  tool: string,
): { readonly response: Json } | undefined {
  const entry = task?.fixtures?.toolResponses?.find((a) => a.tool === tool);
  return entry === undefined ? undefined : { response: entry.response ?? null };
}

export interface LogContext {
  readonly fixture: Fixture;
  readonly graded: Graded;
  readonly summary: EvalSummary;
  readonly modes: ReadonlySet<OracleMode>;
  readonly tenant: string;
}

/**
 * The log in this host's own order: each trial's agent.* events (v2 names, in the order the
 * agentInvocationStarted description gives) before its eval.scored, every trial 1 before any
 * trial 2, and a vendor metering event before eval.completed.
 */
export function draftLog({ fixture, graded, summary, modes, tenant }: LogContext): DraftEvent[] {
  const optional = modes.has('optional-members');
  const extra = (type: string, payload: JsonObject): DraftEvent => ({
    type,
    payload: { ...payload, ...hatchKeys(modes, type) },
  });
  const oracleLog = observe(fixture, graded, summary).events.map((e) => ({
    type: String(e.type),
    payload: e.payload as JsonObject,
  }));
  const trialsPerTask = fixture.suite.trials?.count ?? 1;
  const scored = oracleLog
    .filter((e) => e.type === 'eval.scored')
    .map((e) => ({ ...e, trial: typeof e.payload.trial === 'number' ? e.payload.trial : 1 }))
    .sort((a, b) => a.trial - b.trial);
  const out: DraftEvent[] = [];
  for (const e of oracleLog.filter((x) => x.type === 'eval.started')) {
    out.push(
      extra(e.type, { ...e.payload, ...(optional ? { baselineRunId: baselineOf(tenant) } : {}) }),
    );
  }
  for (const e of scored) {
    const taskId = String(e.payload.taskId);
    const taskIndex = fixture.suite.tasks.findIndex((t) => t.taskId === taskId);
    const suiteTask = fixture.suite.tasks[taskIndex];
    const task = graded.tasks.find((t) => t.taskId === taskId);
    const trial = task?.trials[e.trial - 1];
    const entries = fixture.script[taskId] ?? [];
    const entry = entries.length === 1 ? entries[0] : entries[e.trial - 1];
    const calls = entry?.calls ?? [];
    const agentId = fixture.agentId;
    const invocationId = `inv-${taskId}-${e.trial}`;
    out.push(
      extra('agent.invocation-started', {
        invocationId,
        agentId,
        source: 'run-api',
        ...(optional
          ? {
              modelClass: 'reasoning',
              resolvedModel: 'acme-scripted-1',
              toolSurfaceCount: calls.length,
            }
          : {}),
      }),
    );
    calls.forEach((call, i) => {
      const callId = `${invocationId}-call-${i + 1}`;
      const answer = recorded(suiteTask, call.tool);
      out.push(
        extra('agent.tool-called', {
          agentId,
          toolName: call.tool,
          callId,
          ...(optional ? { inputs: call.args ?? {}, transport: 'native' } : {}),
        }),
      );
      const returned: JsonObject =
        answer === undefined
          ? { status: 'error', error: { code: 'not_found', message: 'no recorded response' } }
          : { status: 'ok', outcome: answer.response };
      out.push(
        extra('agent.tool-returned', {
          agentId,
          toolName: call.tool,
          callId,
          ...(optional ? { ...returned, durationMs: 2 } : {}),
        }),
      );
    });
    out.push(
      extra('agent.decided', {
        agentId,
        decision: entry?.output ?? null,
        ...(optional ? { confidence: 1 } : {}),
      }),
    );
    out.push(
      extra('agent.invocation-completed', {
        invocationId,
        agentId,
        outcome: 'completed',
        ...(optional ? { schemaValidated: true, confidence: 1 } : {}),
      }),
    );
    const costs = costsOf(Math.max(taskIndex, 0), 1);
    // The host's own figures first, so the ones a script states (in e.payload) win.
    out.push(
      extra(e.type, {
        ...(optional
          ? { ...costs, schemaValid: true, safetyFindingCount: trialsPerTask > 0 ? 1 : 0 }
          : {}),
        ...e.payload,
        ...(task?.hasTrajectory === true ? { trajectoryMatched: trial?.matched === true } : {}),
        failedClosed: trial?.failedClosed === true,
      }),
    );
  }
  // A vendor event type: a consumer MUST NOT throw on a type it does not know (events.md).
  out.push({ type: 'acme.usage.metered', payload: { units: scored.length } });
  for (const e of oracleLog.filter((x) => x.type === 'eval.completed')) {
    out.push(extra(e.type, { ...e.payload, ...(optional ? { regressionVsBaseline: 0 } : {}) }));
  }
  out.push(
    extra('run.completed', {
      outputs: optional ? { passed: summary.passed, taskCount: summary.taskCount } : {},
      ...(optional ? { durationMs: 5 * out.length } : {}),
    }),
  );
  return out;
}
