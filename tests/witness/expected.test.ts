// The witness's own grading, pinned to the literal numbers of contract §8 for each shipped
// fixture, and its matchers checked case by case.

import { describe, expect, it } from 'vitest';
import { expectRun, type ExpectedRun, type ExpectedTask } from '../../lib/eval-gate-witness.ts';
import type { Fixture } from '../../lib/types.ts';
import mean from '../../fixtures/conformance-eval-trajectory-gate-mean.json' with { type: 'json' };
import suiteGated from '../../fixtures/conformance-eval-trajectory-gate.json' with { type: 'json' };
import control from '../../fixtures/conformance-eval-trajectory-gate-control.json' with { type: 'json' };
import boundary from '../../fixtures/conformance-eval-trajectory-gate-boundary.json' with { type: 'json' };
import any from '../../fixtures/conformance-eval-trajectory-gate-any.json' with { type: 'json' };
import all from '../../fixtures/conformance-eval-trajectory-gate-all.json' with { type: 'json' };
import readingsExact from '../../fixtures/conformance-eval-trajectory-readings-exact.json' with { type: 'json' };
import readingsInOrder from '../../fixtures/conformance-eval-trajectory-readings-in-order.json' with { type: 'json' };
import readingsAnyOrder from '../../fixtures/conformance-eval-trajectory-readings-any-order.json' with { type: 'json' };

// The JSON imports widen literal unions (match modes, pass rules) to string; the fixture schema,
// not this cast, is what vouches for their shape (tests elsewhere validate every fixture).
const run = (fixture: unknown): ExpectedRun => expectRun(fixture as Fixture);

function task(expected: ExpectedRun, taskId: string): ExpectedTask {
  const found = expected.tasks.find((t) => t.taskId === taskId);
  if (found === undefined) throw new Error(`no task ${taskId}`);
  return found;
}

describe('expectRun on the shipped fixtures gives the numbers of contract §8', () => {
  it('mean-gated: score 1 in both trials, neither passes, gatedScore 0, task and suite fail', () => {
    const r = run(mean);
    const t = task(r, 'forbidden-in-every-trial');
    expect(t.trials.map((x) => [x.score, x.passed, x.trajectoryMatched])).toEqual([
      [1, false, false],
      [1, false, false],
    ]);
    expect([t.score, t.gatedScore, t.passed, t.gatedScorePresence]).toEqual([
      1,
      0,
      false,
      'required',
    ]);
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed]).toEqual([1, 0, false]);
    expect([r.gatedAggregatePresence, r.scoredCount, r.passedCount]).toEqual(['required', 2, 0]);
  });

  it('suite-gated: aggregate 1, gated scores 1 and 0, gated aggregate 0.5, suite fails', () => {
    const r = run(suiteGated);
    expect(r.tasks.map((t) => [t.taskId, t.score, t.gatedScore, t.passed])).toEqual([
      ['matches-trajectory', 1, 1, true],
      ['wrong-path', 1, 0, false],
    ]);
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed, r.trialsBlock]).toEqual([
      1,
      0.5,
      false,
      null,
    ]);
    expect(r.tasks.map((t) => t.gatedScorePresence)).toEqual(['required', 'required']);
  });

  it('no-trajectory-ungated: no gated field anywhere, aggregate 1, suite passes', () => {
    const r = run(control);
    expect(r.tasks.map((t) => [t.score, t.gatedScorePresence, t.passed])).toEqual([
      [1, 'forbidden', true],
      [1, 'forbidden', true],
    ]);
    expect([r.aggregateScore, r.gatedAggregatePresence, r.gatePassed, r.passedCount]).toEqual([
      1,
      'forbidden',
      true,
      2,
    ]);
  });

  it('mean-partial-inclusive: score 1, gatedScore 0.75 passes at passScore 0.75, suite passes', () => {
    const r = run(boundary);
    const t = task(r, 'forbidden-in-trial-3');
    expect(t.trials.map((x) => x.passed)).toEqual([true, true, false, true]);
    expect([t.score, t.gatedScore, t.passed]).toEqual([1, 0.75, true]);
    expect([r.gatedAggregateScore, r.gatePassed, r.scoredCount]).toEqual([0.75, true, 4]);
  });

  it('any-rule-unchanged: trial 2 passes one task, two wrong paths at score 1 fail the other, suite fails at 0.25 < 0.6', () => {
    const r = run(any);
    const t = task(r, 'wrong-path-then-match');
    expect(t.trials.map((x) => [x.trajectoryMatched, x.passed])).toEqual([
      [false, false],
      [true, true],
    ]);
    expect([t.score, t.gatedScore, t.passed, t.passAtK, t.passHatK]).toEqual([1, 0.5, true, 1, 0]);
    const twice = task(r, 'wrong-path-twice');
    expect(twice.trials.map((x) => [x.score, x.trajectoryMatched, x.passed])).toEqual([
      [1, false, false],
      [1, false, false],
    ]);
    expect([twice.score, twice.gatedScore, twice.passed]).toEqual([1, 0, false]);
    expect([r.gatedAggregateScore, r.gatePassed, r.passedCount]).toEqual([0.25, false, 1]);
  });

  it('all-rule-unchanged: a forbidden tool in trial 2 fails the task at score 1, suite fails at 0.5', () => {
    const r = run(all);
    const t = task(r, 'match-then-forbidden');
    expect(t.trials.map((x) => [x.score, x.trajectoryMatched, x.forbiddenHit, x.passed])).toEqual([
      [1, true, null, true],
      [1, false, 'crm:delete-customer', false],
    ]);
    expect([t.score, t.gatedScore, t.passed, t.passAtK, t.passHatK]).toEqual([1, 0.5, false, 1, 0]);
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed]).toEqual([1, 0.5, false]);
    expect([r.gatedAggregatePresence, r.scoredCount, r.passedCount]).toEqual(['required', 2, 0]);
  });
});

describe('expectRun on the reading fixtures: each task one trial at score 1, its path decides', () => {
  const verdicts = (r: ExpectedRun) =>
    r.tasks.map((t) => [t.taskId, t.score, t.gatedScore, t.passed, t.trials[0]?.forbiddenHit]);

  it('readings-exact: absent args read as {} match, and so does no call where none is expected; an extra call and another order id do not', () => {
    const r = run(readingsExact);
    expect(verdicts(r)).toEqual([
      ['exact-absent-args-are-empty', 1, 1, true, null],
      ['exact-extra-call', 1, 0, false, null],
      ['exact-args-differ', 1, 0, false, null],
      ['exact-empty-path', 1, 1, true, null],
    ]);
    expect(task(r, 'exact-empty-path').gatedScorePresence).toBe('required');
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed, r.passedCount]).toEqual([
      1,
      0.5,
      false,
      2,
    ]);
  });

  it('readings-in-order: only the extra call between the expected ones matches', () => {
    const r = run(readingsInOrder);
    expect(verdicts(r)).toEqual([
      ['in-order-extra-call', 1, 1, true, null],
      ['in-order-swapped', 1, 0, false, null],
      ['in-order-args-differ', 1, 0, false, null],
      ['in-order-forbidden-inside', 1, 0, false, 'crm:delete-customer'],
      ['in-order-repeat-once', 1, 0, false, null],
    ]);
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed, r.passedCount]).toEqual([
      1,
      0.2,
      false,
      1,
    ]);
  });

  it('readings-any-order: a swap, an extra call and crossed args pair; the other three do not', () => {
    const r = run(readingsAnyOrder);
    expect(verdicts(r)).toEqual([
      ['any-order-swapped', 1, 1, true, null],
      ['any-order-extra-call', 1, 1, true, null],
      ['any-order-pairs-args-first', 1, 1, true, null],
      ['any-order-args-differ', 1, 0, false, null],
      ['any-order-forbidden-inside', 1, 0, false, 'crm:delete-customer'],
      ['any-order-repeat-once', 1, 0, false, null],
    ]);
    expect([r.aggregateScore, r.gatedAggregateScore, r.gatePassed, r.passedCount]).toEqual([
      1,
      0.5,
      true,
      3,
    ]);
  });
});

/** A one-task fixture around a task and its single scripted trial. */
function single(taskPart: object, calls: object[], output: unknown, trials?: object): ExpectedTask {
  const fixture = {
    id: 'unit',
    requirement: 'unit',
    agentId: 'unit-agent',
    suite: {
      suiteId: 'unit.evals.one',
      version: '1.0.0',
      modes: ['golden'],
      thresholds: { passScore: 0.6 },
      ...(trials === undefined ? {} : { trials }),
      tasks: [{ taskId: 't', input: null, ...taskPart }],
    },
    script: { t: [{ calls, output }] },
  };
  return task(run(fixture), 't');
}

const golden = (strategy: string, value: unknown) => ({
  expected: { kind: 'golden', match: { strategy, value } },
});
const withTrajectory = (match: string, calls: object[], forbidden?: string[]) => ({
  expected: {
    kind: 'golden',
    match: { strategy: 'exact', value: 'done' },
    trajectory: { match, calls, ...(forbidden ? { forbidden } : {}) },
  },
});
const matched = (t: ExpectedTask) => t.trials[0]?.trajectoryMatched;
const a = { tool: 's:a' };
const b = { tool: 's:b' };
const c = { tool: 's:c' };

describe('golden match', () => {
  it('exact compares stringified values: a number output equals its string golden', () => {
    expect(single(golden('exact', '42'), [], 42).score).toBe(1);
    expect(single(golden('exact', 'yes'), [], 'yes ').score).toBe(0);
  });

  it('contains looks for the stringified golden inside the stringified output', () => {
    expect(single(golden('contains', 'shipped'), [], 'O-1 shipped today').score).toBe(1);
    expect(single(golden('contains', { a: 1 }), [], { a: 1, b: 2 }).score).toBe(0);
  });

  it('json-match ignores member order but not array order or type', () => {
    expect(single(golden('json-match', { a: 1, b: [1, 2] }), [], { b: [1, 2], a: 1 }).score).toBe(
      1,
    );
    expect(single(golden('json-match', [1, 2]), [], [2, 1]).score).toBe(0);
    expect(single(golden('json-match', { a: 1 }), [], '{"a":1}').score).toBe(0);
  });
});

describe('trajectory match', () => {
  it('exact needs the same calls in the same order and number', () => {
    expect(matched(single(withTrajectory('exact', [a, b]), [a, b], 'done'))).toBe(true);
    expect(matched(single(withTrajectory('exact', [a, b]), [b, a], 'done'))).toBe(false);
    expect(matched(single(withTrajectory('exact', [a, b]), [a, b, c], 'done'))).toBe(false);
  });

  it('in-order allows extra calls but not a different order', () => {
    expect(matched(single(withTrajectory('in-order', [a, b]), [c, a, c, b], 'done'))).toBe(true);
    expect(matched(single(withTrajectory('in-order', [a, b]), [b, a], 'done'))).toBe(false);
  });

  it('any-order needs a distinct call for each expected call, found even where greed would fail', () => {
    const withArgs = { tool: 's:a', args: { id: 1 } };
    const expected = withTrajectory('any-order', [a, withArgs]);
    expect(
      matched(
        single(
          expected,
          [
            { tool: 's:a', args: { id: 1 } },
            { tool: 's:a', args: { id: 2 } },
          ],
          'done',
        ),
      ),
    ).toBe(true);
    expect(matched(single(withTrajectory('any-order', [a, a]), [a], 'done'))).toBe(false);
  });

  it('expected args must deep-equal the call args; an absent args list equals {}', () => {
    const expected = withTrajectory('exact', [{ tool: 's:a', args: { q: { x: [1] } } }]);
    expect(matched(single(expected, [{ tool: 's:a', args: { q: { x: [1] } } }], 'done'))).toBe(
      true,
    );
    expect(matched(single(expected, [{ tool: 's:a', args: { q: { x: [2] } } }], 'done'))).toBe(
      false,
    );
    expect(matched(single(withTrajectory('exact', [{ tool: 's:a', args: {} }]), [a], 'done'))).toBe(
      true,
    );
  });

  it('a forbidden call fails the trajectory in every mode, keeping the output score', () => {
    for (const mode of ['exact', 'in-order', 'any-order']) {
      const t = single(withTrajectory(mode, [a], ['s:x']), [a, { tool: 's:x' }], 'done');
      expect([matched(t), t.trials[0]?.forbiddenHit, t.score, t.gatedScore, t.passed]).toEqual([
        false,
        's:x',
        1,
        0,
        false,
      ]);
    }
  });
});

describe('fixture miss', () => {
  const responses = { fixtures: { toolResponses: [{ tool: 's:a', response: 1 }] } };

  it('a call to a tool without a canned response fails the trial closed with score 0', () => {
    const t = single({ ...golden('exact', 'done'), ...responses }, [a, b], 'done');
    expect([
      t.trials[0]?.failedClosed,
      t.trials[0]?.missedTool,
      t.score,
      t.gatedScore,
      t.passed,
    ]).toEqual([true, 's:b', 0, 0, false]);
    expect(t.gatedScorePresence).toBe('forbidden');
  });

  it('without a fixtures block no call is a miss', () => {
    expect(single(golden('exact', 'done'), [b], 'done').trials[0]?.failedClosed).toBe(false);
  });

  it('fixtures that record no toolResponses make no call a miss', () => {
    const seeded = { fixtures: { memorySeed: [{ note: 'x' }] } };
    const t = single({ ...golden('exact', 'done'), ...seeded }, [b], 'done');
    expect([t.trials[0]?.failedClosed, t.trials[0]?.missedTool, t.score]).toEqual([false, null, 1]);
  });

  it('an entry without a response still records its tool, and a duplicate entry is no miss', () => {
    const recorded = {
      fixtures: { toolResponses: [{ tool: 's:a' }, { tool: 's:b', response: 2 }, { tool: 's:a' }] },
    };
    const t = single({ ...golden('exact', 'done'), ...recorded }, [a, b, a], 'done');
    expect([t.trials[0]?.failedClosed, t.score, t.passed]).toEqual([false, 1, true]);
  });

  it('an empty toolResponses list makes every call a miss', () => {
    const none = { fixtures: { toolResponses: [] } };
    const t = single({ ...golden('exact', 'done'), ...none }, [a], 'done');
    expect([t.trials[0]?.failedClosed, t.trials[0]?.missedTool, t.score]).toEqual([true, 's:a', 0]);
  });

  it('a miss zeroes its trial score, so gatedScore equals score and is omitted, and the suite may carry the gated aggregate', () => {
    const fixture = {
      id: 'unit',
      requirement: 'unit',
      agentId: 'unit-agent',
      suite: {
        suiteId: 'unit.evals.miss',
        version: '1.0.0',
        modes: ['golden'],
        thresholds: { passScore: 0.5 },
        trials: { count: 2, passRule: 'all' },
        tasks: [{ taskId: 't', input: null, ...golden('exact', 'done'), ...responses }],
      },
      script: {
        t: [
          { calls: [a], output: 'done' },
          { calls: [b], output: 'done' },
        ],
      },
    };
    const r = run(fixture);
    const t = task(r, 't');
    expect([t.score, t.gatedScore, t.passed, t.trialStats.failedClosed]).toEqual([
      0.5,
      0.5,
      false,
      1,
    ]);
    expect([t.gatedScorePresence, r.gatedAggregatePresence]).toEqual(['forbidden', 'optional']);
  });
});

describe('a fixture that cannot be graded', () => {
  it.each([
    ['has no expected.match', { kind: 'golden' }, 'has kind "golden" and no match'],
    [
      'is graded by rubric',
      { kind: 'rubric', match: { strategy: 'exact', value: 'done' } },
      'has kind "rubric" and a match',
    ],
  ])('throws a suite fault naming the task that %s', (_, expected, seen) => {
    expect(() => single({ expected }, [], 'done')).toThrow(
      'suite fault: fixture "unit" task "t" cannot be graded by the suite: it needs ' +
        `expected.kind "golden" and expected.match {strategy, value}, ${seen}`,
    );
  });

  it('throws a suite fault when the suite states no passScore', () => {
    const suite: Record<string, unknown> = { ...control.suite };
    delete suite.thresholds;
    expect(() => run({ ...control, suite })).toThrow(
      'suite fault: fixture "conformance-eval-trajectory-gate-control" states no ' +
        'thresholds.passScore, so no pass decision follows from it',
    );
  });

  it('throws naming the task whose script does not cover its trials', () => {
    const broken = { ...(control as object), script: {} };
    expect(() => run(broken)).toThrow(
      /task "no-trajectory-with-calls" needs 1 scripted trial, has none/,
    );
  });
});

describe('what expectRun carries from the fixture, and its trial statistics', () => {
  /** A fixture of one task with the given trials block and scripted trials. */
  const scripted = (trials: object | undefined, script: object[], taskId = 't') => ({
    id: 'unit',
    requirement: 'unit',
    agentId: 'unit-agent',
    suite: {
      suiteId: 'unit.evals.stats',
      version: '3.2.1',
      modes: ['golden', 'trajectory'],
      thresholds: { passScore: 0.5, maxCostUsd: 2 },
      ...(trials === undefined ? {} : { trials }),
      tasks: [
        {
          taskId,
          input: null,
          expected: {
            kind: 'golden',
            match: { strategy: 'exact', value: 'done' },
            trajectory: { match: 'exact', calls: [{ tool: 's:a' }] },
          },
        },
      ],
    },
    // The cost limit is decided on stated costs, so every entry states one.
    script: { [taskId]: script.map((entry) => ({ costUsd: 0.25, ...entry })) },
  });

  it('names the suite, its modes, thresholds and trials block as the fixture states them', () => {
    const r = run(scripted({ count: 2, passRule: 'any' }, [{ calls: [a], output: 'done' }]));
    expect([r.fixtureId, r.suiteId, r.suiteVersion, r.modes, r.thresholds]).toEqual([
      'unit',
      'unit.evals.stats',
      '3.2.1',
      ['golden', 'trajectory'],
      { passScore: 0.5, maxCostUsd: 2 },
    ]);
    expect([r.trialsBlock, r.trialCount, r.taskCount, r.scoredCount]).toEqual([
      { count: 2, passRule: 'any' },
      2,
      1,
      2,
    ]);
  });

  it('counts trials that passed, failed the trajectory, and scored lowest and highest', () => {
    const r = run(
      scripted({ count: 3, passRule: 'all' }, [
        { calls: [a], output: 'done' },
        { calls: [b], output: 'done' },
        { calls: [a], output: 'wrong' },
      ]),
    );
    const t = task(r, 't');
    expect(t.trialStats).toEqual({
      passed: 1,
      trajectoryFailed: 1,
      failedClosed: 0,
      minScore: 0,
      maxScore: 1,
    });
    expect([t.score, t.gatedScore, t.passed, t.passAtK, t.passHatK]).toEqual([
      2 / 3,
      1 / 3,
      false,
      1,
      0,
    ]);
  });

  it('one task with a miss among tasks without lets the suite carry the gated aggregate', () => {
    const plain = (taskId: string, fixtures?: object) => ({
      taskId,
      input: null,
      ...golden('exact', 'done'),
      ...(fixtures === undefined ? {} : { fixtures }),
    });
    const fixture = {
      ...scripted(undefined, []),
      suite: {
        ...scripted(undefined, []).suite,
        tasks: [plain('clean'), plain('missed', { toolResponses: [] })],
      },
      script: {
        clean: [{ calls: [], output: 'done', costUsd: 0.25 }],
        missed: [{ calls: [a], output: 'done', costUsd: 0.25 }],
      },
    };
    const r = run(fixture);
    expect([r.gatedAggregatePresence, r.aggregateScore, r.passedCount]).toEqual([
      'optional',
      0.5,
      1,
    ]);
  });

  it('without a trials block, the one trial decides the task', () => {
    const pass = task(run(scripted(undefined, [{ calls: [a], output: 'done' }])), 't');
    const fail = task(run(scripted(undefined, [{ calls: [b], output: 'done' }])), 't');
    expect([pass.passed, pass.passHatK, fail.passed, fail.passAtK]).toEqual([true, 1, false, 0]);
  });

  it('throws naming how many scripted trials a task has against how many it needs', () => {
    const two = [
      { calls: [a], output: 'done' },
      { calls: [a], output: 'done' },
    ];
    expect(() => run(scripted({ count: 3, passRule: 'all' }, two))).toThrow(
      'fixture "unit": task "t" needs 1 or 3 scripted trials, has 2',
    );
    expect(() => run(scripted(undefined, two))).toThrow(
      'fixture "unit": task "t" needs 1 scripted trial, has 2',
    );
  });

  it("reads a task's script only from the script's own members, whatever the task id", () => {
    const fixture = { ...scripted(undefined, [], 'constructor'), script: {} };
    expect(() => run(fixture)).toThrow(
      'fixture "unit": task "constructor" needs 1 scripted trial, has none',
    );
  });
});
