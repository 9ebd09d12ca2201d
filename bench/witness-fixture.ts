// A synthetic eval run of any size, for timing the witness: `tasks` trajectory tasks of `trials`
// trials under rule mean. Even tasks match in every trial; odd tasks call a forbidden tool in
// their last trial, which gates their mean to (trials - 1) / trials, below passScore 0.95.
// The host's answers are produced as wire JSON text (what a host would send) and the numbers in
// them follow the contract's arithmetic (contract §4) directly, not the witness under test.

import type { Fixture, ObservedEvent, RunObservation } from '../lib/types.ts';

const SUITE_ID = 'bench.evals.scale';
const VERSION = '1.0.0';
const RUN_ID = 'bench/scale-run';
const PASS_SCORE = 0.95;

export interface SyntheticRun {
  readonly fixture: Fixture;
  /** The log as the host serves it: one JSON array of full events. */
  readonly eventsText: string;
  readonly summaryText: string;
  readonly trials: number;
}

export function syntheticRun(taskCount: number, trialCount: number): SyntheticRun {
  const ids = Array.from({ length: taskCount }, (_, i) => `task-${i}`);
  const right = {
    calls: [{ tool: 'kb:search', args: { q: 'refund policy' } }, { tool: 'kb:answer' }],
    output: 'found',
  };
  const wrong = { calls: [...right.calls, { tool: 'kb:erase' }], output: 'found' };
  const isWrong = (task: number, trial: number): boolean => task % 2 === 1 && trial === trialCount;
  const fixture: Fixture = {
    id: 'bench-scale',
    requirement: 'bench.scale',
    agentId: 'bench.scale-agent',
    suite: {
      suiteId: SUITE_ID,
      version: VERSION,
      modes: ['golden'],
      thresholds: { passScore: PASS_SCORE },
      trials: { count: trialCount, passRule: 'mean' },
      tasks: ids.map((taskId) => ({
        taskId,
        input: { request: 'what is the refund policy?' },
        expected: {
          kind: 'golden',
          match: { strategy: 'exact', value: 'found' },
          trajectory: {
            match: 'in-order',
            calls: [{ tool: 'kb:search' }, { tool: 'kb:answer' }],
            forbidden: ['kb:erase'],
          },
        },
      })),
    },
    script: Object.fromEntries(
      ids.map((id, t) => [
        id,
        Array.from({ length: trialCount }, (_, i) => (isWrong(t, i + 1) ? wrong : right)),
      ]),
    ),
  };

  const gatedOdd = (trialCount - 1) / trialCount;
  const oddCount = Math.floor(taskCount / 2);
  const passedCount = taskCount - oddCount;
  const gatedAggregate = (passedCount + oddCount * gatedOdd) / taskCount;
  const suitePassed = gatedAggregate >= PASS_SCORE;

  const chunks: string[] = [];
  let sequence = 0;
  const push = (type: string, payload: unknown): void => {
    sequence += 1;
    const event = {
      eventId: `${RUN_ID}#${sequence}`,
      runId: RUN_ID,
      type,
      sequence,
      timestamp: '2026-11-30T12:00:00.000Z',
      payload,
    };
    chunks.push(JSON.stringify(event));
  };
  push('eval.started', {
    suiteId: SUITE_ID,
    suiteVersion: VERSION,
    taskCount,
    modes: ['golden'],
    trials: { count: trialCount, passRule: 'mean' },
  });
  ids.forEach((taskId, t) => {
    for (let trial = 1; trial <= trialCount; trial += 1) {
      const matched = !isWrong(t, trial);
      push('eval.scored', {
        taskId,
        trial,
        score: 1,
        passed: matched,
        trajectoryMatched: matched,
        latencyMs: 12,
      });
    }
  });
  push('eval.completed', { aggregateScore: 1, passed: suitePassed, taskCount, passedCount });
  push('run.completed', { status: 'completed' });

  const summary = {
    suiteId: SUITE_ID,
    suiteVersion: VERSION,
    aggregateScore: 1,
    gatedAggregateScore: gatedAggregate,
    passed: suitePassed,
    taskCount,
    passedCount,
    tasks: ids.map((taskId, t) => ({
      taskId,
      score: 1,
      gatedScore: t % 2 === 0 ? 1 : gatedOdd,
      passed: t % 2 === 0,
      trials: { count: trialCount, passRule: 'mean', meanScore: 1 },
    })),
  };
  return {
    fixture,
    eventsText: `[${chunks.join(',')}]`,
    summaryText: JSON.stringify(summary),
    trials: taskCount * trialCount,
  };
}

/** The observation the driver would hand the witness for these answers (one terminal page). */
export function observationOf(events: unknown, summary: unknown): RunObservation {
  const list = events as readonly {
    sequence: unknown;
    type: unknown;
    runId: unknown;
    payload: unknown;
  }[];
  const observed: ObservedEvent[] = list.map((e) =>
    typeof e.type === 'string' && e.type.startsWith('eval.')
      ? { sequence: e.sequence, type: e.type, runId: e.runId, payload: e.payload }
      : { sequence: e.sequence, type: e.type, runId: e.runId },
  );
  return {
    runId: RUN_ID,
    evalSuiteRef: `${SUITE_ID}@${VERSION}`,
    agentId: 'bench.scale-agent',
    pages: [
      {
        afterSequence: null,
        lastSequence: observed.length,
        isTerminal: true,
        eventCount: observed.length,
      },
    ],
    events: observed,
    runStatus: 'completed',
    summary,
  };
}
