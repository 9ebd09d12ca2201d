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
      const values = Object.values(call.args ?? {});
      if (values.length > 1) seen.add('expected-call-with-several-args');
      if (values.some((v) => typeof v === 'object' && v !== null)) {
        seen.add('expected-call-with-nested-args');
      }
    }
    const forbidden = trajectory.forbidden ?? [];
    if (forbidden.length > 0) seen.add('forbidden-listed');
    if (trajectory.calls.some((c) => forbidden.includes(c.tool))) {
      seen.add('tool-expected-and-forbidden');
    }
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
          const reading = argsReordered(want, call);
          if (reading !== null) seen.add(`args-${reading}-reordered`);
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
      for (const reading of goldenReadings(match.strategy, match.value, e.output, hit)) {
        seen.add(reading);
      }
    }
  }
  if (trajectory !== undefined && trajectory.calls.length === 0) {
    seen.add('empty-expected-trajectory');
  }
  if (trajectory !== undefined) {
    for (const e of entries) {
      // A superset of one expected call's args that is not itself another expected call.
      const expectedTexts = trajectory.calls.map((c) => JSON.stringify(c));
      const supersets = e.calls.filter(
        (c) =>
          !expectedTexts.includes(JSON.stringify(c)) &&
          trajectory.calls.some((want) => argsSuperset(want, c)),
      );
      if (supersets.length > 0) {
        seen.add('args-superset');
      }
    }
  }
  if (task.fixtures === undefined && calls.length > 0) seen.add('call-where-no-fixtures');
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

/**
 * Observed args equal to the expected ones as JSON values but with their members in another
 * order (`members`), or equal but for an array's order (`array`); null when neither.
 */
function argsReordered(want: ToolCall, seen: ToolCall): 'members' | 'array' | null {
  if (want.tool !== seen.tool || want.args === undefined || seen.args === undefined) return null;
  const a = JSON.stringify(want.args);
  const b = JSON.stringify(seen.args);
  if (a === b) return null;
  if (sameMembers(want.args, seen.args)) return 'members';
  const itemsSorted = (v: Json): Json =>
    Array.isArray(v)
      ? v.map(itemsSorted).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
      : isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, itemsSorted(x as Json)]))
        : v;
  return JSON.stringify(itemsSorted(want.args)) === JSON.stringify(itemsSorted(seen.args))
    ? 'array'
    : null;
}

/** Observed args that hold every expected member, and more. */
function argsSuperset(want: ToolCall, seen: ToolCall): boolean {
  if (want.tool !== seen.tool || want.args === undefined || seen.args === undefined) return false;
  const expected = want.args;
  const observed = seen.args;
  return (
    Object.keys(observed).length > Object.keys(expected).length &&
    Object.keys(expected).every((k) => JSON.stringify(expected[k]) === JSON.stringify(observed[k]))
  );
}

/**
 * The cells of the host guide's golden table an output reaches beyond a plain match or miss: the
 * readings a host can take of them (trimmed, reordered, parsed, compared as values) that the
 * correct one tells apart.
 */
function goldenReadings(strategy: string, golden: Json, output: Json, hit: boolean): string[] {
  const out: string[] = [];
  const parse = (text: string): Json | undefined => {
    try {
      return JSON.parse(text) as Json;
    } catch {
      return undefined;
    }
  };
  if (strategy === 'exact' && typeof golden === 'string') {
    if (typeof output === 'string' && !hit && output.trim() === golden) {
      out.push('exact:missed-by-whitespace');
    }
    if (typeof output !== 'string' && hit) out.push('exact:object-equals-its-text');
    const spelled = parse(golden);
    if (isObject(output) && !hit && spelled !== undefined && sameMembers(spelled, output)) {
      out.push('exact:object-members-reordered');
    }
  }
  if (strategy === 'exact' && typeof golden !== 'string') {
    out.push('exact:non-string-value');
    if (typeof output === 'string' && hit) out.push('exact:string-spells-non-string-value');
    if (isObject(output) && !hit && sameMembers(golden, output)) {
      out.push('exact:value-members-reordered');
    }
  }
  if (strategy === 'contains' && typeof output !== 'string' && hit) {
    out.push('contains:object-text-holds-value');
  }
  if (strategy === 'json-match' && !hit) {
    if (typeof output === 'string' && sameMembers(parse(output) ?? null, golden)) {
      out.push('json-match:string-spells-value');
    }
    if (isObject(output) && isObject(golden) && arraysReordered(golden, output)) {
      out.push('json-match:array-reordered');
    }
  }
  return out;
}

/** Equal JSON whatever the order of object members. */
function sameMembers(a: Json, b: Json): boolean {
  const sorted = (v: Json): Json =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k] as Json)]),
          )
        : v;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** Every member equal but an array whose items are the golden one's in another order. */
function arraysReordered(
  golden: { readonly [k: string]: Json },
  output: { readonly [k: string]: Json },
): boolean {
  const keys = Object.keys(golden);
  return (
    keys.length === Object.keys(output).length &&
    keys.some((k) => {
      const a = golden[k];
      const b = output[k];
      return (
        Array.isArray(a) &&
        Array.isArray(b) &&
        JSON.stringify(a) !== JSON.stringify(b) &&
        JSON.stringify([...a].map((x) => JSON.stringify(x)).sort()) ===
          JSON.stringify([...b].map((x) => JSON.stringify(x)).sort())
      );
    }) &&
    keys.every((k) => {
      const a = golden[k];
      const b = output[k];
      return Array.isArray(a) || JSON.stringify(a) === JSON.stringify(b);
    })
  );
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

/** Nearest-rank p95, as the witness takes it. */
function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
}

/**
 * Multi-trial tasks whose latencies differ, so a p95 over one figure per task (its trials' mean,
 * or their sum) is not the p95 over the trial latencies.
 */
function taskLatencyFeatures(f: Fixture, seen: Set<string>): void {
  const n = f.suite.trials?.count ?? 1;
  if (n < 2) return;
  const perTask = f.suite.tasks.map((task) => {
    const list = entriesOf(f, task);
    return Array.from({ length: n }, (_, i) => (list.length === 1 ? list[0] : list[i])).map(
      (e) => e?.latencyMs,
    );
  });
  if (perTask.some((l) => l.some((x) => x === undefined))) return;
  const tasks = perTask as number[][];
  if (!tasks.some((l) => new Set(l).size > 1)) return;
  const overTrials = p95(tasks.flat());
  const sum = (l: readonly number[]): number => l.reduce((a, b) => a + b, 0);
  if (p95(tasks.map((l) => sum(l) / l.length)) !== overTrials)
    seen.add('p95-over-task-means-differs');
  if (p95(tasks.map(sum)) !== overTrials) seen.add('p95-over-task-sums-differs');
}

function figureFeatures(f: Fixture, seen: Set<string>): void {
  const { maxCostUsd, maxP95LatencyMs } = f.suite.thresholds;
  const { costs, latencies } = trialFigures(f);
  taskLatencyFeatures(f, seen);
  if (f.suite.thresholds.passScore === 0) seen.add('pass-score:0');
  if (f.suite.thresholds.passScore === 1) seen.add('pass-score:1');
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
  // Without a trials block at passScore 0, a trial that failed its path or failed closed gates
  // to 0, which clears 0, and still fails its task: only there does the task's verdict differ
  // from gatedScore ≥ passScore. A trial scoring 0 on a sound path passes there.
  const zeroNoTrials = f.suite.trials === undefined && f.suite.thresholds.passScore === 0;
  for (const task of inclusive.tasks) {
    for (const trial of task.trials) {
      if (zeroNoTrials && trial.matched === false && !trial.failedClosed) {
        seen.add('pass-score:0-no-trials-trajectory-failed');
      }
      if (zeroNoTrials && trial.failedClosed && trial.matched !== false) {
        seen.add('pass-score:0-no-trials-failed-closed');
      }
      if (zeroNoTrials && trial.passed && trial.score === 0) {
        seen.add('pass-score:0-no-trials-score-0-passed');
      }
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
