// The cost and latency conditions of suite passed (RFC 0246 §B) and the fail-closed miss (§A),
// on the shipped fixtures that drive them: the numbers the witness expects, the words of the
// findings that decide, and how a host that reports no figures is judged all the same. Correct
// runs come from the property tests' oracle, which shares no code with the witness.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectRun, judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import type { Fixture, RunObservation } from '../../lib/types.ts';
import { observe, oracle, grade } from '../property/oracle.ts';

const COST = 'conformance-eval-trajectory-gate-cost-limit';
const LATENCY = 'conformance-eval-trajectory-gate-latency-limit';
const HOLD = 'conformance-eval-trajectory-gate-limits-hold';
const MISS = 'conformance-eval-trajectory-gate-miss';

const fixtures = new Map<string, Fixture>();
beforeAll(async () => {
  for (const id of [COST, LATENCY, HOLD, MISS]) {
    const loaded = await loadFixture(id);
    if (!loaded.ok) throw new Error(loaded.reason);
    fixtures.set(id, loaded.fixture);
  }
});
const shipped = (id: string): Fixture => fixtures.get(id) as Fixture;

type Doc = Record<string, unknown>;
/** A deep copy of a correct observation with `change` applied to its summary and payloads. */
function changed(
  observation: RunObservation,
  change: (summary: Doc, payloads: Doc[]) => void,
): RunObservation {
  const copy = structuredClone(observation) as RunObservation;
  const payloads = copy.events
    .filter((e) => typeof e.type === 'string' && e.type.startsWith('eval.'))
    .map((e) => e.payload as Doc);
  change(copy.summary as Doc, payloads);
  return copy;
}
const tasksOf = (summary: Doc): Doc[] => summary['tasks'] as Doc[];
const scoredOf = (payloads: Doc[]): Doc[] => payloads.filter((p) => 'taskId' in p);
const said = (fixture: Fixture, observation: RunObservation, rule: string): string[] =>
  judgeEvalRun(fixture, observation)
    .filter((f) => f.rule === rule)
    .map((f) => f.message);

describe('what the witness expects of the limit and miss fixtures', () => {
  it('cost-limit: each trial costs 0.03, within maxCostUsd 0.05, and the stated total 0.06 exceeds it', () => {
    const run = expectRun(shipped(COST));
    const costs = run.tasks.flatMap((t) => t.trials.map((r) => r.costUsd));
    expect(costs.every((c) => c !== null && c <= 0.05)).toBe(true);
    expect([run.gatePassed, run.passed, run.limits]).toEqual([
      true,
      false,
      [{ threshold: 'maxCostUsd', limit: 0.05, figure: 0.06, figureName: 'cost', kept: false }],
    ]);
  });

  it('latency-limit: the p95 3000 exceeds 2000 while the mean, median and minimum do not', () => {
    const run = expectRun(shipped(LATENCY));
    const latencies = run.tasks.flatMap((t) => t.trials.map((r) => r.latencyMs ?? NaN));
    const sorted = [...latencies].sort((a, b) => a - b);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    // The interpolated p95 (rank 0.95 × (n − 1)) and the maximum read the same top value.
    const rank = 0.95 * (sorted.length - 1);
    const low = sorted[Math.floor(rank)] ?? NaN;
    const high = sorted[Math.ceil(rank)] ?? NaN;
    const interpolated = low + (high - low) * (rank - Math.floor(rank));
    const half = sorted.length / 2;
    expect([mean, (sorted[half - 1] ?? NaN) / 2 + (sorted[half] ?? NaN) / 2, sorted[0]]).toEqual([
      1750, 1750, 500,
    ]);
    expect([interpolated, Math.max(...latencies)]).toEqual([3000, 3000]);
    expect([run.gatePassed, run.passed, run.limits.map((l) => [l.figure, l.kept])]).toEqual([
      true,
      false,
      [[3000, false]],
    ]);
  });

  it('limits-hold: the total cost and the p95 sit exactly on their inclusive limits, so passed is true', () => {
    const run = expectRun(shipped(HOLD));
    expect([run.passed, run.limits.map((l) => [l.threshold, l.figure, l.limit, l.kept])]).toEqual([
      true,
      [
        ['maxCostUsd', 0.5, 0.5, true],
        ['maxP95LatencyMs', 100, 100, true],
      ],
    ]);
  });

  it('miss: trial 1 fails closed and gates to 0, so the mean of 0.5 fails task and suite', () => {
    const run = expectRun(shipped(MISS));
    const [task] = run.tasks;
    expect(task?.trials.map((t) => [t.missedTool, t.failedClosed, t.score, t.gatingScore])).toEqual(
      [
        ['crm:lookup-orders', true, 0, 0],
        [null, false, 1, 1],
      ],
    );
    expect([task?.score, task?.gatedScore, task?.passed]).toEqual([0.5, 0.5, false]);
    expect([run.aggregateScore, run.gatedAggregateScore, run.passed, run.limits]).toEqual([
      0.5,
      0.5,
      false,
      [],
    ]);
  });
});

describe('suite.passed names the condition that decided it, with the numbers', () => {
  it('a correct host passes every finding and hears which limit decided', () => {
    const observation = oracle(shipped(COST));
    expect(mustFailures(judgeEvalRun(shipped(COST), observation))).toEqual([]);
    expect(said(shipped(COST), observation, 'suite.passed')).toEqual([
      'suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated cost 0.06 > maxCostUsd 0.05: the maxCostUsd condition decides it); host reported false',
    ]);
    expect(said(shipped(COST), observation, 'limits.figures')).toEqual([
      'the 5 cost and latency figures the host reports are the ones the script states',
    ]);
  });

  it('a host that drops the latency limit is told so', () => {
    const observation = changed(oracle(shipped(LATENCY)), (summary, payloads) => {
      summary['passed'] = true;
      const completed = payloads.at(-1) as Doc;
      completed['passed'] = true;
    });
    const failed = mustFailures(judgeEvalRun(shipped(LATENCY), observation));
    expect(failed.map((f) => f.rule)).toEqual(['suite.passed']);
    expect(failed[0]?.message).toBe(
      'suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated p95 latency 3000 > maxP95LatencyMs 2000: the maxP95LatencyMs condition decides it); host reported true',
    );
  });

  it('the score condition decides before any limit when the gate does not clear', () => {
    const base = shipped(HOLD);
    const [first] = base.suite.tasks;
    const wrong = { ...base, script: { ...base.script } } as Fixture;
    const id = first?.taskId ?? '';
    (wrong.script as Record<string, unknown>)[id] = (base.script[id] ?? []).map((e) => ({
      ...e,
      output: 'something else',
    }));
    expect(said(wrong, oracle(wrong), 'suite.passed')).toEqual([
      'suite passed MUST be false (gatedAggregateScore 0.5 < passScore 0.6, stated cost 0.5 ≤ maxCostUsd 0.5, stated p95 latency 100 ≤ maxP95LatencyMs 100: the score condition decides it); host reported false',
    ]);
  });
});

describe('a host that reports no figures for a declared limit', () => {
  const bare = (id: string): RunObservation =>
    changed(oracle(shipped(id)), (summary, payloads) => {
      delete summary['totalCostUsd'];
      for (const t of tasksOf(summary)) {
        delete t['costUsd'];
        delete t['latencyMs'];
      }
      for (const p of scoredOf(payloads)) {
        delete p['costUsd'];
        delete p['latencyMs'];
      }
    });
  /** The bare run of `id` with suite passed (and eval.completed's) set to `passed`. */
  const decidedAs = (id: string, passed: boolean): RunObservation =>
    changed(bare(id), (summary, payloads) => {
      summary['passed'] = passed;
      (payloads.at(-1) as Doc)['passed'] = passed;
    });

  it('is judged on the stated figures: a right passed holds every MUST rule', () => {
    for (const id of [COST, LATENCY, HOLD]) {
      expect(mustFailures(judgeEvalRun(shipped(id), bare(id))), id).toEqual([]);
      expect(said(shipped(id), bare(id), 'limits.figures'), id).toEqual([]);
    }
  });

  it('fails suite.passed when it also drops the limits, naming the stated figure that decides', () => {
    const failed = mustFailures(judgeEvalRun(shipped(COST), decidedAs(COST, true)));
    expect(failed.map((f) => f.rule)).toEqual(['suite.passed']);
    expect(failed[0]?.message).toBe(
      'suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated cost 0.06 > maxCostUsd 0.05: the maxCostUsd condition decides it); host reported true',
    );
    expect(
      mustFailures(judgeEvalRun(shipped(LATENCY), decidedAs(LATENCY, true))).map((f) => f.rule),
    ).toEqual(['suite.passed']);
  });

  it('fails suite.passed on a run exactly on its limits that it calls over them', () => {
    const failed = mustFailures(judgeEvalRun(shipped(HOLD), decidedAs(HOLD, false)));
    expect(failed.map((f) => f.rule)).toEqual(['suite.passed']);
  });
});

describe('limits.figures: the reported figures are the stated ones', () => {
  it('names each disagreeing member with both numbers, three at most, then counts the rest', () => {
    const seconds = changed(oracle(shipped(LATENCY)), (summary, payloads) => {
      for (const t of tasksOf(summary)) t['latencyMs'] = 3;
      for (const p of scoredOf(payloads)) p['latencyMs'] = 3;
    });
    const failed = mustFailures(judgeEvalRun(shipped(LATENCY), seconds));
    expect(failed.map((f) => [f.rule, f.ref])).toEqual([
      ['limits.figures', 'RFC 0246 §B, contract §3 [0244-assumed]'],
    ]);
    expect(failed[0]?.message).toBe(
      'cost and latency the host reports MUST be the ones the script states: ' +
        'eval.scored of task "tier-of-first-customer" trial 1: latencyMs MUST be 500, host reported 3; ' +
        'eval.scored of task "tier-of-first-customer" trial 2: latencyMs MUST be 3000, host reported 3; ' +
        'eval.scored of task "tier-of-second-customer" trial 1: latencyMs MUST be 3000, host reported 3; and 5 more',
    );
  });

  it('a wrong totalCostUsd fails it even when every task cost is right', () => {
    const total = changed(oracle(shipped(HOLD)), (summary) => (summary['totalCostUsd'] = 0));
    expect(said(shipped(HOLD), total, 'limits.figures')).toEqual([
      'cost and latency the host reports MUST be the ones the script states: totalCostUsd MUST be 0.5, host reported 0',
    ]);
  });
});

describe('the miss fixture against a host that answers the miss', () => {
  it('fails the trial, task and suite verdicts that the fail-closed 0 decides', () => {
    const fixture = shipped(MISS);
    const tasks = fixture.suite.tasks.map((t) => ({
      ...t,
      fixtures: {
        toolResponses: [...(t.fixtures?.toolResponses ?? []), { tool: 'crm:lookup-orders' }],
      },
    }));
    const answering = { ...fixture, suite: { ...fixture.suite, tasks } };
    const graded = grade(answering);
    const failed = mustFailures(judgeEvalRun(fixture, observe(answering, graded)));
    expect([...new Set(failed.map((f) => f.rule))].sort()).toEqual([
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
      'suite.passed',
      'task.gated-score-value',
      'task.mean-score',
      'task.passed',
      'task.score-unchanged',
      'trial.passed',
      'trial.score-unchanged',
    ]);
  });
});
