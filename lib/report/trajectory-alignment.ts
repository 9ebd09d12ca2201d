// Each trial's expected trajectory beside the calls its script makes, aligned call by call, for a
// person to read. The verdict of a trial stays the witness's (expectRun); the alignment only
// shows where the calls part: a forbidden call, an expected call missing, a call whose tool
// matches but whose arguments do not, a call the fixture has no recorded response for (a miss).
// It runs before the page is rendered (lib/report/page-inputs.ts), so render/ imports no witness.

import { expectRun, jsonEqual } from '../eval-gate-witness.ts';
import type { Fixture, MatchMode, ToolCall } from '../types.ts';
import type { AlignedStep, FixtureTrials, StepMark } from './render/html/trajectory.ts';

/** The trials of every task of a fixture, aligned; throws where the witness cannot grade it. */
export function alignFixture(fixture: Fixture): FixtureTrials {
  const run = expectRun(fixture);
  return {
    fixtureId: fixture.id,
    passScore: run.thresholds.passScore,
    limits: run.limits,
    tasks: run.tasks.map((task) => {
      const declared = fixture.suite.tasks.find((t) => t.taskId === task.taskId);
      const trajectory = declared?.expected.trajectory;
      const forbidden = trajectory?.forbidden ?? [];
      return {
        taskId: task.taskId,
        mode: trajectory?.match ?? null,
        forbidden,
        trials: task.trials.map((t, i) => ({
          trial: i + 1,
          steps: alignCalls(trajectory?.match ?? null, trajectory?.calls ?? [], t.calls, {
            forbidden,
            missedTool: t.missedTool,
          }),
          trajectoryMatched: t.trajectoryMatched,
          forbiddenHit: t.forbiddenHit,
          missedTool: t.missedTool,
          failedClosed: t.failedClosed,
          score: t.score,
          gatingScore: t.gatingScore,
          passed: t.passed,
          costUsd: t.costUsd,
          latencyMs: t.latencyMs,
        })),
      };
    }),
  };
}

const NO_ARGS = {};

function fullMatch(expected: ToolCall, observed: ToolCall): boolean {
  return (
    expected.tool === observed.tool &&
    (expected.args === undefined || jsonEqual(expected.args, observed.args ?? NO_ARGS))
  );
}

/** Pairs expected with observed calls by index: exact mode compares position by position. */
function pairExact(
  expected: readonly ToolCall[],
  observed: readonly ToolCall[],
): Map<number, number> {
  const pairs = new Map<number, number>();
  expected.forEach((call, e) => {
    const o = observed[e];
    if (o !== undefined && o.tool === call.tool) pairs.set(e, e);
  });
  return pairs;
}

/**
 * Pairs each expected call with an observed one: first every full match (in order, past the last
 * pair, for in-order; anywhere unused for any-order), then an unpaired expected call with an
 * unused call of the same tool, which is an argument mismatch.
 */
function pairLoose(
  mode: 'in-order' | 'any-order',
  expected: readonly ToolCall[],
  observed: readonly ToolCall[],
): Map<number, number> {
  const pairs = new Map<number, number>();
  const used = new Set<number>();
  let next = 0;
  expected.forEach((call, e) => {
    const from = mode === 'in-order' ? next : 0;
    for (let o = from; o < observed.length; o += 1) {
      if (used.has(o) || !fullMatch(call, observed[o] as ToolCall)) continue;
      pairs.set(e, o);
      used.add(o);
      next = o + 1;
      return;
    }
  });
  expected.forEach((call, e) => {
    if (pairs.has(e)) return;
    const o = observed.findIndex((c, i) => !used.has(i) && c.tool === call.tool);
    if (o === -1) return;
    pairs.set(e, o);
    used.add(o);
  });
  return pairs;
}

export function alignCalls(
  mode: MatchMode | null,
  expected: readonly ToolCall[],
  observed: readonly ToolCall[],
  facts: { readonly forbidden: readonly string[]; readonly missedTool: string | null },
): AlignedStep[] {
  const pairs =
    mode === null
      ? new Map<number, number>()
      : mode === 'exact'
        ? pairExact(expected, observed)
        : pairLoose(mode, expected, observed);
  const byObserved = new Map([...pairs].map(([e, o]) => [o, e]));
  const forbidden = new Set(facts.forbidden);
  const firstMiss =
    facts.missedTool === null ? -1 : observed.findIndex((c) => c.tool === facts.missedTool);
  const steps: AlignedStep[] = [];
  const emitted = new Set<number>();
  const emitUnpairedBefore = (limit: number): void => {
    for (let e = 0; e < limit; e += 1) {
      if (pairs.has(e) || emitted.has(e)) continue;
      emitted.add(e);
      steps.push({ expected: expected[e] as ToolCall, marks: ['missing'] });
    }
  };
  observed.forEach((call, o) => {
    const e = byObserved.get(o);
    if (e !== undefined) emitUnpairedBefore(e);
    const marks: StepMark[] = [];
    const paired = e === undefined ? undefined : (expected[e] as ToolCall);
    if (paired !== undefined) marks.push(fullMatch(paired, call) ? 'match' : 'args');
    else if (mode !== null) marks.push('extra');
    if (forbidden.has(call.tool)) marks.push('forbidden');
    if (o === firstMiss) marks.push('miss');
    if (e !== undefined) emitted.add(e);
    steps.push({
      ...(paired === undefined ? {} : { expected: paired }),
      observed: call,
      observedIndex: o,
      marks,
    });
  });
  emitUnpairedBefore(expected.length);
  return steps;
}
