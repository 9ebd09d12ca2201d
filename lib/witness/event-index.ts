// One pass over the observed log that every event rule reads from: the eval.* events in arrival
// order, and the eval.scored events grouped by task. Host values stay `unknown`; only the keys
// the index is built on are read, each through a guard.

import type { RunObservation } from '../types.ts';
import type { ExpectedRun } from './expected.ts';
import { member } from './finding.ts';

export interface EvalEvent {
  /** Position in the observed log (arrival order), not the host's sequence. */
  readonly position: number;
  readonly type: string;
  readonly payload: unknown;
}

export interface ScoredEvent extends EvalEvent {
  /** The payload's `taskId` when it is a string. */
  readonly taskId: string | undefined;
  /** The payload's `trial` as reported. */
  readonly reportedTrial: unknown;
  /**
   * The trial this event grades (1-based), or undefined when it cannot be told: without a
   * trials block every task runs once, so it is 1; with one it is `trial` when that is in 1..n.
   */
  readonly trial: number | undefined;
}

export interface EventIndex {
  /** The observed events, or an empty list when the observation holds no array. */
  readonly events: readonly unknown[];
  readonly evalEvents: readonly EvalEvent[];
  readonly started: readonly EvalEvent[];
  readonly completed: readonly EvalEvent[];
  readonly scored: readonly ScoredEvent[];
  readonly scoredByTask: ReadonlyMap<string, readonly ScoredEvent[]>;
}

export function indexEvents(observation: RunObservation, expected: ExpectedRun): EventIndex {
  const events: readonly unknown[] = Array.isArray(observation.events) ? observation.events : [];
  const evalEvents: EvalEvent[] = [];
  const started: EvalEvent[] = [];
  const completed: EvalEvent[] = [];
  const scored: ScoredEvent[] = [];
  const scoredByTask = new Map<string, ScoredEvent[]>();
  const n = expected.trialCount;
  const hasBlock = expected.trialsBlock !== null;

  for (let position = 0; position < events.length; position += 1) {
    const raw = events[position];
    const type = member(raw, 'type');
    if (typeof type !== 'string' || !type.startsWith('eval.')) continue;
    const payload = member(raw, 'payload');
    if (type !== 'eval.scored') {
      const event: EvalEvent = { position, type, payload };
      evalEvents.push(event);
      if (type === 'eval.started') started.push(event);
      else if (type === 'eval.completed') completed.push(event);
    } else {
      const taskId = member(payload, 'taskId');
      const reportedTrial = member(payload, 'trial');
      const trial = !hasBlock ? 1 : isTrialIn(reportedTrial, n) ? reportedTrial : undefined;
      const entry: ScoredEvent = {
        position,
        type,
        payload,
        taskId: typeof taskId === 'string' ? taskId : undefined,
        reportedTrial,
        trial,
      };
      evalEvents.push(entry);
      scored.push(entry);
      if (entry.taskId !== undefined) {
        const list = scoredByTask.get(entry.taskId);
        if (list === undefined) scoredByTask.set(entry.taskId, [entry]);
        else list.push(entry);
      }
    }
  }
  return { events, evalEvents, started, completed, scored, scoredByTask };
}

export function isTrialIn(value: unknown, n: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= n;
}
