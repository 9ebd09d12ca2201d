// The oracle is only worth trusting if it reproduces the numbers contract §8 states for the
// shipped fixtures, written down by hand there. These pin it to them, independently of the witness.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../lib/types.ts';
import { above, grade } from './oracle.ts';

function shipped(id: string): Fixture {
  const url = new URL(`../../fixtures/${id}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Fixture;
}

/** The numbers and verdicts of contract §8, per task in order, then for the suite. */
function decisions(fixture: Fixture, compare = grade(fixture)) {
  const { summary, tasks } = compare;
  return {
    tasks: summary.tasks.map((t) => ({
      score: t.score,
      gatedScore: t.gatedScore,
      passed: t.passed,
      meanScore: t.trials?.meanScore,
    })),
    trials: tasks.map((t) => t.trials.map((trial) => [trial.score, trial.passed])),
    aggregateScore: summary.aggregateScore,
    gatedAggregateScore: summary.gatedAggregateScore,
    passed: summary.passed,
  };
}

describe('the oracle on the shipped fixtures (contract §8)', () => {
  it('mean-gated: a forbidden tool in both trials gates the mean to 0 and fails task and suite', () => {
    expect(decisions(shipped('conformance-eval-trajectory-gate-mean'))).toEqual({
      tasks: [{ score: 1, gatedScore: 0, passed: false, meanScore: 1 }],
      trials: [
        [
          [1, false],
          [1, false],
        ],
      ],
      aggregateScore: 1,
      gatedAggregateScore: 0,
      passed: false,
    });
  });

  it('suite-gated: a wrong path on one of two tasks halves the gated aggregate and fails the suite', () => {
    const d = decisions(shipped('conformance-eval-trajectory-gate'));
    expect(d.tasks.map((t) => t.gatedScore)).toEqual([1, 0]);
    expect([d.aggregateScore, d.gatedAggregateScore, d.passed]).toEqual([1, 0.5, false]);
  });

  it('no-trajectory-ungated: neither gated field appears and the suite passes', () => {
    const d = decisions(shipped('conformance-eval-trajectory-gate-control'));
    expect(d.tasks.map((t) => t.gatedScore)).toEqual([undefined, undefined]);
    expect([d.gatedAggregateScore, d.passed]).toEqual([undefined, true]);
  });

  it('mean-partial-inclusive: a gated mean of 0.75 on passScore 0.75 passes, and fails under >', () => {
    const fixture = shipped('conformance-eval-trajectory-gate-boundary');
    const d = decisions(fixture);
    expect(d.tasks).toEqual([{ score: 1, gatedScore: 0.75, passed: true, meanScore: 1 }]);
    expect([d.gatedAggregateScore, d.passed]).toEqual([0.75, true]);
    const strict = decisions(fixture, grade(fixture, above));
    expect([strict.tasks[0]?.passed, strict.passed]).toEqual([false, false]);
  });

  it('any-rule-unchanged: one matching trial passes a task, two wrong paths at score 1 fail the other, the 0.25 gated aggregate fails the suite', () => {
    const d = decisions(shipped('conformance-eval-trajectory-gate-any'));
    expect(d.tasks).toEqual([
      { score: 1, gatedScore: 0.5, passed: true, meanScore: 1 },
      { score: 1, gatedScore: 0, passed: false, meanScore: 1 },
    ]);
    expect([d.gatedAggregateScore, d.passed]).toEqual([0.25, false]);
  });

  it('all-rule-unchanged: one trial with a forbidden tool fails the task at score 1, and the suite at 0.5', () => {
    expect(decisions(shipped('conformance-eval-trajectory-gate-all'))).toEqual({
      tasks: [{ score: 1, gatedScore: 0.5, passed: false, meanScore: 1 }],
      trials: [
        [
          [1, true],
          [1, false],
        ],
      ],
      aggregateScore: 1,
      gatedAggregateScore: 0.5,
      passed: false,
    });
  });
});
