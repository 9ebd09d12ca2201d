// One eval run: the scripted agent plays each trial, the host grades it, and every step is
// appended to the run's event log in contract §7 order. Held long-poll requests wait here.

import type { HasDefect } from './defects.ts';
import type { HostTask, JsonValue, SeededFixture } from './fixtures.ts';
import {
  gradeSuite,
  gradeTask,
  gradeTrial,
  type TaskVerdict,
  type TrialRun,
  type TrialVerdict,
} from './grading.ts';
import { mintEventId } from './wire.ts';
import {
  completedPayload,
  evalSummary,
  runCompletedPayload,
  traced,
  scoredPayload,
  scoredTaskPayload,
  startedPayload,
  type ReportStyle,
} from './report.ts';

/** A closed RunEventDoc (openwop/openwop schemas/v2/run-event.schema.json): no vendor hatch. */
export interface HostEvent {
  readonly eventId: string;
  readonly runId: string;
  readonly type: string;
  readonly payload: { readonly [k: string]: JsonValue };
  readonly timestamp: string;
  readonly sequence: number;
  readonly schemaVersion?: number;
  readonly nodeId?: string;
  readonly engineVersion?: number;
  readonly causationId?: string;
}

export interface RunSettings {
  readonly has: HasDefect;
  readonly varied: boolean;
  readonly trialDelayMs: number;
  readonly runDelayMs: number;
  /** The least pause before every trial and before the end: the `slow` pacing's step. */
  readonly stepDelayMs: number;
  /** Aborted when the host closes: the run stops and every held request is released. */
  readonly signal: AbortSignal;
  /** Awaited before a run ends, after its delay: a test ends runs on an event, not a clock. */
  readonly runGate?: () => Promise<void>;
}

type Payload = { readonly [k: string]: JsonValue };

/** The version of the envelope's payload shapes this log is written in. */
const EVENT_SCHEMA_VERSION = 1;
const ENGINE_VERSION = 1;
/** An eval run has no workflow; the varied variant names the node that grades as `eval`. */
const EVAL_NODE_ID = 'eval';

/** `gate`, or the host closing, whichever comes first. */
function gated(gate: () => Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    gate().then(done, done);
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class EvalRun {
  status: 'running' | 'completed' | 'failed' = 'running';
  /** Set once nothing more will be appended. */
  terminal = false;
  summary: Payload | undefined;
  /** Set by the first summary read, which a finalising host answers 409 (see server.ts). */
  summaryPublished = false;
  /** Set when `run-never-ends` stops the run after its last event: nothing more is appended. */
  stalled = false;
  readonly events: HostEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private nextSequence: number;
  private readonly style: ReportStyle;

  constructor(
    readonly runId: string,
    readonly evalSuiteRef: string,
    private readonly fixture: SeededFixture,
    private readonly settings: RunSettings,
  ) {
    // Sequences start at 0 (contract §6); the varied variant leaves gaps after that, so a client
    // must follow `sequence`, not count events.
    this.nextSequence = 0;
    this.style = settings.varied ? { has: settings.has, trace: runId } : { has: settings.has };
  }

  get agentId(): string {
    return this.fixture.agentId;
  }

  eventsAfter(afterSequence: number | undefined): HostEvent[] {
    return afterSequence === undefined
      ? [...this.events]
      : this.events.filter((e) => e.sequence > afterSequence);
  }

  /** The `cursor-inclusive` defect's reading of the cursor: the event at it is answered again. */
  eventsFrom(sequence: number): HostEvent[] {
    return this.events.filter((e) => e.sequence >= sequence);
  }

  /** Resolves on the next append or end, on host close, or after `ms`, whichever is first. */
  waitForChange(ms: number): Promise<void> {
    const signal = this.settings.signal;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  start(): void {
    // POST /runs answers 201 before the first event is appended.
    setImmediate(() => {
      this.execute().catch((err: unknown) => {
        process.stderr.write(`reference host: run ${this.runId} failed: ${String(err)}\n`);
        this.status = 'failed';
        this.append('run.failed', { error: { code: 'internal_error', message: 'the run failed' } });
        this.terminal = true;
        this.wake();
      });
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Appends one event; returns its eventId, which a later event may name as its cause. */
  private append(type: string, payload: Payload, causationId?: string): string {
    const { has, varied } = this.settings;
    const sequence = this.nextSequence;
    this.nextSequence += varied ? 1 + (this.events.length % 3) : 1;
    const eventId = mintEventId(this.runId, sequence, has);
    this.events.push({
      eventId,
      runId: this.runId,
      type,
      payload,
      timestamp: new Date().toISOString(),
      sequence,
      ...(has('events-unversioned') ? {} : { schemaVersion: EVENT_SCHEMA_VERSION }),
      // The envelope's optional members, which a client must accept.
      ...(varied ? { nodeId: EVAL_NODE_ID, engineVersion: ENGINE_VERSION } : {}),
      ...(varied && causationId !== undefined ? { causationId } : {}),
    });
    this.wake();
    return eventId;
  }

  /**
   * The scripted agent: makes the entry's calls from canned answers, then returns its output. Its
   * events carry the published v2 payloads (contract §7) in the published order, and no task content.
   */
  private playTrial(task: HostTask, trial: number): TrialRun {
    const began = Date.now();
    const entries = this.fixture.script[task.taskId] ?? [];
    const entry = (entries.length === 1 ? entries[0] : entries[trial - 1]) ?? {
      calls: [],
      output: null,
    };
    const agentId = this.fixture.agentId;
    const invocationId = `${task.taskId}.trial-${trial}`;
    const mark = (p: Payload): Payload => traced(p, this.style);
    this.append('agent.invocation-started', mark({ invocationId, agentId, source: 'run-api' }));
    let failedClosed = false;
    for (const [i, call] of entry.calls.entries()) {
      const at = { agentId, toolName: call.tool, callId: `${invocationId}.call-${i + 1}` };
      const cause = this.append('agent.tool-called', mark(at));
      // RFC 0244 §D: a tool with no canned answer fails the trial closed.
      if (this.misses(task, call.tool) && !this.settings.has('miss-not-failed-closed')) {
        failedClosed = true;
        const error = { code: 'fixture_miss', message: `no recorded response for ${call.tool}` };
        this.append('agent.tool-returned', mark({ ...at, status: 'error', error }), cause);
        break;
      }
      this.append('agent.tool-returned', mark({ ...at, status: 'ok' }), cause);
    }
    this.append(
      'agent.decided',
      mark({ agentId, decision: failedClosed ? 'failed-closed' : 'answered' }),
    );
    this.append(
      'agent.invocation-completed',
      mark({ invocationId, agentId, outcome: failedClosed ? 'failed' : 'completed' }),
    );
    // The scripted agent reports the latency and cost its script states, so a limit is decided
    // the same on every host and every machine (contract §3 [0244-assumed]).
    // The path is judged over the whole script, not where the agent stopped: a failed-closed
    // trial's trajectory verdict must not depend on where a host stops it (docs/decisions.md).
    return {
      calls: entry.calls,
      output: failedClosed ? null : entry.output,
      failedClosed,
      latencyMs: entry.latencyMs ?? Date.now() - began,
      ...(entry.costUsd === undefined ? {} : { costUsd: entry.costUsd }),
      latencyStated: entry.latencyMs !== undefined,
    };
  }

  /**
   * Whether a call misses (contract §4 [0244-assumed]): only a task that lists toolResponses can
   * miss, an empty list records nothing, and an entry without `response` (held as null) still
   * records its tool. Each of the three defects reads one of those clauses another way.
   */
  private misses(task: HostTask, tool: string): boolean {
    const { has } = this.settings;
    const recorded = task.toolResponses;
    if (recorded === undefined) return has('absent-responses-miss');
    if (Object.keys(recorded).length === 0) return !has('empty-responses-never-miss');
    if (!Object.hasOwn(recorded, tool)) return true;
    return recorded[tool] === null && has('response-less-entry-misses');
  }

  private async execute(): Promise<void> {
    const { has, signal } = this.settings;
    const suite = this.fixture.suite;
    const began = Date.now();
    const count = suite.trials?.count ?? 1;
    const lastTask = suite.tasks.length - 1;
    let deferredScored: Payload | undefined;
    this.append('eval.started', startedPayload(suite, this.style));
    const verdicts: TaskVerdict[] = [];
    for (const [t, task] of suite.tasks.entries()) {
      // `trials-from-script-length` runs as many trials as the task's script has entries.
      const n = has('trials-from-script-length')
        ? (this.fixture.script[task.taskId] ?? []).length
        : count;
      const trials: TrialVerdict[] = [];
      for (let i = 1; i <= n; i += 1) {
        const pause = t > 0 || i > 1 ? this.settings.trialDelayMs : 0;
        await sleep(Math.max(pause, this.settings.stepDelayMs), signal);
        if (signal.aborted) return;
        const trial = gradeTrial(task, i, this.playTrial(task, i), suite.passScore, has);
        trials.push(trial);
        if (has('scored-per-task')) continue;
        const payload = scoredPayload(suite, task, trial, this.style);
        if (has('events-out-of-order') && t === lastTask && i === n) deferredScored = payload;
        else this.append('eval.scored', payload);
      }
      const verdict = gradeTask(task, trials, suite, has);
      verdicts.push(verdict);
      if (has('scored-per-task'))
        this.append('eval.scored', scoredTaskPayload(verdict, this.style));
    }
    const verdict = gradeSuite(suite, verdicts, has);
    const rest = this.settings.runDelayMs - (Date.now() - began);
    await sleep(Math.max(rest, this.settings.stepDelayMs), signal);
    if (this.settings.runGate !== undefined) await gated(this.settings.runGate, signal);
    if (signal.aborted) return;
    if (has('run-never-ends')) {
      this.stalled = true;
      // A waiter in process (tests/generate/reference-run.ts) learns at once that nothing more
      // will come; a poll that wakes finds no event and waits on, as it would have.
      this.wake();
      return;
    }
    this.summary = evalSummary(suite, verdict, this.style);
    this.status = !verdict.passed && has('status-failed-on-gate') ? 'failed' : 'completed';
    const runCompleted = runCompletedPayload(this.summary, this.style);
    if (has('run-completed-no-outputs')) delete runCompleted.outputs;
    const early = has('run-completed-before-eval-completed');
    if (early) this.append('run.completed', runCompleted);
    this.append('eval.completed', completedPayload(suite, verdict, this.style));
    if (deferredScored !== undefined) this.append('eval.scored', deferredScored);
    this.terminal = true;
    if (!early && !has('run-completed-missing')) this.append('run.completed', runCompleted);
    // A log that ends without its run.completed still ends: nothing more will be appended.
    if (has('run-completed-missing')) this.wake();
  }
}
