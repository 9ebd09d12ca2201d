// A large run for the scale test and for timing by hand: `tasks` trajectory tasks of `trials`
// trials under rule mean, every odd task calling a forbidden tool in its last trial. Its correct
// observation is written from the contract's arithmetic, not from the witness.

import type { Fixture } from '../../lib/types.ts';
import type { Draft } from './build.ts';

export function largeRun(taskCount: number, trials: number): { fixture: Fixture; draft: Draft } {
  const ok = {
    calls: [{ tool: 'kb:search', args: { q: 'x' } }, { tool: 'kb:answer' }],
    output: 'found',
  };
  const bad = { calls: [...ok.calls, { tool: 'kb:erase' }], output: 'found' };
  const ids = Array.from({ length: taskCount }, (_, i) => `task-${i}`);
  const fixture: Fixture = {
    id: 'scale',
    requirement: 'scale',
    agentId: 'scale-agent',
    suite: {
      suiteId: 'scale.evals.large',
      version: '1.0.0',
      modes: ['golden'],
      thresholds: { passScore: 0.95 },
      trials: { count: trials, passRule: 'mean' },
      tasks: ids.map((taskId) => ({
        taskId,
        input: null,
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
      ids.map((id, i) => [
        id,
        i % 2 === 0 ? [ok] : [...Array<typeof ok>(trials - 1).fill(ok), bad],
      ]),
    ),
  };

  // Even tasks: gated 1, passed. Odd tasks: gated (trials - 1) / trials < 0.95 for 10 trials.
  const oddGated = (trials - 1) / trials;
  const passedCount = Math.ceil(taskCount / 2);
  const gatedAggregate = (passedCount + (taskCount - passedCount) * oddGated) / taskCount;
  const events: Draft['events'] = [];
  const push = (type: string, payload?: unknown): void => {
    const event = { sequence: events.length + 1, type, runId: 'scale-run' };
    events.push(payload === undefined ? event : { ...event, payload });
  };
  push('eval.started', {
    suiteId: 'scale.evals.large',
    suiteVersion: '1.0.0',
    taskCount,
    modes: ['golden'],
    trials: { count: trials, passRule: 'mean' },
  });
  ids.forEach((taskId, i) => {
    for (let trial = 1; trial <= trials; trial += 1) {
      const wrong = i % 2 === 1 && trial === trials;
      push('eval.scored', { taskId, trial, score: 1, passed: !wrong, trajectoryMatched: !wrong });
    }
  });
  push('eval.completed', {
    aggregateScore: 1,
    passed: gatedAggregate >= 0.95,
    taskCount,
    passedCount,
  });
  push('run.completed');
  const draft: Draft = {
    runId: 'scale-run',
    evalSuiteRef: 'scale.evals.large@1.0.0',
    agentId: 'scale-agent',
    pages: [
      {
        afterSequence: null,
        lastSequence: events.length,
        isTerminal: true,
        eventCount: events.length,
      },
    ],
    events,
    runStatus: 'completed',
    summary: {
      suiteId: 'scale.evals.large',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: gatedAggregate,
      passed: gatedAggregate >= 0.95,
      taskCount,
      passedCount,
      tasks: ids.map((taskId, i) => ({
        taskId,
        score: 1,
        gatedScore: i % 2 === 0 ? 1 : oddGated,
        passed: i % 2 === 0,
        trials: { count: trials, passRule: 'mean', meanScore: 1 },
      })),
    },
  };
  return { fixture, draft };
}
