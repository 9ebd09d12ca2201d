// Literal fixtures and the observation a correct host produces for each, written by hand from the
// contract's grading rules (contract §4), never computed by the witness under test. The mutation
// tests change one thing in these observations and name every rule that must then fail.

import type { Fixture, Json, RunObservation } from '../../lib/types.ts';
import { OBSERVATION_RECORD_VERSION } from '../../lib/types.ts';
import { GATED, UNGATED } from './fixtures.ts';

export { GATED, UNGATED };

export const RUN_ID = 'tenant-a/run-7';

interface ScoredRow {
  readonly taskId: string;
  readonly trial?: number;
  readonly score: number;
  readonly passed: boolean;
  readonly trajectoryMatched?: boolean;
  readonly failedClosed?: boolean;
}

const GATED_SCORED: readonly ScoredRow[] = [
  {
    taskId: 'right-path',
    trial: 1,
    score: 1,
    passed: true,
    trajectoryMatched: true,
    failedClosed: false,
  },
  {
    taskId: 'right-path',
    trial: 2,
    score: 1,
    passed: true,
    trajectoryMatched: true,
    failedClosed: false,
  },
  {
    taskId: 'wrong-path',
    trial: 1,
    score: 1,
    passed: true,
    trajectoryMatched: true,
    failedClosed: false,
  },
  {
    taskId: 'wrong-path',
    trial: 2,
    score: 1,
    passed: false,
    trajectoryMatched: false,
    failedClosed: false,
  },
  { taskId: 'plain', trial: 1, score: 1, passed: true, failedClosed: false },
  { taskId: 'plain', trial: 2, score: 0, passed: false, failedClosed: false },
];

const stats = (passed: number, trajectoryFailed: number, minScore: number) => ({
  passed,
  trajectoryFailed,
  failedClosed: 0,
  minScore,
  maxScore: 1,
});

const GATED_SUMMARY = {
  suiteId: 'witness.evals.gated',
  suiteVersion: '2.1.0',
  aggregateScore: 2.5 / 3,
  gatedAggregateScore: 2 / 3,
  passed: true,
  taskCount: 3,
  passedCount: 1,
  tasks: [
    {
      taskId: 'right-path',
      score: 1,
      gatedScore: 1,
      passed: true,
      trials: {
        count: 2,
        passRule: 'mean',
        meanScore: 1,
        passAtK: 1,
        passHatK: 1,
        trialStats: stats(2, 0, 1),
      },
    },
    {
      taskId: 'wrong-path',
      score: 1,
      gatedScore: 0.5,
      passed: false,
      trials: {
        count: 2,
        passRule: 'mean',
        meanScore: 1,
        passAtK: 1,
        passHatK: 0,
        trialStats: stats(1, 1, 1),
      },
    },
    {
      taskId: 'plain',
      score: 0.5,
      passed: false,
      trials: {
        count: 2,
        passRule: 'mean',
        meanScore: 0.5,
        passAtK: 1,
        passHatK: 0,
        trialStats: stats(1, 0, 0),
      },
    },
  ],
};

const UNGATED_SCORED: readonly ScoredRow[] = [
  { taskId: 'alpha', score: 1, passed: true },
  { taskId: 'beta', score: 1, passed: true },
];

const UNGATED_SUMMARY = {
  suiteId: 'witness.evals.ungated',
  suiteVersion: '1.0.0',
  aggregateScore: 1,
  passed: true,
  taskCount: 2,
  passedCount: 2,
  tasks: [
    { taskId: 'alpha', score: 1, passed: true, costUsd: 0.01, latencyMs: 120 },
    { taskId: 'beta', score: 1, passed: true, costUsd: 0.02, latencyMs: 80 },
  ],
  totalCostUsd: 0.03,
};

/** A mutable copy of an observation, for tests that change one thing in it. */
export interface Draft {
  runId: string;
  evalSuiteRef: string;
  agentId: string;
  pages: {
    afterSequence: number | null;
    lastSequence: unknown;
    isTerminal: unknown;
    eventCount: number;
  }[];
  events: { sequence: unknown; type: unknown; runId: unknown; payload?: unknown }[];
  runStatus: unknown;
  summary: unknown;
}

export function gatedObservation(): Draft {
  const started = {
    suiteId: 'witness.evals.gated',
    suiteVersion: '2.1.0',
    taskCount: 3,
    modes: ['golden'],
    trials: { count: 2, passRule: 'mean' },
  };
  const completed = { aggregateScore: 2.5 / 3, passed: true, taskCount: 3, passedCount: 1 };
  return observation(GATED, started, GATED_SCORED, completed, GATED_SUMMARY);
}

export function ungatedObservation(): Draft {
  const started = {
    suiteId: 'witness.evals.ungated',
    suiteVersion: '1.0.0',
    taskCount: 2,
    modes: ['golden'],
  };
  const completed = { aggregateScore: 1, passed: true, taskCount: 2, passedCount: 2 };
  return observation(UNGATED, started, UNGATED_SCORED, completed, UNGATED_SUMMARY);
}

/**
 * The log a host writes: eval.started, per trial an agent event and its eval.scored,
 * eval.completed, run.completed; sequences from 1, delivered in two pages split after the
 * third event.
 */
function observation(
  fixture: Fixture,
  started: Json,
  scored: readonly ScoredRow[],
  completed: Json,
  summary: Json,
): Draft {
  const events: Draft['events'] = [];
  const push = (type: string, payload?: unknown): void => {
    const event = { sequence: events.length + 1, type, runId: RUN_ID };
    events.push(payload === undefined ? event : { ...event, payload });
  };
  push('eval.started', started);
  for (const row of scored) {
    push('agent.invocation-completed');
    push('eval.scored', { ...row });
  }
  push('eval.completed', completed);
  push('run.completed');
  const split = 3;
  return structuredClone({
    runId: RUN_ID,
    evalSuiteRef: `${fixture.suite.suiteId}@${fixture.suite.version}`,
    agentId: fixture.agentId,
    pages: [
      { afterSequence: null, lastSequence: split, isTerminal: false, eventCount: split },
      {
        afterSequence: split,
        lastSequence: events.length,
        isTerminal: true,
        eventCount: events.length - split,
      },
    ],
    events,
    runStatus: 'completed',
    summary,
  });
}

/** Reads a draft as the observation type the witness takes. */
/** The draft as the observer records it now, judged by the rules of the current record version. */
export function asObservation(draft: Draft): RunObservation {
  return { ...draft, recordVersion: OBSERVATION_RECORD_VERSION };
}

/** The nth event (0-based among events of `type`), for a mutation to edit. */
export function eventOf(draft: Draft, type: string, nth = 0): Draft['events'][number] {
  const found = draft.events.filter((e) => e.type === type)[nth];
  if (found === undefined) throw new Error(`no ${type} #${nth} in the draft`);
  return found;
}

/** The payload of the eval.scored for (taskId, trial), as a mutable record. */
export function scoredPayload(
  draft: Draft,
  taskId: string,
  trial?: number,
): Record<string, unknown> {
  for (const event of draft.events) {
    const p = event.payload as Record<string, unknown> | undefined;
    if (event.type === 'eval.scored' && p?.taskId === taskId && p.trial === trial) return p;
  }
  throw new Error(`no eval.scored for ${taskId} trial ${String(trial)}`);
}

/** The summary entry of a task, as a mutable record. */
export function summaryTask(draft: Draft, taskId: string): Record<string, unknown> {
  const tasks = (draft.summary as { tasks: Record<string, unknown>[] }).tasks;
  const found = tasks.find((t) => t.taskId === taskId);
  if (found === undefined) throw new Error(`no summary task ${taskId}`);
  return found;
}

export function summaryOf(draft: Draft): Record<string, unknown> {
  return draft.summary as Record<string, unknown>;
}

/**
 * UNGATED with cost and latency limits, its script stating what its summary reports: alpha 0.01
 * and 120 ms, beta 0.02 and 80 ms, so a total of 0.03 and a nearest-rank p95 of 120.
 */
export function limited(limits: { maxCostUsd?: number; maxP95LatencyMs?: number }): Fixture {
  const figures = {
    alpha: { costUsd: 0.01, latencyMs: 120 },
    beta: { costUsd: 0.02, latencyMs: 80 },
  };
  const script = Object.fromEntries(
    Object.entries(UNGATED.script).map(([id, entries]) => [
      id,
      entries.map((e) => ({ ...e, ...figures[id as keyof typeof figures] })),
    ]),
  );
  return {
    ...UNGATED,
    suite: { ...UNGATED.suite, thresholds: { passScore: 0.6, ...limits } },
    script,
  };
}
