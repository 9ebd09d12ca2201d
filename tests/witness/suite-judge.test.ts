// `judge` against a bare suite (lib/witness/suite-judge.ts): no script, so only the summary's own
// arithmetic and, given the run's eval.scored events, the trial flags decide. Each test changes
// one thing in a correct summary or log and names every rule that must then fail, with the
// numbers the failing message must carry.

import { describe, expect, it } from 'vitest';
import { judgeSummaryAgainstSuite } from '../../lib/eval-gate-witness.ts';
import type { AgentEvalSuite, Finding } from '../../lib/types.ts';
import {
  GATED,
  gatedObservation,
  scoredPayload,
  summaryOf,
  summaryTask,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';

interface Judged {
  readonly failing: string[];
  /** The message of every failing finding, in report order. */
  readonly said: string[];
  readonly rules: string[];
}

function judged(
  mutate: (d: Draft) => void,
  options: { events?: boolean; suite?: AgentEvalSuite; ungated?: boolean } = {},
): Judged {
  const draft = options.ungated === true ? ungatedObservation() : gatedObservation();
  mutate(draft);
  const suite = options.suite ?? (options.ungated === true ? UNGATED.suite : GATED.suite);
  const events = options.events === false ? undefined : draft.events;
  const findings: Finding[] = judgeSummaryAgainstSuite(suite, draft.summary, events);
  const bad = findings.filter((f) => !f.ok);
  return {
    failing: [...new Set(bad.map((f) => f.rule))].sort(),
    said: bad.map((f) => f.message),
    rules: findings.map((f) => f.rule),
  };
}

const asIs = (): void => undefined;

describe('a correct summary, judged against the bare suite', () => {
  it('with the events: every rule holds, and each says what it checked in numbers', () => {
    const draft = gatedObservation();
    const findings = judgeSummaryAgainstSuite(GATED.suite, draft.summary, draft.events);
    expect(findings.map((f) => [f.ok, f.rule, f.message])).toEqual([
      [true, 'summary.schema', 'the summary validates against eval-summary'],
      [true, 'content-free', 'the summary carries no content key'],
      [
        true,
        'summary.identity',
        'the summary MUST name witness.evals.gated@2.1.0 and list each of its 3 tasks once',
      ],
      [
        true,
        'task.gated-score-present',
        'task "right-path" has expected.trajectory, so it MUST carry gatedScore; host reported 1',
      ],
      [
        true,
        'task.gated-score-value',
        'task "right-path": gatedScore MUST be the mean of its trial gating scores (1); host reported 1',
      ],
      [
        true,
        'task.score-unchanged',
        'task "right-path": score MUST be the mean of its eval.scored scores (1); host reported 1',
      ],
      [
        true,
        'task.passed',
        'task "right-path": passed MUST be true (gatedScore 1 ≥ passScore 0.6); host reported true',
      ],
      [
        true,
        'task.gated-score-present',
        'task "wrong-path" has expected.trajectory, so it MUST carry gatedScore; host reported 0.5',
      ],
      [
        true,
        'task.gated-score-value',
        'task "wrong-path": gatedScore MUST be the mean of its trial gating scores (0.5); host reported 0.5',
      ],
      [
        true,
        'task.score-unchanged',
        'task "wrong-path": score MUST be the mean of its eval.scored scores (1); host reported 1',
      ],
      [
        true,
        'task.passed',
        'task "wrong-path": passed MUST be false (gatedScore 0.5 < passScore 0.6); host reported false',
      ],
      [
        true,
        'task.gated-score-absent',
        'task "plain" has no trajectory and carries no redundant gatedScore',
      ],
      [
        true,
        'task.gated-score-value',
        'task "plain": gatedScore MUST be the mean of its trial gating scores (0.5); host reported nothing',
      ],
      [
        true,
        'task.score-unchanged',
        'task "plain": score MUST be the mean of its eval.scored scores (0.5); host reported 0.5',
      ],
      [
        true,
        'task.passed',
        'task "plain": passed MUST be false (score 0.5 < passScore 0.6); host reported false',
      ],
      [
        true,
        'suite.aggregate-unchanged',
        'aggregateScore MUST be the mean of the task scores (0.833333333333); host reported 0.833333333333',
      ],
      [
        true,
        'suite.gated-aggregate-present',
        'a suite with a trajectory task MUST carry gatedAggregateScore; host reported 0.666666666667',
      ],
      [
        true,
        'suite.gated-aggregate-value',
        'gatedAggregateScore MUST be the mean of the task gating scores (0.666666666667); host reported 0.666666666667',
      ],
      [
        true,
        'suite.passed',
        'suite passed MUST be true (gating aggregate 0.666666666667 ≥ passScore 0.6); host reported true',
      ],
      [true, 'suite.counts', 'taskCount MUST be 3 and passedCount 1; host reported 3 and 1'],
    ]);
  });

  it('without the events: the trial-level rules are not judged, the rest still hold', () => {
    const { failing, rules } = judged(asIs, { events: false });
    expect(failing).toEqual([]);
    // No score-unchanged, and gated-score-value only as the "never above score" bound, which
    // needs a reported gatedScore (plain has none).
    expect(rules).toEqual([
      'summary.schema',
      'content-free',
      'summary.identity',
      'task.gated-score-present',
      'task.gated-score-value',
      'task.passed',
      'task.gated-score-present',
      'task.gated-score-value',
      'task.passed',
      'task.gated-score-absent',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-present',
      'suite.gated-aggregate-value',
      'suite.passed',
      'suite.counts',
    ]);
  });

  it('an ungated suite: no presence rule for gated fields, and passed read from the score', () => {
    const { failing, rules } = judged(asIs, { ungated: true, events: false });
    expect(failing).toEqual([]);
    expect(rules).toEqual([
      'summary.schema',
      'content-free',
      'summary.identity',
      'task.gated-score-absent',
      'task.passed',
      'task.gated-score-absent',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.passed',
      'suite.counts',
    ]);
  });
});

describe('one defect in the summary fails exactly the rules it implies', () => {
  it('a member the schema does not know fails summary.schema, naming it', () => {
    const { failing, said } = judged((d) => (summaryOf(d).note = 'x'));
    expect(failing).toEqual(['summary.schema']);
    expect(said[0]).toMatch(
      /^the summary MUST validate against eval-summary: eval-summary# additionalProperties/,
    );
  });

  it('a content key in a task entry fails content-free with its path', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'plain').output = 'O-3 shipped'));
    expect(failing).toEqual(['content-free', 'summary.schema']);
    expect(said).toContain(
      'the summary MUST NOT carry task content; it has summary.tasks[2].output',
    );
  });

  it('another suiteId fails summary.identity', () => {
    const { failing, said } = judged((d) => (summaryOf(d).suiteId = 'witness.evals.other'));
    expect(failing).toEqual(['summary.identity']);
    expect(said).toEqual([
      'the summary MUST name witness.evals.gated@2.1.0 and list each of its 3 tasks once',
    ]);
  });

  it('another suiteVersion fails summary.identity', () => {
    expect(judged((d) => (summaryOf(d).suiteVersion = '2.1.1')).failing).toEqual([
      'summary.identity',
    ]);
  });

  it('a task listed twice in place of another fails summary.identity and the rules of the lost task', () => {
    const { failing } = judged((d) => {
      const tasks = summaryOf(d).tasks as unknown[];
      tasks[2] = structuredClone(tasks[0]);
    });
    // The lost task's score is missing, so the aggregate is not recomputed at all.
    expect(failing).toEqual([
      'suite.counts',
      'summary.identity',
      'task.gated-score-value',
      'task.passed',
      'task.score-unchanged',
    ]);
  });

  it('an extra copy of a task fails summary.identity only', () => {
    const { failing, said } = judged((d) => {
      const tasks = summaryOf(d).tasks as unknown[];
      tasks.push(structuredClone(tasks[1]));
    });
    expect(failing).toEqual(['summary.identity']);
    expect(said).toEqual([
      'the summary MUST name witness.evals.gated@2.1.0 and list each of its 3 tasks once',
    ]);
  });

  it('a summary whose tasks is not an array judges every task as missing', () => {
    const { failing } = judged((d) => (summaryOf(d).tasks = {}), { events: false });
    expect(failing).toEqual([
      'suite.counts',
      'summary.identity',
      'summary.schema',
      'task.gated-score-present',
    ]);
  });

  it('a redundant gatedScore on a task without trajectory fails task.gated-score-absent', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'plain').gatedScore = 0.5));
    expect(failing).toEqual(['task.gated-score-absent']);
    expect(said).toEqual([
      'task "plain" has no trajectory and its gatedScore equals its score, so it MUST omit gatedScore',
    ]);
  });

  it('without the events, a gatedScore above its score fails task.gated-score-value', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'plain').gatedScore = 0.7), {
      events: false,
    });
    expect(failing).toEqual([
      'suite.gated-aggregate-value',
      'task.gated-score-value',
      'task.passed',
    ]);
    expect(said).toContain(
      'task "plain": a gating score is each trial\'s score or 0, so gatedScore MUST NOT exceed score 0.5; host reported 0.7',
    );
  });

  it('without the events, a gatedScore below its score is not a fault of its own', () => {
    const { failing } = judged(
      (d) => {
        summaryTask(d, 'wrong-path').gatedScore = 0.25;
        summaryOf(d).gatedAggregateScore = 1.75 / 3;
        summaryOf(d).passed = false;
      },
      { events: false },
    );
    expect(failing).toEqual([]);
  });

  it('a trajectory task without gatedScore fails task.gated-score-present and leaves the gate to the aggregate', () => {
    const { failing, said } = judged((d) => delete summaryTask(d, 'wrong-path').gatedScore, {
      events: false,
    });
    expect(failing).toEqual(['task.gated-score-present']);
    expect(said).toEqual([
      'task "wrong-path" has expected.trajectory, so it MUST carry gatedScore; host reported nothing',
    ]);
  });

  it('a task score off the mean of its eval.scored scores fails task.score-unchanged and the aggregate', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'plain').score = 0.75));
    expect(failing).toEqual([
      'suite.aggregate-unchanged',
      'task.gated-score-value',
      'task.score-unchanged',
    ]);
    expect(said).toContain(
      'task "plain": score MUST be the mean of its eval.scored scores (0.5); host reported 0.75',
    );
    expect(said).toContain(
      'aggregateScore MUST be the mean of the task scores (0.916666666667); host reported 0.833333333333',
    );
  });

  it('the RFC 0244 mean as gatedScore fails task.gated-score-value with the trial mean', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'wrong-path').gatedScore = 1));
    expect(failing).toEqual(['task.gated-score-value']);
    expect(said).toEqual([
      'task "wrong-path": gatedScore MUST be the mean of its trial gating scores (0.5); host reported 1',
    ]);
  });

  it('a passed task below passScore fails task.passed and the count', () => {
    const { failing, said } = judged((d) => (summaryTask(d, 'wrong-path').passed = true));
    expect(failing).toEqual(['suite.counts', 'task.passed']);
    expect(said).toEqual([
      'task "wrong-path": passed MUST be false (gatedScore 0.5 < passScore 0.6); host reported true',
      'taskCount MUST be 3 and passedCount 2; host reported 3 and 1',
    ]);
  });

  it('a string aggregate score of a task leaves the aggregate unjudged', () => {
    const { failing, rules } = judged((d) => (summaryTask(d, 'plain').score = '0.5'), {
      events: false,
    });
    expect(failing).toEqual(['summary.schema']);
    expect(rules).not.toContain('suite.aggregate-unchanged');
  });

  it('an aggregateScore off the mean fails suite.aggregate-unchanged', () => {
    const { failing, said } = judged((d) => (summaryOf(d).aggregateScore = 0.9));
    expect(failing).toEqual(['suite.aggregate-unchanged']);
    expect(said).toEqual([
      'aggregateScore MUST be the mean of the task scores (0.833333333333); host reported 0.9',
    ]);
  });

  it('no gatedAggregateScore fails suite.gated-aggregate-present; the decision is still judged', () => {
    const { failing, said, rules } = judged((d) => {
      delete summaryOf(d).gatedAggregateScore;
      summaryOf(d).passed = false;
    });
    expect(failing).toEqual(['suite.gated-aggregate-present', 'suite.passed']);
    expect(said).toEqual([
      'a suite with a trajectory task MUST carry gatedAggregateScore; host reported nothing',
      'suite passed MUST be true (gating aggregate 0.666666666667 ≥ passScore 0.6); host reported false',
    ]);
    expect(rules).not.toContain('suite.gated-aggregate-value');
  });

  it('a gatedAggregateScore off the mean of the gating scores fails suite.gated-aggregate-value', () => {
    const { failing, said } = judged((d) => (summaryOf(d).gatedAggregateScore = 0.8));
    expect(failing).toEqual(['suite.gated-aggregate-value']);
    expect(said).toEqual([
      'gatedAggregateScore MUST be the mean of the task gating scores (0.666666666667); host reported 0.8',
    ]);
  });

  it('a failed suite whose gate clears passScore fails suite.passed', () => {
    expect(judged((d) => (summaryOf(d).passed = false)).failing).toEqual(['suite.passed']);
  });

  it('a passed suite whose gate misses passScore fails suite.passed, saying <', () => {
    const suite = { ...GATED.suite, thresholds: { passScore: 0.7 } };
    const { said } = judged(
      (d) => {
        summaryTask(d, 'right-path').passed = true;
      },
      { suite },
    );
    expect(said).toContain(
      'suite passed MUST be false (gating aggregate 0.666666666667 < passScore 0.7); host reported true',
    );
  });

  it('with a cost limit, a passed suite that clears the gate is not judged: the limit may fail it', () => {
    const suite = { ...GATED.suite, thresholds: { passScore: 0.6, maxCostUsd: 1 } };
    const { rules } = judged((d) => (summaryOf(d).passed = false), { suite });
    expect(rules).toContain('suite.counts');
    expect(rules).not.toContain('suite.passed');
  });

  it('with a latency limit, a passed suite below the gate still fails suite.passed', () => {
    const suite = { ...GATED.suite, thresholds: { passScore: 0.7, maxP95LatencyMs: 500 } };
    const { failing } = judged(asIs, { suite });
    expect(failing).toEqual(['suite.passed']);
  });

  it('without any gating score to recompute, the reported gatedAggregateScore decides suite.passed', () => {
    const { failing, said } = judged(
      (d) => {
        delete summaryTask(d, 'wrong-path').gatedScore;
        summaryOf(d).gatedAggregateScore = 0.5;
      },
      { events: false },
    );
    expect(failing).toEqual(['suite.passed', 'task.gated-score-present']);
    expect(said).toContain(
      'suite passed MUST be false (gating aggregate 0.5 < passScore 0.6); host reported true',
    );
    const text = judged(
      (d) => {
        delete summaryTask(d, 'wrong-path').gatedScore;
        summaryOf(d).gatedAggregateScore = '0.5';
      },
      { events: false },
    );
    expect(text.rules).toContain('suite.counts');
    expect(text.rules).not.toContain('suite.passed');
  });

  it('a gatedScore with no score to bound it is not judged by value', () => {
    const { rules } = judged(
      (d) => {
        delete summaryTask(d, 'plain').score;
        summaryTask(d, 'plain').gatedScore = 0.4;
      },
      { events: false },
    );
    expect(rules.filter((r) => r === 'task.gated-score-value')).toHaveLength(2);
  });

  it('a gatedScore may equal its score to within 1e-9', () => {
    const { failing } = judged(
      (d) => {
        summaryTask(d, 'wrong-path').score = 0;
        summaryTask(d, 'wrong-path').gatedScore = 1e-9;
      },
      { events: false },
    );
    expect(failing).toEqual([
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
      'suite.passed',
    ]);
  });

  it('with only a latency limit, a failed suite that clears the gate is not judged either', () => {
    const suite = { ...GATED.suite, thresholds: { passScore: 0.6, maxP95LatencyMs: 500 } };
    const { rules } = judged((d) => (summaryOf(d).passed = false), { suite });
    expect(rules).toContain('suite.counts');
    expect(rules).not.toContain('suite.passed');
  });

  it('a taskCount that is not the number of tasks fails suite.counts, with both counts', () => {
    const { failing, said } = judged((d) => (summaryOf(d).taskCount = 4));
    expect(failing).toEqual(['suite.counts']);
    expect(said).toEqual(['taskCount MUST be 3 and passedCount 1; host reported 4 and 1']);
  });
});

describe('the trial flags in the events decide the gating scores', () => {
  it('a failedClosed trial gates to 0 even on a task without trajectory', () => {
    const { failing, said } = judged((d) => (scoredPayload(d, 'plain', 1).failedClosed = true));
    expect(failing).toEqual([
      'suite.gated-aggregate-value',
      'suite.passed',
      'task.gated-score-value',
    ]);
    expect(said).toEqual([
      'task "plain": gatedScore MUST be the mean of its trial gating scores (0); host reported nothing',
      'gatedAggregateScore MUST be the mean of the task gating scores (0.5); host reported 0.666666666667',
      'suite passed MUST be false (gating aggregate 0.5 < passScore 0.6); host reported true',
    ]);
  });

  it('a trial that matched its trajectory keeps its score as gating score', () => {
    const { failing, said } = judged((d) => {
      const p = scoredPayload(d, 'wrong-path', 2);
      p.trajectoryMatched = true;
    });
    expect(failing).toEqual([
      'suite.gated-aggregate-value',
      'task.gated-score-value',
      'task.passed',
    ]);
    expect(said).toContain(
      'task "wrong-path": gatedScore MUST be the mean of its trial gating scores (1); host reported 0.5',
    );
  });

  it('a trial with no trajectoryMatched on a trajectory task falls back to the reported bound', () => {
    const { failing, rules } = judged(
      (d) => delete scoredPayload(d, 'wrong-path', 1).trajectoryMatched,
    );
    expect(failing).toEqual([]);
    // The bound form, not the mean: the per-task list still has one value finding per task.
    expect(rules.filter((r) => r === 'task.gated-score-value')).toHaveLength(3);
  });

  it('eval.scored payloads without a numeric score, and other events, are not trials', () => {
    const { failing, said } = judged((d) => {
      scoredPayload(d, 'plain', 2).score = 'zero';
      d.events.push({ sequence: 99, type: 'eval.scored', runId: 'x', payload: 'not a record' });
      d.events.push({
        sequence: 100,
        type: 'agent.decided',
        runId: 'x',
        payload: { taskId: 'plain', score: 0 },
      });
    });
    // plain keeps one trial (score 1, passed), so its gating score and decision move with it.
    expect(failing).toEqual([
      'suite.gated-aggregate-value',
      'task.gated-score-value',
      'task.passed',
      'task.score-unchanged',
    ]);
    expect(said).toContain(
      'task "plain": score MUST be the mean of its eval.scored scores (1); host reported 0.5',
    );
  });
});

describe('the per-task decision under each pass rule', () => {
  it('rule any: a task with one passed trial of two must pass', () => {
    const suite: AgentEvalSuite = { ...GATED.suite, trials: { count: 2, passRule: 'any' } };
    const { failing, said } = judged(asIs, { suite });
    expect(failing).toEqual(['task.passed']);
    expect(said).toEqual([
      'task "wrong-path": passed MUST be true (rule any, 1 of 2 trials passed); host reported false',
      'task "plain": passed MUST be true (rule any, 1 of 2 trials passed); host reported false',
    ]);
  });

  it('rule any: a task with no passed trial must fail', () => {
    const suite: AgentEvalSuite = { ...GATED.suite, trials: { count: 2, passRule: 'any' } };
    const { said } = judged((d) => (scoredPayload(d, 'plain', 1).passed = false), { suite });
    expect(said).toEqual([
      'task "wrong-path": passed MUST be true (rule any, 1 of 2 trials passed); host reported false',
    ]);
  });

  it('rule all: only the task whose every trial passed may pass', () => {
    const suite: AgentEvalSuite = { ...GATED.suite, trials: { count: 2, passRule: 'all' } };
    const { failing, said } = judged((d) => (summaryTask(d, 'plain').passed = true), { suite });
    expect(failing).toEqual(['suite.counts', 'task.passed']);
    expect(said[0]).toBe(
      'task "plain": passed MUST be false (rule all, 1 of 2 trials passed); host reported true',
    );
  });

  it('rule all without the events, or with a trial whose passed is not boolean, leaves passed unjudged', () => {
    const suite: AgentEvalSuite = { ...GATED.suite, trials: { count: 2, passRule: 'all' } };
    const unseen = judged(asIs, { suite, events: false }).rules;
    expect(unseen).toContain('suite.counts');
    expect(unseen).not.toContain('task.passed');
    const rules = judged((d) => (scoredPayload(d, 'plain', 1).passed = 'yes'), { suite }).rules;
    expect(rules.filter((r) => r === 'task.passed')).toHaveLength(2);
  });

  it('no trials block and passScore 0: a task decision is not judged, since a 0 trial could pass', () => {
    const suite: AgentEvalSuite = { ...UNGATED.suite, thresholds: { passScore: 0 } };
    const { failing, rules } = judged((d) => (summaryTask(d, 'alpha').passed = false), {
      suite,
      ungated: true,
      events: false,
    });
    expect(rules).not.toContain('task.passed');
    expect(failing).toEqual(['suite.counts']);
  });

  it('rule mean with passScore 0 still judges each task on its gating score', () => {
    const suite: AgentEvalSuite = { ...GATED.suite, thresholds: { passScore: 0 } };
    const { failing, said } = judged(asIs, { suite });
    expect(failing).toEqual(['task.passed']);
    expect(said[0]).toBe(
      'task "wrong-path": passed MUST be true (gatedScore 0.5 ≥ passScore 0); host reported false',
    );
  });
});
