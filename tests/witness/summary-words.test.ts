// The suite-level rules (lib/witness/summary.ts) in words: each test changes one thing in a
// correct summary, its eval.completed, or the suite's limits, names every rule that must then
// fail, and pins the numbers and the reasons the suite finding gives.

import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../lib/types.ts';
import { eventOf, GATED, limited, summaryOf, summaryTask, UNGATED, type Draft } from './build.ts';
import { judgedBy, type JudgedBy } from './mutate.ts';

const OWN = /^(summary\.|suite\.|completed\.)/;

const judge = (fixture: Fixture, mutate?: (d: Draft) => void): JudgedBy =>
  judgedBy(OWN, fixture, mutate);

const PASSED = (reasons: string, decider: string, host = 'true'): string =>
  `suite passed MUST be false (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, ${reasons}: the ${decider} condition decides it); host reported ${host}`;

describe('a correct summary, in words', () => {
  it('the gated run names the suite, both aggregates with the gating scores, and the counts', () => {
    expect(judge(GATED).own).toEqual([
      'the summary validates against eval-summary',
      'the summary names witness.evals.gated@2.1.0 and each of its 3 tasks once',
      'aggregateScore MUST be 0.833333333333 (mean of the 3 task scores); host reported 0.833333333333',
      'a suite with a trajectory task MUST carry gatedAggregateScore; host reported 0.666666666667',
      'gatedAggregateScore MUST be 0.666666666667 (mean of the 3 task gating scores 1, 0.5, 0.5); host reported 0.666666666667',
      'suite passed MUST be true (gatedAggregateScore 0.666666666667 ≥ passScore 0.6); host reported true',
      'taskCount MUST be 3 and passedCount 1 (tasks reported passed); host reported 3 and 1',
      "eval.completed's passed, aggregateScore, taskCount and passedCount equal the summary's",
    ]);
  });

  it('the ungated run judges the absence of the gated aggregate', () => {
    expect(judge(UNGATED).own).toEqual([
      'the summary validates against eval-summary',
      'the summary names witness.evals.ungated@1.0.0 and each of its 2 tasks once',
      'aggregateScore MUST be 1 (mean of the 2 task scores); host reported 1',
      'a suite with no trajectory and no fixture miss MUST NOT carry gatedAggregateScore; host reported nothing',
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate); host reported true',
      'taskCount MUST be 2 and passedCount 2 (tasks reported passed); host reported 2 and 2',
      "eval.completed's passed, aggregateScore, taskCount and passedCount equal the summary's",
    ]);
  });

  it('a gatedAggregateScore on an ungated suite fails its absence, and is still compared', () => {
    const { failing, own: words } = judge(UNGATED, (d) => (summaryOf(d).gatedAggregateScore = 1));
    expect(failing).toEqual(['suite.gated-aggregate-absent']);
    expect(words).toContain(
      'gatedAggregateScore MUST be 1 (mean of the 2 task gating scores 1, 1); host reported 1',
    );
  });

  it('lists at most five gating scores, marking the rest', () => {
    for (const [count, tail] of [
      [5, ''],
      [6, ', …'],
    ] as const) {
      const alpha = UNGATED.suite.tasks[0] as (typeof UNGATED.suite.tasks)[number];
      const extra = Array.from({ length: count - 2 }, (_, k) => `alpha-${k + 2}`);
      const fixture: Fixture = {
        ...UNGATED,
        suite: {
          ...UNGATED.suite,
          tasks: [...UNGATED.suite.tasks, ...extra.map((taskId) => ({ ...alpha, taskId }))],
        },
        script: {
          ...UNGATED.script,
          ...Object.fromEntries(extra.map((taskId) => [taskId, UNGATED.script.alpha ?? []])),
        },
      };
      const { own: words } = judge(fixture, (draft) => {
        const entry = summaryTask(draft, 'alpha');
        const summary = summaryOf(draft);
        (summary.tasks as unknown[]).push(...extra.map((taskId) => ({ ...entry, taskId })));
        Object.assign(summary, { taskCount: count, passedCount: count, gatedAggregateScore: 1 });
        delete summary.totalCostUsd;
      });
      expect(words).toContain(
        `gatedAggregateScore MUST be 1 (mean of the ${count} task gating scores 1, 1, 1, 1, 1${tail}); host reported 1`,
      );
    }
  });
});

describe('summary.schema and summary.identity', () => {
  it('a surplus task entry is left out of the schema check, saying so, and fails identity', () => {
    const { failing, own: words } = judge(GATED, (d) => {
      const tasks = summaryOf(d).tasks as Record<string, unknown>[];
      tasks.push({ ...tasks[0], taskId: 'ghost' });
    });
    expect(failing).toEqual(['suite.counts', 'summary.identity']);
    expect(words.slice(0, 2)).toEqual([
      'the summary validates against eval-summary (first 3 of 4 task entries checked)',
      'the summary MUST name the suite and list each task once; unknown task the string "ghost"',
    ]);
  });

  it('lists the members an object has in excess in one line', () => {
    const { failing, said } = judge(GATED, (d) =>
      Object.assign(summaryOf(d), { a: 1, b: 2, c: 3, e: 4 }),
    );
    expect(failing).toEqual(['summary.schema']);
    expect(said[0]).toBe(
      'the summary MUST validate against eval-summary: eval-summary# additionalProperties: must NOT have additional properties (a, b, c, e)',
    );
  });

  it('a wrong suiteId, suiteVersion and tasks member are each named', () => {
    const { said } = judge(GATED, (d) =>
      Object.assign(summaryOf(d), { suiteId: 1, suiteVersion: 'v', tasks: 'x' }),
    );
    expect(said[1]).toBe(
      'the summary MUST name the suite and list each task once; suiteId MUST be "witness.evals.gated", host reported 1; suiteVersion MUST be "2.1.0", host reported the string "v"; tasks MUST be an array, host reported the string "x"',
    );
  });

  it('a missing task, a repeated one and unnamed entries are each named', () => {
    const { said } = judge(GATED, (d) => {
      const tasks = summaryOf(d).tasks as unknown[];
      tasks[1] = { ...(tasks[0] as object) };
      tasks.push({ score: 1 }, { taskId: 5 });
    });
    expect(said[0]).toBe(
      'the summary MUST name the suite and list each task once; 1 task missing, first "wrong-path"; task "right-path" listed more than once; entries without a string taskId: 2',
    );
  });
});

describe('suite.passed with cost and latency limits', () => {
  it('a total cost at the limit holds, and above it fails, giving both', () => {
    expect(judge(limited({ maxCostUsd: 0.03 })).own).toContain(
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, stated cost 0.03 ≤ maxCostUsd 0.03: every condition holds); host reported true',
    );
    const { failing, said } = judge(limited({ maxCostUsd: 0.029 }));
    expect(failing).toEqual(['suite.passed']);
    expect(said).toEqual([PASSED('stated cost 0.03 > maxCostUsd 0.029', 'maxCostUsd')]);
  });

  it('without totalCostUsd the task costs still show the host reports cost, so the limit decides', () => {
    const { said } = judge(limited({ maxCostUsd: 0.02 }), (d) => delete summaryOf(d).totalCostUsd);
    expect(said).toEqual([PASSED('stated cost 0.03 > maxCostUsd 0.02', 'maxCostUsd')]);
  });

  it('the stated figures decide, whatever cost the host reports', () => {
    const { failing, said } = judge(limited({ maxCostUsd: 0.02 }), (d) => {
      summaryOf(d).totalCostUsd = 0;
    });
    expect(failing).toEqual(['limits.figures', 'suite.passed']);
    expect(said).toEqual([PASSED('stated cost 0.03 > maxCostUsd 0.02', 'maxCostUsd')]);
  });

  it('with no cost reported at all the stated cost still decides passed', () => {
    const bare = (d: Draft): void => {
      delete summaryOf(d).totalCostUsd;
      delete summaryTask(d, 'beta').costUsd;
    };
    const { failing, own: words } = judge(limited({ maxCostUsd: 1 }), bare);
    expect(failing).toEqual([]);
    expect(words).toContain(
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, stated cost 0.03 ≤ maxCostUsd 1: every condition holds); host reported true',
    );
    const over = judge(limited({ maxCostUsd: 0.02 }), bare);
    expect(over.failing).toEqual(['suite.passed']);
    expect(over.said).toEqual([PASSED('stated cost 0.03 > maxCostUsd 0.02', 'maxCostUsd')]);
  });

  it('the p95 latency is the nearest-rank 95th percentile, inclusive at the limit', () => {
    expect(judge(limited({ maxP95LatencyMs: 120 })).own).toContain(
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, stated p95 latency 120 ≤ maxP95LatencyMs 120: every condition holds); host reported true',
    );
    const { failing, said } = judge(limited({ maxP95LatencyMs: 119 }));
    expect(failing).toEqual(['suite.passed']);
    expect(said).toEqual([
      PASSED('stated p95 latency 120 > maxP95LatencyMs 119', 'maxP95LatencyMs'),
    ]);
  });

  it('a missing latency leaves the stated p95 to decide, beside a cost limit already broken', () => {
    const { failing, own: words } = judge(limited({ maxP95LatencyMs: 1000 }), (d) => {
      delete summaryTask(d, 'beta').latencyMs;
    });
    expect(failing).toEqual([]);
    expect(words).toContain(
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, stated p95 latency 120 ≤ maxP95LatencyMs 1000: every condition holds); host reported true',
    );
    const both = judge(limited({ maxP95LatencyMs: 1000, maxCostUsd: 0.01 }), (d) => {
      delete summaryTask(d, 'beta').latencyMs;
    });
    expect(both.said).toEqual([
      PASSED(
        'stated cost 0.03 > maxCostUsd 0.01, stated p95 latency 120 ≤ maxP95LatencyMs 1000',
        'maxCostUsd',
      ),
    ]);
  });

  it('a summary with no task entries is still judged on the stated figures', () => {
    const { own: words } = judge(limited({ maxP95LatencyMs: 1000, maxCostUsd: 1 }), (d) => {
      delete summaryOf(d).totalCostUsd;
      summaryOf(d).tasks = [];
    });
    expect(words).toContain(
      'suite passed MUST be true (aggregateScore 1 ≥ passScore 0.6 with no trajectory to gate, stated cost 0.03 ≤ maxCostUsd 1, stated p95 latency 120 ≤ maxP95LatencyMs 1000: every condition holds); host reported true',
    );
  });
});

describe('completed.consistent lists each member that differs', () => {
  it('passed, a number sent as a string, and a member the summary lacks', () => {
    const { failing, said } = judge(GATED, (d) => {
      const p = eventOf(d, 'eval.completed').payload as Record<string, unknown>;
      p.passed = false;
      p.aggregateScore = '0.83';
      delete summaryOf(d).passedCount;
    });
    expect(failing).toEqual([
      'completed.consistent',
      'events.payload-schema',
      'suite.counts',
      'summary.schema',
    ]);
    expect(said.at(-1)).toBe(
      'eval.completed MUST agree with the summary; passed false vs true; aggregateScore the string "0.83" vs 0.833333333333; passedCount 1 vs nothing',
    );
  });

  it('no eval.completed: nothing to compare, so no finding', () => {
    const { own: words } = judge(GATED, (d) => (eventOf(d, 'eval.completed').type = 'x.note'));
    expect(words[0]).toBe('the summary validates against eval-summary');
    expect(words.some((m) => m.includes('eval.completed'))).toBe(false);
  });
});
