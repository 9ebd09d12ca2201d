// One defect at a time in the grades and the verdict: each test changes one thing in a correct
// observation and names every rule the change necessarily fails. A rule never seen to fail is
// not a witness.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import {
  asObservation,
  eventOf,
  GATED,
  gatedObservation,
  limited,
  scoredPayload,
  summaryOf,
  summaryTask,
  ungatedObservation,
  type Draft,
} from './build.ts';
import type { Fixture } from '../../lib/types.ts';
import { failing, gated, ungated } from './mutate.ts';

describe('one defect in the grades fails exactly the rules it implies', () => {
  it('zeroing the score of the forbidden trial fails trial.score-unchanged', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).score = 0))).toEqual([
      'trial.score-unchanged',
    ]);
  });

  it('passing the forbidden trial fails trial.passed', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).passed = true))).toEqual([
      'trial.passed',
    ]);
  });

  it('flagging the forbidden trial as matched warns on trial.flags', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).trajectoryMatched = true))).toEqual([
      'trial.flags',
    ]);
  });

  it('a clean trial flagged failedClosed warns on trial.flags', () => {
    expect(gated((d) => (scoredPayload(d, 'right-path', 1).failedClosed = true))).toEqual([
      'trial.flags',
    ]);
  });

  it('a zeroed task score fails task.score-unchanged', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').score = 0))).toEqual([
      'task.score-unchanged',
    ]);
  });

  it('a meanScore that reads the gate fails task.mean-score', () => {
    expect(
      gated(
        (d) => ((summaryTask(d, 'wrong-path').trials as Record<string, unknown>).meanScore = 0.5),
      ),
    ).toEqual(['task.mean-score']);
  });

  it('a trialStats that forgets the forbidden trial warns on task.trial-stats', () => {
    expect(
      gated((d) => {
        const trials = summaryTask(d, 'wrong-path').trials as {
          trialStats: Record<string, unknown>;
        };
        trials.trialStats.trajectoryFailed = 0;
      }),
    ).toEqual(['task.trial-stats']);
  });

  it('passHatK 1 on a task that passed 1 of 2 trials warns on task.trial-stats', () => {
    expect(
      gated((d) => ((summaryTask(d, 'wrong-path').trials as Record<string, unknown>).passHatK = 1)),
    ).toEqual(['task.trial-stats']);
  });

  it('a trajectory task without gatedScore fails task.gated-score-present', () => {
    expect(gated((d) => delete summaryTask(d, 'wrong-path').gatedScore)).toEqual([
      'task.gated-score-present',
    ]);
  });

  it('an ungated gatedScore on the wrong-path task fails task.gated-score-value', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').gatedScore = 1))).toEqual([
      'task.gated-score-value',
    ]);
  });

  it('a gatedScore on a task without trajectory or miss fails task.gated-score-absent', () => {
    expect(gated((d) => (summaryTask(d, 'plain').gatedScore = 0.5))).toEqual([
      'task.gated-score-absent',
    ]);
    expect(ungated((d) => (summaryTask(d, 'alpha').gatedScore = 1))).toEqual([
      'task.gated-score-absent',
    ]);
  });

  it('passing the gated-out task fails task.passed and, through passedCount, suite.counts', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').passed = true))).toEqual([
      'suite.counts',
      'task.passed',
    ]);
  });

  it('a task listed twice fails summary.identity', () => {
    expect(
      gated((d) => {
        const tasks = summaryOf(d).tasks as unknown[];
        tasks.push(structuredClone(tasks[2]));
      }),
    ).toEqual(['summary.identity']);
  });

  it('another suite version fails summary.identity', () => {
    expect(gated((d) => (summaryOf(d).suiteVersion = '2.2.0'))).toEqual(['summary.identity']);
  });

  it('a summary member of the wrong type fails summary.schema', () => {
    expect(gated((d) => (summaryOf(d).regression = 'none'))).toEqual(['summary.schema']);
  });
});

describe('one defect in the suite verdict fails exactly the rules it implies', () => {
  it('an aggregate that reads the gate fails suite.aggregate-unchanged and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).aggregateScore = 2 / 3))).toEqual([
      'completed.consistent',
      'suite.aggregate-unchanged',
    ]);
  });

  it('a trajectory suite without gatedAggregateScore fails suite.gated-aggregate-present', () => {
    expect(gated((d) => delete summaryOf(d).gatedAggregateScore)).toEqual([
      'suite.gated-aggregate-present',
    ]);
  });

  it('an ungated gatedAggregateScore fails suite.gated-aggregate-value', () => {
    expect(gated((d) => (summaryOf(d).gatedAggregateScore = 2.5 / 3))).toEqual([
      'suite.gated-aggregate-value',
    ]);
  });

  it('a gatedAggregateScore on a suite without trajectory or miss fails suite.gated-aggregate-absent', () => {
    expect(ungated((d) => (summaryOf(d).gatedAggregateScore = 1))).toEqual([
      'suite.gated-aggregate-absent',
    ]);
  });

  it('a suite verdict against the gate fails suite.passed and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).passed = false))).toEqual([
      'completed.consistent',
      'suite.passed',
    ]);
  });

  it('a wrong taskCount fails suite.counts and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).taskCount = 4))).toEqual([
      'completed.consistent',
      'suite.counts',
    ]);
  });

  it('an eval.completed that disagrees with the summary fails completed.consistent', () => {
    expect(
      gated(
        (d) => ((eventOf(d, 'eval.completed').payload as Record<string, unknown>).passed = false),
      ),
    ).toEqual(['completed.consistent']);
  });

  it('an eval.completed with the wrong passedCount fails completed.consistent', () => {
    expect(
      gated(
        (d) => ((eventOf(d, 'eval.completed').payload as Record<string, unknown>).passedCount = 2),
      ),
    ).toEqual(['completed.consistent']);
  });
});

describe('findings speak in numbers and carry their clause', () => {
  it('names the MUST and what the host reported for a wrong gatedScore', () => {
    const draft = gatedObservation();
    summaryTask(draft, 'wrong-path').gatedScore = 1;
    const [f] = mustFailures(judgeEvalRun(GATED, asObservation(draft)));
    expect(f).toEqual({
      rule: 'task.gated-score-value',
      ok: false,
      severity: 'MUST',
      ref: 'RFC 0246 §A',
      message:
        'task "wrong-path": gatedScore MUST be 0.5 (trajectory failed in 1 of 2 trials); host reported 1',
    });
  });

  it('reports SHOULD rules as warnings that mustFailures leaves out', () => {
    const draft = gatedObservation();
    scoredPayload(draft, 'wrong-path', 2).trajectoryMatched = true;
    const findings = judgeEvalRun(GATED, asObservation(draft));
    expect(findings.filter((f) => !f.ok).map((f) => f.severity)).toEqual(['SHOULD']);
    expect(mustFailures(findings)).toEqual([]);
  });
});

describe('cost and latency limits, judged on the figures the script states', () => {
  const judgeUngated = (fixture: Fixture, mutate: (d: Draft) => void = () => {}): string[] => {
    const draft = ungatedObservation();
    mutate(draft);
    return failing(fixture, draft);
  };

  it('a stated total cost of 0.03 over maxCostUsd 0.02 makes passed: true a failure of suite.passed', () => {
    expect(judgeUngated(limited({ maxCostUsd: 0.02 }))).toEqual(['suite.passed']);
    expect(judgeUngated(limited({ maxCostUsd: 0.03 }))).toEqual([]);
  });

  it('task costs show the host reports cost when totalCostUsd is absent', () => {
    const noTotal = (d: Draft): void => {
      delete summaryOf(d).totalCostUsd;
    };
    expect(judgeUngated(limited({ maxCostUsd: 0.025 }), noTotal)).toEqual(['suite.passed']);
  });

  it('a stated p95 latency of 120 over maxP95LatencyMs 100 fails suite.passed; 120 itself is inclusive', () => {
    expect(judgeUngated(limited({ maxP95LatencyMs: 100 }))).toEqual(['suite.passed']);
    expect(judgeUngated(limited({ maxP95LatencyMs: 120 }))).toEqual([]);
  });

  it('a reported figure other than the stated one fails limits.figures, not the verdict', () => {
    const slower = (d: Draft): void => {
      summaryTask(d, 'beta').latencyMs = 81;
    };
    expect(judgeUngated(limited({ maxP95LatencyMs: 120 }), slower)).toEqual(['limits.figures']);
  });

  it('a limit the host gives no figures for is still decided on the stated ones', () => {
    const noLatency = (d: Draft): void => {
      for (const id of ['alpha', 'beta']) delete summaryTask(d, id).latencyMs;
    };
    // The stated p95 is 120: within a limit of 120, over one of 100, where passed true is wrong.
    expect(judgeUngated(limited({ maxP95LatencyMs: 120 }), noLatency)).toEqual([]);
    expect(judgeUngated(limited({ maxP95LatencyMs: 100 }), noLatency)).toEqual(['suite.passed']);
    const verdict = (d: Draft): void => {
      noLatency(d);
      summaryOf(d).passed = 'unknown';
    };
    expect(judgeUngated(limited({ maxP95LatencyMs: 100 }), verdict)).toEqual([
      'completed.consistent',
      'suite.passed',
      'summary.schema',
    ]);
  });
});
