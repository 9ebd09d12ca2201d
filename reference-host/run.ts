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
import {
  completedPayload,
  evalSummary,
  scoredPayload,
  scoredTaskPayload,
  startedPayload,
  type ReportStyle,
} from './report.ts';

export interface HostEvent {
  readonly eventId: string;
  readonly runId: string;
  readonly type: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly payload: { readonly [k: string]: JsonValue };
}

export interface RunSettings {
  readonly has: HasDefect;
  readonly varied: boolean;
  readonly trialDelayMs: number;
  readonly runDelayMs: number;
  /** Aborted when the host closes: the run stops and every held request is released. */
  readonly signal: AbortSignal;
}

type Payload = { readonly [k: string]: JsonValue };

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
    // The varied variant starts far from 1 and leaves gaps: a client must follow `sequence`,
    // not count events.
    this.nextSequence = settings.varied ? 1000 : 1;
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
        this.append('run.failed', { status: 'failed' });
        this.terminal = true;
        this.wake();
      });
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private append(type: string, payload: Payload): void {
    const sequence = this.nextSequence;
    this.nextSequence += this.settings.varied ? 1 + (this.events.length % 3) : 1;
    this.events.push({
      eventId: `${this.runId}#${sequence}`,
      runId: this.runId,
      type,
      sequence,
      timestamp: new Date().toISOString(),
      payload,
    });
    this.wake();
  }

  /** The scripted agent: makes the entry's calls from canned answers, then returns its output. */
  private playTrial(task: HostTask, trial: number): TrialRun {
    const began = Date.now();
    const entries = this.fixture.script[task.taskId] ?? [];
    const entry = (entries.length === 1 ? entries[0] : entries[trial - 1]) ?? {
      calls: [],
      output: null,
    };
    const at = { taskId: task.taskId, trial };
    this.append('agent.invocation-started', { ...at, agentId: this.fixture.agentId });
    const calls = [];
    let failedClosed = false;
    for (const call of entry.calls) {
      calls.push(call);
      this.append('agent.tool-called', { ...at, tool: call.tool });
      // RFC 0244 §D: a tool with no canned answer fails the trial closed.
      if (task.toolResponses !== undefined && !Object.hasOwn(task.toolResponses, call.tool)) {
        failedClosed = true;
        this.append('agent.tool-returned', { ...at, tool: call.tool, error: 'fixture_miss' });
        break;
      }
      this.append('agent.tool-returned', { ...at, tool: call.tool });
    }
    this.append('agent.decided', { ...at, decision: failedClosed ? 'failed-closed' : 'answer' });
    this.append('agent.invocation-completed', {
      ...at,
      status: failedClosed ? 'failed' : 'completed',
    });
    return {
      calls,
      output: failedClosed ? null : entry.output,
      failedClosed,
      latencyMs: Date.now() - began,
    };
  }

  private async execute(): Promise<void> {
    const { has, signal } = this.settings;
    const suite = this.fixture.suite;
    const began = Date.now();
    const n = suite.trials?.count ?? 1;
    const lastTask = suite.tasks.length - 1;
    let deferredScored: Payload | undefined;
    this.append('eval.started', startedPayload(suite, this.style));
    const verdicts: TaskVerdict[] = [];
    for (const [t, task] of suite.tasks.entries()) {
      const trials: TrialVerdict[] = [];
      for (let i = 1; i <= n; i += 1) {
        if (t > 0 || i > 1) await sleep(this.settings.trialDelayMs, signal);
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
    await sleep(this.settings.runDelayMs - (Date.now() - began), signal);
    if (signal.aborted || has('run-never-ends')) return;
    this.summary = evalSummary(suite, verdict, this.style);
    this.status = !verdict.passed && has('status-failed-on-gate') ? 'failed' : 'completed';
    this.append('eval.completed', completedPayload(suite, verdict, this.style));
    if (deferredScored !== undefined) this.append('eval.scored', deferredScored);
    this.terminal = true;
    this.append('run.completed', { status: this.status });
  }
}
