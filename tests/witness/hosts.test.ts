// The two wrong hosts RFC 0246 names, on the shipped mean-gated fixture: a host still on RFC
// 0244 (passes on the mean, carries no gated field) and a host that "fixes" the gate by zeroing
// the reported scores, which §C forbids. Both fail; the corrected host passes.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import type { Fixture } from '../../lib/types.ts';
import meanFixture from '../../fixtures/conformance-eval-trajectory-gate-mean.json' with { type: 'json' };
import type { Draft } from './build.ts';

const FIXTURE = meanFixture as unknown as Fixture;
const TASK = 'forbidden-in-every-trial';

interface HostReport {
  readonly score: number;
  readonly taskPassed: boolean;
  readonly gatedScore?: number;
  readonly gatedAggregateScore?: number;
  readonly suitePassed: boolean;
}

/** The log and summary of one run of the mean fixture, as a host with these answers writes it. */
function run(report: HostReport): Draft {
  const runId = 'mean-run';
  const payloads: [string, unknown][] = [
    [
      'eval.started',
      {
        suiteId: 'conformance.evals.trajectory-gate-mean',
        suiteVersion: '1.0.0',
        taskCount: 1,
        modes: ['golden'],
        trials: { count: 2, passRule: 'mean' },
      },
    ],
    ['eval.scored', { taskId: TASK, trial: 1, score: report.score, passed: false }],
    ['eval.scored', { taskId: TASK, trial: 2, score: report.score, passed: false }],
    [
      'eval.completed',
      {
        aggregateScore: report.score,
        passed: report.suitePassed,
        taskCount: 1,
        passedCount: report.taskPassed ? 1 : 0,
      },
    ],
    ['run.completed', undefined],
  ];
  const events = payloads.map(([type, payload], i) => ({
    sequence: i + 1,
    type,
    runId,
    ...(payload === undefined ? {} : { payload }),
  }));
  const task = {
    taskId: TASK,
    score: report.score,
    passed: report.taskPassed,
    ...(report.gatedScore === undefined ? {} : { gatedScore: report.gatedScore }),
    trials: { count: 2, passRule: 'mean', meanScore: report.score },
  };
  return {
    runId,
    evalSuiteRef: 'conformance.evals.trajectory-gate-mean@1.0.0',
    agentId: FIXTURE.agentId,
    pages: [{ afterSequence: null, lastSequence: 5, isTerminal: true, eventCount: 5 }],
    events,
    runStatus: 'completed',
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-mean',
      suiteVersion: '1.0.0',
      aggregateScore: report.score,
      ...(report.gatedAggregateScore === undefined
        ? {}
        : { gatedAggregateScore: report.gatedAggregateScore }),
      passed: report.suitePassed,
      taskCount: 1,
      passedCount: report.taskPassed ? 1 : 0,
      tasks: [task],
    },
  };
}

const failing = (draft: Draft): string[] =>
  [
    ...new Set(
      judgeEvalRun(FIXTURE, draft)
        .filter((f) => !f.ok)
        .map((f) => f.rule),
    ),
  ].sort();

describe('mean-gated fixture', () => {
  it('a corrected host: score 1, gatedScore 0, task and suite failed, passes every rule', () => {
    const draft = run({
      score: 1,
      taskPassed: false,
      gatedScore: 0,
      gatedAggregateScore: 0,
      suitePassed: false,
    });
    expect(failing(draft)).toEqual([]);
  });

  it('a host still on RFC 0244 fails the two decisions and the two presence rules', () => {
    const draft = run({ score: 1, taskPassed: true, suitePassed: true });
    expect(failing(draft)).toEqual([
      'suite.gated-aggregate-present',
      'suite.passed',
      'task.gated-score-present',
      'task.passed',
    ]);
  });

  it('a host that zeroes the reported scores to close the gate fails every §C rule', () => {
    const draft = run({
      score: 0,
      taskPassed: false,
      gatedScore: 0,
      gatedAggregateScore: 0,
      suitePassed: false,
    });
    expect(failing(draft)).toEqual([
      'suite.aggregate-unchanged',
      'task.mean-score',
      'task.score-unchanged',
      'trial.score-unchanged',
    ]);
  });
});
