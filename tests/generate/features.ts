// The features of a generated pack, by name: what its documents hold and, through an
// independent grading, what its runs must show. The coverage test pins that the pack of 200 at
// seed 1 has every one; the names are the features docs/generated-suites.md lists.

import type { EvalTask, Fixture, Json, ScriptedTrial, ToolCall } from '../../lib/types.ts';
import type { Graded } from '../property/oracle.ts';
import { goldenMatches } from '../../lib/witness/match.ts';
import { DEFAULT_MAX_TRIALS } from '../../lib/generate/suite.ts';

export type Grader = (fixture: Fixture) => { inclusive: Graded; strict: Graded };

const entriesOf = (f: Fixture, task: EvalTask): readonly ScriptedTrial[] =>
  f.script[task.taskId] ?? [];

function argsDiffer(want: ToolCall, seen: ToolCall): 'value' | 'case' | null {
  const a = want.args?.['id'];
  const b = seen.args?.['id'];
  if (want.tool !== seen.tool || typeof a !== 'string' || typeof b !== 'string' || a === b) {
    return null;
  }
  return a.toLowerCase() === b.toLowerCase() ? 'case' : 'value';
}

function documentFeatures(f: Fixture, task: EvalTask, seen: Set<string>): void {
  const trajectory = task.expected.trajectory;
  const entries = entriesOf(f, task);
  const calls = entries.flatMap((e) => e.calls);
  seen.add(trajectory === undefined ? 'task-without-trajectory' : 'task-with-trajectory');
  if (trajectory !== undefined) {
    seen.add(`match:${trajectory.match}`);
    for (const call of trajectory.calls) {
      if (call.args === undefined) seen.add('expected-call-without-args');
      else if (Object.keys(call.args).length === 0) seen.add('expected-call-with-empty-args');
      else seen.add('expected-call-with-args');
    }
    const forbidden = trajectory.forbidden ?? [];
    if (forbidden.length > 0) seen.add('forbidden-listed');
    if (calls.some((c) => forbidden.includes(c.tool))) seen.add('forbidden-hit');
    const texts = trajectory.calls.map((c) => JSON.stringify(c));
    const repeated = texts.find((t, i) => texts.indexOf(t) !== i);
    if (repeated !== undefined) {
      seen.add('repeated-expected-call');
      const want = texts.filter((t) => t === repeated).length;
      for (const e of entries) {
        const made = e.calls.filter((c) => JSON.stringify(c) === repeated).length;
        if (made > 0 && made < want) seen.add('repeat-made-once');
      }
    }
    for (const e of entries) {
      const made = e.calls.map((c) => JSON.stringify(c));
      if (made.some((t, i) => made.indexOf(t) !== i)) seen.add('call-made-twice');
      for (const want of trajectory.calls) {
        for (const call of e.calls) {
          const differ = argsDiffer(want, call);
          if (differ !== null) seen.add(`args-differ-by-${differ}`);
        }
      }
    }
  }
  const match = task.expected.match;
  if (match !== undefined) {
    for (const e of entries) {
      const hit = goldenMatches(match, e.output);
      seen.add(`golden:${match.strategy}:${hit ? 'matched' : 'missed'}`);
      if (!hit && missedByCase(match.value, e.output)) seen.add('golden-missed-by-case');
    }
  }
  const responses = task.fixtures?.toolResponses;
  if (calls.length > 0) {
    if (responses !== undefined && responses.length === 0) seen.add('miss:empty-tool-responses');
    if (task.fixtures !== undefined && responses === undefined) {
      seen.add('call-where-no-tool-responses');
    }
    const silent = (responses ?? []).filter((r) => r.response === undefined).map((r) => r.tool);
    if (calls.some((c) => silent.includes(c.tool)))
      seen.add('call-answered-by-entry-without-response');
    if (responses !== undefined && calls.some((c) => !responses.some((r) => r.tool === c.tool))) {
      seen.add('miss:unrecorded-tool');
    }
    const listed = (tool: string): number =>
      (responses ?? []).filter((r) => r.tool === tool).length;
    if (calls.some((c) => listed(c.tool) > 1)) seen.add('call-to-tool-listed-twice');
  }
  const trials = f.suite.trials?.count ?? 1;
  if (trials > 1 && entries.length === 1) seen.add('script-entry-for-every-trial');
  if (trials > 1 && entries.length === trials) seen.add('script-entry-per-trial');
}

/** The output misses the golden value, yet equals it (or its label) when case is ignored. */
function missedByCase(golden: Json, output: Json): boolean {
  const lower = (v: Json | undefined): string =>
    typeof v === 'string' ? v.toLowerCase() : JSON.stringify(v ?? null);
  if (typeof golden === 'string' && typeof output === 'string') {
    return output.toLowerCase().includes(golden.toLowerCase());
  }
  if (!isObject(golden) || !isObject(output)) return false;
  return (
    golden['label'] !== output['label'] &&
    Object.keys(golden).every((k) => lower(golden[k]) === lower(output[k]))
  );
}

const isObject = (v: Json): v is { readonly [k: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The figures every trial states, in run order. */
function trialFigures(f: Fixture): { costs: number[]; latencies: number[] } {
  const n = f.suite.trials?.count ?? 1;
  const entries = f.suite.tasks.flatMap((task) => {
    const list = entriesOf(f, task);
    return Array.from({ length: n }, (_, i) => (list.length === 1 ? list[0] : list[i]));
  });
  return {
    costs: entries.flatMap((e) => (e?.costUsd === undefined ? [] : [e.costUsd])),
    latencies: entries.flatMap((e) => (e?.latencyMs === undefined ? [] : [e.latencyMs])),
  };
}

function figureFeatures(f: Fixture, seen: Set<string>): void {
  const { maxCostUsd, maxP95LatencyMs } = f.suite.thresholds;
  const { costs, latencies } = trialFigures(f);
  if (new Set(costs).size > 1) seen.add('varied-costs');
  if (new Set(latencies).size > 1) seen.add('varied-latencies');
  if (costs.length > 0 && maxCostUsd === undefined) seen.add('costs-without-limit');
  if (latencies.length > 0 && maxP95LatencyMs === undefined) seen.add('latencies-without-limit');
  const total = costs.reduce((a, b) => a + b, 0);
  if (maxCostUsd !== undefined) {
    if (total === maxCostUsd) seen.add('cost-on-limit');
    if (costs.every((c) => c > maxCostUsd)) seen.add('cost-above-limit');
    if (total < maxCostUsd) seen.add('cost-limit-holds');
    if (total > maxCostUsd && costs.every((c) => c <= maxCostUsd)) {
      seen.add('cost-total-over-no-trial-over');
    }
  }
  if (maxP95LatencyMs !== undefined && latencies.length > 0) {
    const longest = Math.max(...latencies);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    const atLongest = latencies.filter((l) => l === longest).length;
    if (longest === maxP95LatencyMs && atLongest >= 2) seen.add('latency-on-limit');
    if (longest > maxP95LatencyMs && mean <= maxP95LatencyMs) {
      seen.add('latency-below-tail-mean-under-limit');
    }
    if (longest < maxP95LatencyMs) seen.add('latency-limit-holds');
  }
}

function gradedFeatures(f: Fixture, graded: ReturnType<Grader>, seen: Set<string>): void {
  const { inclusive, strict } = graded;
  const summary = inclusive.summary;
  seen.add(`rule:${f.suite.trials?.passRule ?? 'none'}`);
  seen.add(`suite-passed:${summary.passed}`);
  if (summary.gatedAggregateScore === undefined) seen.add('no-gated-aggregate');
  if (f.suite.trials !== undefined && f.suite.trials.count === DEFAULT_MAX_TRIALS)
    seen.add('trials-at-maximum');
  const gate = summary.gatedAggregateScore ?? summary.aggregateScore;
  if (gate === f.suite.thresholds.passScore) seen.add('suite-on-pass-score');
  summary.tasks.forEach((entry, i) => {
    if (f.suite.trials?.passRule !== 'mean') return;
    const gated = entry.gatedScore ?? entry.score;
    if (
      gated === f.suite.thresholds.passScore &&
      entry.passed !== strict.summary.tasks[i]?.passed
    ) {
      seen.add('mean-task-on-pass-score');
    }
  });
  for (const task of inclusive.tasks) {
    for (const trial of task.trials) {
      if (trial.matched === false && !trial.failedClosed) seen.add('trajectory-failed');
      if (trial.matched === true) seen.add('trajectory-matched');
      if (trial.score === 1 && trial.matched === false) seen.add('good-answer-wrong-path');
    }
  }
}

/** Every feature name the pack reaches. */
export function generatedFeatures(pack: readonly Fixture[], grader: Grader): Set<string> {
  const seen = new Set<string>();
  for (const f of pack) {
    for (const task of f.suite.tasks) documentFeatures(f, task, seen);
    figureFeatures(f, seen);
    gradedFeatures(f, grader(f), seen);
  }
  return seen;
}
