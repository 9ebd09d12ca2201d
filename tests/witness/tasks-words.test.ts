// The summary task rules (lib/witness/tasks.ts) in words: each test changes one thing in a
// correct summary, the suite's pass rule, or one call the agent made, names every rule that must
// then fail, and pins the numbers and the reason the task finding gives.

import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../lib/types.ts';
import { GATED, summaryOf, summaryTask, UNGATED, type Draft } from './build.ts';
import { judgedBy } from './mutate.ts';

interface Judged {
  readonly failing: string[];
  /** Messages of the task.* findings, held or not, in report order. */
  readonly words: string[];
  readonly said: string[];
}

function judge(fixture: Fixture, mutate?: (d: Draft) => void): Judged {
  const { failing, own, said } = judgedBy('task.', fixture, mutate);
  return { failing, words: own, said };
}

function withRule(passRule: 'all' | 'any'): Fixture {
  return { ...GATED, suite: { ...GATED.suite, trials: { count: 2, passRule } } };
}

function trialsOf(d: Draft, taskId: string): Record<string, unknown> {
  return summaryTask(d, taskId).trials as Record<string, unknown>;
}

describe('a correct summary: each task finding gives its numbers and its reason', () => {
  it('the gated run, rule mean', () => {
    expect(judge(GATED).words).toEqual([
      'task "right-path": score MUST be 1 (mean of the 2 trial output scores); host reported 1',
      'task "right-path": trials.meanScore MUST be 1 (mean of the 2 trial output scores); host reported 1',
      'task "right-path": trials bookkeeping agrees with its 2 trials',
      'task "right-path": a task with a trajectory MUST carry gatedScore; host reported 1',
      'task "right-path": gatedScore MUST be 1 (every gating score is its trial score); host reported 1',
      'task "right-path": passed MUST be true (rule mean: gatedScore 1 ≥ passScore 0.6); host reported true',
      'task "wrong-path": score MUST be 1 (mean of the 2 trial output scores); host reported 1',
      'task "wrong-path": trials.meanScore MUST be 1 (mean of the 2 trial output scores); host reported 1',
      'task "wrong-path": trials bookkeeping agrees with its 2 trials',
      'task "wrong-path": a task with a trajectory MUST carry gatedScore; host reported 0.5',
      'task "wrong-path": gatedScore MUST be 0.5 (trajectory failed in 1 of 2 trials); host reported 0.5',
      'task "wrong-path": passed MUST be false (rule mean: gatedScore 0.5 < passScore 0.6); host reported false',
      'task "plain": score MUST be 0.5 (mean of the 2 trial output scores); host reported 0.5',
      'task "plain": trials.meanScore MUST be 0.5 (mean of the 2 trial output scores); host reported 0.5',
      'task "plain": trials bookkeeping agrees with its 2 trials',
      'task "plain": a task without a trajectory whose gating score equals its score MUST omit gatedScore; host reported nothing',
      'task "plain": passed MUST be false (rule mean: score 0.5 < passScore 0.6 with no trajectory to gate); host reported false',
    ]);
  });

  it('the ungated run: one trial, no trials block, no meanScore to check', () => {
    expect(judge(UNGATED).words).toEqual([
      'task "alpha": score MUST be 1 (mean of the 1 trial output scores); host reported 1',
      'task "alpha": a task without a trajectory whose gating score equals its score MUST omit gatedScore; host reported nothing',
      'task "alpha": passed MUST be true (its one trial passed); host reported true',
      'task "beta": score MUST be 1 (mean of the 1 trial output scores); host reported 1',
      'task "beta": a task without a trajectory whose gating score equals its score MUST omit gatedScore; host reported nothing',
      'task "beta": passed MUST be true (its one trial passed); host reported true',
    ]);
  });

  it('a trial that failed closed and missed its trajectory gives both reasons', () => {
    const fixture = structuredClone(GATED);
    const trial = fixture.script['wrong-path']?.[1] as unknown as { calls: { tool: string }[] };
    trial.calls.push({ tool: 'billing:escalate' });
    const { failing, words } = judge(fixture);
    expect(failing).toEqual([
      'suite.aggregate-unchanged',
      'task.mean-score',
      'task.score-unchanged',
      'task.trial-stats',
      'trial.flags',
      'trial.score-unchanged',
    ]);
    expect(words).toContain(
      'task "wrong-path": gatedScore MUST be 0.5 (trajectory failed in 1 of 2 trials, failed closed in 1 of 2 trials); host reported 0.5',
    );
    expect(words).toContain(
      'task "wrong-path": trials bookkeeping SHOULD agree with the trials; host reported trialStats.failedClosed 0 (SHOULD be 1), trialStats.minScore 1 (SHOULD be 0)',
    );
  });
});

describe('task.passed under each rule', () => {
  it('rule all: the bookkeeping names the rule the suite set, and the verdicts hold', () => {
    const { failing, said } = judge(withRule('all'));
    expect(failing).toEqual(['events.started-trials', 'task.trial-stats']);
    expect(said[0]).toBe(
      'task "right-path": trials bookkeeping SHOULD agree with the trials; host reported passRule the string "mean" (SHOULD be all)',
    );
  });

  it('rule any: a task with one of two trials passed must pass, counting them', () => {
    const { failing, said } = judge(withRule('any'));
    expect(failing).toEqual(['events.started-trials', 'task.passed', 'task.trial-stats']);
    expect(said.filter((m) => m.includes('passed MUST'))).toEqual([
      'task "wrong-path": passed MUST be true (rule any: 1 of 2 trials passed); host reported false',
      'task "plain": passed MUST be true (rule any: 1 of 2 trials passed); host reported false',
    ]);
  });

  it('no trials block: the one trial decides, passed or not', () => {
    const { failing, said } = judge(UNGATED, (d) => (summaryTask(d, 'alpha').passed = false));
    expect(failing).toEqual(['suite.counts', 'task.passed']);
    expect(said).toEqual([
      'task "alpha": passed MUST be true (its one trial passed); host reported false',
    ]);
    const fixture = structuredClone(UNGATED);
    (fixture.script.alpha?.[0] as { output: unknown }).output = 'no';
    expect(judge(fixture).said).toContain(
      'task "alpha": passed MUST be false (its one trial did not pass); host reported true',
    );
  });

  it('no trials block at passScore 0: a trajectory-failed trial fails its task though gatedScore 0 clears 0', () => {
    const [alpha, beta] = UNGATED.suite.tasks;
    if (alpha === undefined || beta === undefined) throw new Error('UNGATED has two tasks');
    const trajectory = { match: 'in-order' as const, calls: [{ tool: 'kb:fetch' }] };
    const fixture: Fixture = {
      ...UNGATED,
      suite: {
        ...UNGATED.suite,
        thresholds: { passScore: 0 },
        tasks: [{ ...alpha, expected: { ...alpha.expected, trajectory } }, beta],
      },
    };
    // The ungated run reports alpha passed, as a host reading gatedScore ≥ passScore would.
    expect(judge(fixture).said).toContain(
      'task "alpha": passed MUST be false (its one trial did not pass, it failed its trajectory; not gatedScore 0 ≥ passScore 0); host reported true',
    );
    expect(judge(UNGATED).said.join('\n')).not.toMatch(/not gatedScore/);
  });
});

describe('the gated score and the bookkeeping', () => {
  it('a missing gatedScore where required and a present one where forbidden', () => {
    const { failing, said } = judge(GATED, (d) => {
      delete summaryTask(d, 'right-path').gatedScore;
      summaryTask(d, 'plain').gatedScore = 0.5;
    });
    expect(failing).toEqual(['task.gated-score-absent', 'task.gated-score-present']);
    expect(said).toEqual([
      'task "right-path": a task with a trajectory MUST carry gatedScore; host reported nothing',
      'task "plain": a task without a trajectory whose gating score equals its score MUST omit gatedScore; host reported 0.5',
    ]);
  });

  it('a wrong count, pass rule and passHatK are each listed; absent passAtK and trialStats are not judged', () => {
    const { failing, said } = judge(GATED, (d) => {
      const trials = trialsOf(d, 'right-path');
      trials.count = '2';
      trials.passRule = 'all';
      delete trials.passAtK;
      trials.passHatK = 0;
      delete trials.trialStats;
    });
    expect(failing).toEqual(['summary.schema', 'task.trial-stats']);
    expect(said).toEqual([
      'task "right-path": trials bookkeeping SHOULD agree with the trials; host reported count the string "2" (SHOULD be 2), passRule the string "all" (SHOULD be mean), passHatK 0 (SHOULD be 1)',
    ]);
  });

  it('a trials block on an ungated task is checked against one trial, with no pass rule to compare', () => {
    const { said } = judge(UNGATED, (d) => {
      summaryTask(d, 'alpha').trials = { count: 1, passAtK: 1, passRule: 'x' };
      summaryTask(d, 'beta').trials = { count: 2, trialStats: {} };
    });
    expect(said).toEqual([
      'task "beta": trials bookkeeping SHOULD agree with the trials; host reported count 2 (SHOULD be 1), trialStats.passed nothing (SHOULD be 1), trialStats.trajectoryFailed nothing (SHOULD be 0), trialStats.failedClosed nothing (SHOULD be 0), trialStats.minScore nothing (SHOULD be 1), trialStats.maxScore nothing (SHOULD be 1)',
    ]);
  });

  it('no trials member where the suite has a trials block fails task.mean-score only', () => {
    const { failing, said } = judge(GATED, (d) => delete summaryTask(d, 'right-path').trials);
    expect(failing).toEqual(['task.mean-score']);
    expect(said).toEqual([
      'task "right-path": trials.meanScore MUST be 1 (mean of the 2 trial output scores); host reported nothing',
    ]);
  });

  it('a task missing from the summary fails its rules in place, as absent members', () => {
    const { failing, said } = judge(GATED, (d) => {
      (summaryOf(d).tasks as unknown[]).splice(1, 1);
    });
    expect(failing).toContain('summary.identity');
    expect(said).toEqual([
      'task "wrong-path": score MUST be 1 (mean of the 2 trial output scores); host reported nothing',
      'task "wrong-path": trials.meanScore MUST be 1 (mean of the 2 trial output scores); host reported nothing',
      'task "wrong-path": a task with a trajectory MUST carry gatedScore; host reported nothing',
      'task "wrong-path": passed MUST be false (rule mean: gatedScore 0.5 < passScore 0.6); host reported nothing',
    ]);
  });

  it('the first of two entries with one taskId is the one judged', () => {
    const { said } = judge(GATED, (d) => {
      const tasks = summaryOf(d).tasks as Record<string, unknown>[];
      tasks.push({ ...structuredClone(tasks[0]), score: 0 });
    });
    expect(said).toEqual([]);
  });
});
