// One-defect rows on the independent oracle host: each row breaks exactly one clause of what the
// host serves (through `mutate` on the summary or `mutateEvents` on the log) and asserts the exact
// set of legs that must fail, each naming the rule the defect belongs to, while every other leg
// still passes. The defects are written here from RFC 0246 and contract §4, not copied from the
// reference host's defect list, so a suite that only catches the reference host's own breakage
// shows up as a row that stays green.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  LegOutcome,
  EvalSummary,
  EvalTask,
  ExpectedTrajectory,
  Fixture,
  Json,
  SummaryTask,
  ToolCall,
} from '../../lib/types.ts';
import { LEGS, slugOfLeg, type LegDefinition, type LegSlug } from '../../lib/legs.ts';
import { above, atLeast, deepEqual, grade } from '../property/oracle.ts';
import { loadFixtures, servedRun, startOracleHost } from '../support/oracle-host.ts';
import type { DraftEvent, OracleHostOptions, OracleMode } from '../support/oracle-host.ts';
import { runEveryLeg } from '../support/run-every-leg.ts';

type Slug = LegSlug;

interface Row {
  readonly defect: string;
  readonly mutate?: OracleHostOptions['mutate'];
  readonly mutateEvents?: OracleHostOptions['mutateEvents'];
  /** Every leg that must fail, with one rule its failed findings must include. */
  readonly fails: Partial<Record<Slug, string>>;
}

const slugOf = (requirement: string): string => requirement.replace(/^.*\.0246\./, '');
const pass = (f: Fixture): number => f.suite.thresholds.passScore;
const ruleOf = (f: Fixture): string | undefined => f.suite.trials?.passRule;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function omit<T extends object>(value: T, key: string): T {
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)) as T;
}

function withTasks(s: EvalSummary, map: (t: SummaryTask) => SummaryTask): EvalSummary {
  const tasks = s.tasks.map(map);
  return { ...s, tasks, passedCount: tasks.filter((t) => t.passed).length };
}

/**
 * Whether the correct summary's cost and latency conditions held: it failed with a gate that
 * cleared passScore only when a limit did not. Rows that change the score condition keep these.
 */
function limitsHeld(s: EvalSummary, f: Fixture): boolean {
  return s.passed || !atLeast(s.gatedAggregateScore ?? s.aggregateScore, pass(f));
}

/** RFC 0244 before the fix: `mean` and the suite decided on the reported scores. */
function oldPassed(s: EvalSummary, f: Fixture): EvalSummary {
  const tasks = withTasks(s, (t) =>
    ruleOf(f) === 'mean' ? { ...t, passed: atLeast(t.score, pass(f)) } : t,
  );
  return { ...tasks, passed: atLeast(s.aggregateScore, pass(f)) && limitsHeld(s, f) };
}

/** Re-decides `mean` tasks and the suite after a row changed gated values. */
function redecide(s: EvalSummary, f: Fixture): EvalSummary {
  const gated = (t: SummaryTask): number => t.gatedScore ?? t.score;
  const tasks = withTasks(s, (t) =>
    ruleOf(f) === 'mean' ? { ...t, passed: atLeast(gated(t), pass(f)) } : t,
  );
  const held = limitsHeld(s, f);
  return { ...tasks, passed: atLeast(s.gatedAggregateScore ?? s.aggregateScore, pass(f)) && held };
}

function mapEvents(
  type: string,
  map: (payload: { readonly [k: string]: Json }, f: Fixture) => { readonly [k: string]: Json },
): OracleHostOptions['mutateEvents'] {
  return (events: readonly DraftEvent[], _id: string, f: Fixture) =>
    events.map((e) => (e.type === type ? { ...e, payload: map(e.payload, f) } : e));
}

/** The fixture as a host that reads every trajectory another way takes it. */
function withTrajectories(
  f: Fixture,
  read: (t: ExpectedTrajectory) => ExpectedTrajectory,
): Fixture {
  const tasks = f.suite.tasks.map((task) => {
    const t = task.expected.trajectory;
    return t === undefined
      ? task
      : { ...task, expected: { ...task.expected, trajectory: read(t) } };
  });
  return { ...f, suite: { ...f.suite, tasks } };
}

/**
 * A host whose trajectory reading differs from contract §4: the oracle grades the fixture as that
 * host reads it, and the summary and every eval.scored verdict follow, so the host is consistent
 * with itself and wrong only in the reading.
 */
function misreading(
  read: (t: ExpectedTrajectory) => ExpectedTrajectory,
): Pick<Row, 'mutate' | 'mutateEvents'> {
  return misreadingFixture((f) => withTrajectories(f, read));
}

/** As `misreading`, for a reading of the whole fixture, its script included. */
function misreadingFixture(read: (f: Fixture) => Fixture): Pick<Row, 'mutate' | 'mutateEvents'> {
  const regrade = (f: Fixture) => grade(read(f));
  return {
    mutate: (_s, _id, f) => regrade(f).summary,
    mutateEvents: mapEvents('eval.scored', (p, f) => {
      const task = regrade(f).tasks.find((t) => t.taskId === p.taskId);
      const trial = task?.trials[Number(p.trial ?? 1) - 1];
      if (trial === undefined || trial.matched === null) return p;
      const flag = 'trajectoryMatched' in p ? { trajectoryMatched: trial.matched } : {};
      return { ...p, passed: trial.passed, ...flag };
    }),
  };
}

const asMode =
  (from: ExpectedTrajectory['match'], to: ExpectedTrajectory['match']) =>
  (t: ExpectedTrajectory): ExpectedTrajectory =>
    t.match === from ? { ...t, match: to } : t;

/** Drops an expected call equal to the one before it: one observed call then meets both. */
const collapseRepeats = (t: ExpectedTrajectory): ExpectedTrajectory => ({
  ...t,
  calls: t.calls.filter((call: ToolCall, i) => i === 0 || !deepEqual(call, t.calls[i - 1])),
});

/** One trial per task, a matching task and a wrong-path task in each; any-order's suite passes. */
const READING_LEGS = [
  'readings-exact',
  'readings-in-order',
  'readings-any-order',
  'readings-args',
] as const;
/** The reading suites that fail while every score is 1. */
const FAILING_READINGS = ['readings-exact', 'readings-in-order', 'readings-exact-empty'] as const;
const TRAJECTORY_LEGS = [
  'mean-gated',
  'suite-gated',
  'mean-partial-inclusive',
  'any-rule-unchanged',
  'all-rule-unchanged',
  ...READING_LEGS,
  // Its expected paths list no calls, so a defect in reading args or a call's order leaves it be.
  'readings-exact-empty',
] as const;
/** The limit and miss legs: trajectories that all match, and gated scores equal to scores. */
const LIMIT_LEGS = [
  'cost-limit-kept',
  'latency-limit-kept',
  'limits-hold',
  'miss-gated',
  'cost-limit-over-trials',
  'latency-limit-over-trials',
] as const;
/** The measuring legs: no trials block, in-order paths, gated fields on every task. */
const MEASURE_LEGS = ['outputs-measured', 'readings-miss', 'zero-pass-score'] as const;
const every = (legs: readonly Slug[], rule: string): Partial<Record<Slug, string>> =>
  Object.fromEntries(legs.map((leg) => [leg, rule]));

const ROWS: readonly Row[] = [
  {
    defect: 'the unmigrated RFC 0244 host (no gated fields, passed on raw scores)',
    mutate: (s, _id, f) =>
      omit(
        withTasks(oldPassed(s, f), (t) => omit(t, 'gatedScore')),
        'gatedAggregateScore',
      ),
    fails: {
      ...every(
        [...TRAJECTORY_LEGS, ...LIMIT_LEGS, ...MEASURE_LEGS],
        'suite.gated-aggregate-present',
      ),
      'mean-gated': 'task.passed',
      'suite-gated': 'suite.passed',
      'mean-partial-inclusive': 'task.gated-score-present',
    },
  },
  {
    defect: 'gated fields present but passed decided the old way',
    mutate: (s, _id, f) => oldPassed(s, f),
    fails: {
      ...every(FAILING_READINGS, 'suite.passed'),
      'mean-gated': 'task.passed',
      'suite-gated': 'suite.passed',
      'any-rule-unchanged': 'suite.passed',
      'all-rule-unchanged': 'suite.passed',
    },
  },
  {
    defect: 'the score zeroed instead of gated (§C)',
    mutate: (s) => ({
      ...withTasks(s, (t) => {
        const score = t.gatedScore ?? t.score;
        return t.trials === undefined
          ? { ...t, score }
          : { ...t, score, trials: { ...t.trials, meanScore: score } };
      }),
      aggregateScore: s.gatedAggregateScore ?? s.aggregateScore,
    }),
    mutateEvents: mapEvents('eval.scored', (p) =>
      p.trajectoryMatched === false ? { ...p, score: 0 } : p,
    ),
    fails: {
      ...every(TRAJECTORY_LEGS, 'trial.score-unchanged'),
      'suite-gated': 'suite.aggregate-unchanged',
      'any-rule-unchanged': 'task.mean-score',
      // args-differ-in-case and wrong-path-golden score 1 on a failed path.
      'outputs-measured': 'trial.score-unchanged',
      'zero-pass-score': 'trial.score-unchanged',
    },
  },
  {
    defect: 'gatedScore omitted where it equals the score',
    mutate: (s) => withTasks(s, (t) => (t.gatedScore === t.score ? omit(t, 'gatedScore') : t)),
    fails: {
      ...every(
        ['suite-gated', ...READING_LEGS, 'readings-exact-empty'],
        'task.gated-score-present',
      ),
      ...every(LIMIT_LEGS, 'task.gated-score-present'),
      ...every(MEASURE_LEGS, 'task.gated-score-present'),
    },
  },
  {
    defect: 'gatedAggregateScore omitted',
    mutate: (s) => omit(s, 'gatedAggregateScore'),
    fails: every(
      [...TRAJECTORY_LEGS, ...LIMIT_LEGS, ...MEASURE_LEGS],
      'suite.gated-aggregate-present',
    ),
  },
  {
    defect: '> instead of ≥ in the gated comparisons',
    mutate: (_s, _id, f) => grade(f, above).summary,
    // measured's two matching outputs score exactly passScore 1, and zero-pass-score's
    // matching-path-misses scores exactly passScore 0.
    fails: {
      'mean-partial-inclusive': 'task.passed',
      'outputs-measured': 'task.passed',
      'zero-pass-score': 'task.passed',
      // readings-args's gated aggregate 0.5 sits exactly on its passScore.
      'readings-args': 'suite.passed',
    },
  },
  {
    defect: 'eval.completed.passed left on the old rule',
    mutateEvents: mapEvents('eval.completed', (p, f) => ({
      ...p,
      passed: atLeast(Number(p.aggregateScore), pass(f)),
    })),
    fails: every(
      [
        'mean-gated',
        'suite-gated',
        'any-rule-unchanged',
        'all-rule-unchanged',
        ...FAILING_READINGS,
        'cost-limit-kept',
        'latency-limit-kept',
        'cost-limit-over-trials',
      ],
      'completed.consistent',
    ),
  },
  {
    defect: 'the trial output leaked into eval.scored',
    mutateEvents: mapEvents('eval.scored', (p, f) => {
      const entries = f.script[String(p.taskId)] ?? [];
      const entry = entries.length === 1 ? entries[0] : entries[Number(p.trial ?? 1) - 1];
      return { ...p, output: entry?.output ?? null };
    }),
    fails: every(
      [...TRAJECTORY_LEGS, ...LIMIT_LEGS, ...MEASURE_LEGS, 'no-trajectory-ungated'],
      'content-free',
    ),
  },
  {
    defect: 'gated values reported as percentages, out of 0–1',
    mutate: (s) => ({
      ...withTasks(s, (t) =>
        t.gatedScore === undefined ? t : { ...t, gatedScore: t.gatedScore * 100 },
      ),
      ...(s.gatedAggregateScore === undefined
        ? {}
        : { gatedAggregateScore: s.gatedAggregateScore * 100 }),
    }),
    // mean-gated's gated values are 0, which a percentage leaves in range.
    fails: every(
      [
        'suite-gated',
        'mean-partial-inclusive',
        'any-rule-unchanged',
        'all-rule-unchanged',
        ...READING_LEGS,
        'readings-exact-empty',
        ...LIMIT_LEGS,
        'outputs-measured',
        'readings-miss',
      ],
      'summary.schema',
    ),
  },
  {
    defect: 'one eval.scored per task instead of one per trial',
    mutateEvents: (events) =>
      events.filter(
        (e, i) =>
          e.type !== 'eval.scored' ||
          !events
            .slice(i + 1)
            .some(
              (later) => later.type === 'eval.scored' && later.payload.taskId === e.payload.taskId,
            ),
      ),
    fails: every(
      [
        'mean-gated',
        'mean-partial-inclusive',
        'any-rule-unchanged',
        'all-rule-unchanged',
        'latency-limit-kept',
        'limits-hold',
        'miss-gated',
        'cost-limit-over-trials',
        'latency-limit-over-trials',
      ],
      'events.scored-count',
    ),
  },
  {
    defect: 'the gated aggregate taken as the minimum while aggregateScore is the mean',
    mutate: (s, _id, f) =>
      redecide(
        s.gatedAggregateScore === undefined
          ? s
          : { ...s, gatedAggregateScore: Math.min(...s.tasks.map((t) => t.gatedScore ?? t.score)) },
        f,
      ),
    fails: every(
      [
        'suite-gated',
        'any-rule-unchanged',
        ...READING_LEGS,
        'readings-exact-empty',
        'outputs-measured',
        'readings-miss',
      ],
      'suite.gated-aggregate-value',
    ),
  },
  {
    defect: 'rule all counting a trajectory-failed trial as passed',
    mutate: (s, _id, f) =>
      ruleOf(f) !== 'all'
        ? s
        : withTasks(s, (t) => ({
            ...t,
            passed: atLeast(t.trials?.trialStats?.minScore ?? t.score, pass(f)),
          })),
    fails: { 'all-rule-unchanged': 'task.passed' },
  },
  {
    defect: 'a whole task gated to 0 when any trial failed its trajectory',
    mutate: (s, _id, f) =>
      redecide(
        (() => {
          const tasks = s.tasks.map((t) =>
            t.gatedScore !== undefined && t.gatedScore < t.score ? { ...t, gatedScore: 0 } : t,
          );
          const gated = tasks.map((t) => t.gatedScore ?? t.score);
          return s.gatedAggregateScore === undefined
            ? { ...s, tasks }
            : { ...s, tasks, gatedAggregateScore: mean(gated) };
        })(),
        f,
      ),
    fails: every(
      ['mean-partial-inclusive', 'any-rule-unchanged', 'all-rule-unchanged'],
      'task.gated-score-value',
    ),
  },
  {
    defect: 'rule any decided by the gated mean',
    mutate: (s, _id, f) =>
      ruleOf(f) !== 'any'
        ? s
        : withTasks(s, (t) => ({ ...t, passed: atLeast(t.gatedScore ?? t.score, pass(f)) })),
    fails: { 'any-rule-unchanged': 'task.passed' },
  },
  {
    defect: 'rule any passing a task on a trial that scores, whatever its trajectory',
    mutate: (s, _id, f) =>
      ruleOf(f) !== 'any'
        ? s
        : withTasks(s, (t) => ({
            ...t,
            passed: atLeast(t.trials?.trialStats?.maxScore ?? t.score, pass(f)),
          })),
    fails: { 'any-rule-unchanged': 'task.passed' },
  },
  {
    defect: 'gated fields carried on tasks and suites without a trajectory',
    mutate: (s) => ({
      ...withTasks(s, (t) => ({ ...t, gatedScore: t.gatedScore ?? t.score })),
      gatedAggregateScore: s.gatedAggregateScore ?? s.aggregateScore,
    }),
    fails: {
      'no-trajectory-ungated': 'task.gated-score-absent',
      'miss-gated': 'task.gated-score-absent',
    },
  },
  {
    defect: 'a gatedScore on a task without a trajectory whose trial failed closed',
    mutate: (s) =>
      withTasks(s, (t) =>
        t.gatedScore === undefined && (t.trials?.trialStats?.failedClosed ?? 0) > 0
          ? { ...t, gatedScore: t.score }
          : t,
      ),
    fails: { 'miss-gated': 'task.gated-score-absent' },
  },
  {
    defect: 'an expected trajectory that lists no calls read as no trajectory',
    mutate: (s, _id, f) => {
      const empty = new Set(
        f.suite.tasks.filter((t) => t.expected.trajectory?.calls.length === 0).map((t) => t.taskId),
      );
      return withTasks(s, (t) => (empty.has(t.taskId) ? omit(t, 'gatedScore') : t));
    },
    fails: {
      'readings-exact': 'task.gated-score-present',
      'readings-exact-empty': 'task.gated-score-present',
    },
  },
  {
    defect: 'a task without a trials block decided on gatedScore ≥ passScore',
    mutate: (s, _id, f) =>
      ruleOf(f) !== undefined
        ? s
        : withTasks(s, (t) => ({ ...t, passed: atLeast(t.gatedScore ?? t.score, pass(f)) })),
    fails: { 'zero-pass-score': 'task.passed' },
  },
  {
    defect: 'a failed-closed trial passed on its score and path alone',
    mutate: (s, _id, f) => {
      const closedPasses = passesClosed(f);
      return ruleOf(f) !== undefined
        ? s
        : withTasks(s, (t) => (closedPasses.has(t.taskId) ? { ...t, passed: true } : t));
    },
    mutateEvents: mapEvents('eval.scored', (p, f) =>
      passesClosed(f).has(String(p.taskId)) && p.trial === undefined ? { ...p, passed: true } : p,
    ),
    // Its score 0 clears passScore only at 0.
    fails: { 'zero-pass-score': 'trial.passed' },
  },
  {
    defect: 'eval.scored.passed decided on the score alone',
    mutateEvents: mapEvents('eval.scored', (p, f) => ({
      ...p,
      passed: atLeast(Number(p.score), pass(f)),
    })),
    fails: every([...TRAJECTORY_LEGS, 'outputs-measured', 'zero-pass-score'], 'trial.passed'),
  },
  // The trajectory readings (docs/host-guide.md), each written as the fixture a host misreads.
  {
    defect: 'args of an expected call ignored',
    ...misreading((t) => ({ ...t, calls: t.calls.map((c) => ({ tool: c.tool })) })),
    fails: every([...READING_LEGS, 'outputs-measured'], 'task.gated-score-value'),
  },
  {
    defect: 'args compared by their JSON text, so members in another order differ',
    ...misreadingFixture((f) => {
      const sent = Object.values(f.script).flatMap((trials) => trials.flatMap((t) => t.calls));
      // An expected call only some call meets as a value and none as text cannot match as text.
      const asText = (want: ToolCall): ToolCall =>
        want.args !== undefined &&
        sent.some((c) => c.tool === want.tool && deepEqual(c.args ?? {}, want.args)) &&
        !sent.some(
          (c) => c.tool === want.tool && JSON.stringify(c.args ?? {}) === JSON.stringify(want.args),
        )
          ? { ...want, args: { unmatched: true } }
          : want;
      return withTrajectories(f, (t) => ({ ...t, calls: t.calls.map(asText) }));
    }),
    fails: { 'readings-args': 'task.gated-score-value' },
  },
  {
    defect: 'exact read as in-order',
    ...misreading(asMode('exact', 'in-order')),
    fails: {
      'readings-exact': 'task.gated-score-value',
      'readings-exact-empty': 'task.gated-score-value',
    },
  },
  {
    defect: 'in-order read as exact',
    ...misreading(asMode('in-order', 'exact')),
    fails: { 'readings-in-order': 'task.gated-score-value' },
  },
  {
    defect: 'in-order read as any-order',
    ...misreading(asMode('in-order', 'any-order')),
    // gate's wrong-path task is its two calls swapped.
    fails: every(['suite-gated', 'readings-in-order'], 'task.gated-score-value'),
  },
  {
    defect: 'any-order read as in-order',
    ...misreading(asMode('any-order', 'in-order')),
    // boundary's trials 2 and 4 call the two tools the other way round.
    fails: every(['mean-partial-inclusive', 'readings-any-order'], 'task.gated-score-value'),
  },
  {
    defect: 'a forbidden hit ignored on a path that otherwise matches',
    ...misreading((t) => ({ ...t, forbidden: [] })),
    fails: every(
      [
        'mean-gated',
        'mean-partial-inclusive',
        'all-rule-unchanged',
        'readings-in-order',
        'readings-any-order',
      ],
      'task.gated-score-value',
    ),
  },
  {
    defect: 'a repeated expected call met by one observed call',
    ...misreading(collapseRepeats),
    fails: every(['readings-in-order', 'readings-any-order'], 'task.gated-score-value'),
  },
  {
    defect:
      'suite passed decided on the gated aggregate alone, without the cost and latency limits',
    mutate: (s, _id, f) => ({
      ...s,
      passed: atLeast(s.gatedAggregateScore ?? s.aggregateScore, pass(f)),
    }),
    fails: every(
      ['cost-limit-kept', 'latency-limit-kept', 'cost-limit-over-trials'],
      'suite.passed',
    ),
  },
  {
    defect: "the cost limit read on the sum of each task's mean trial cost",
    mutate: (s, _id, f) => {
      const { maxCostUsd, maxP95LatencyMs } = f.suite.thresholds;
      // Only a suite whose one limit is the cost: its passed then rests on the gate and the cost.
      if (maxCostUsd === undefined || maxP95LatencyMs !== undefined) return s;
      const means = grade(f).tasks.map((t) => mean(t.trials.map((r) => r.costUsd ?? 0)));
      const total = means.reduce((a, b) => a + b, 0);
      const gate = s.gatedAggregateScore ?? s.aggregateScore;
      return { ...s, passed: atLeast(gate, pass(f)) && total <= maxCostUsd + 1e-9 };
    },
    fails: { 'cost-limit-over-trials': 'suite.passed' },
  },
  {
    defect: 'task costs reported at twice what the script states',
    mutate: (s) =>
      withTasks(s, (t) => (t.costUsd === undefined ? t : { ...t, costUsd: 2 * t.costUsd })),
    // limits-hold runs two trials a task, and a task's figures are compared only where it runs once.
    fails: { 'cost-limit-kept': 'limits.figures' },
  },
  {
    defect: 'a missed call answered and graded on its output',
    mutate: (s, _id, f) => (f.id.endsWith('-miss') ? grade(answered(f)).summary : s),
    // eval.completed follows the summary; the trials answer as the answered fixture grades them.
    mutateEvents: mapEvents('eval.scored', (p, f) =>
      f.id.endsWith('-miss') ? { ...p, score: 1, passed: true, failedClosed: false } : p,
    ),
    // readings-miss's empty list, answered, scores 1 where its fail-closed 0 was due.
    fails: { 'miss-gated': 'suite.passed', 'readings-miss': 'task.score-unchanged' },
  },
  // Grading and miss readings (contract §4), each written as the fixture a host misreads.
  {
    defect: 'every output scored 1, whatever its golden value',
    ...regrading((task) => ({
      ...task,
      expected: { ...task.expected, match: { strategy: 'contains', value: '' } },
    })),
    fails: {
      'outputs-measured': 'task.score-unchanged',
      'zero-pass-score': 'task.score-unchanged',
    },
  },
  {
    defect: 'json-match compared as JSON text',
    ...regrading((task) => {
      const match = task.expected.match;
      if (match?.strategy !== 'json-match') return task;
      const value = JSON.stringify(match.value);
      return { ...task, expected: { ...task.expected, match: { strategy: 'exact', value } } };
    }),
    fails: { 'outputs-measured': 'task.score-unchanged' },
  },
  {
    defect: 'an empty toolResponses list read as no fixtures, so nothing misses',
    ...regrading((task) =>
      task.fixtures?.toolResponses?.length === 0 ? omit(task, 'fixtures') : task,
    ),
    fails: { 'readings-miss': 'task.score-unchanged' },
  },
  {
    defect: 'a task without toolResponses read as recording nothing, so every call misses',
    ...regrading((task) =>
      task.fixtures?.toolResponses === undefined
        ? { ...task, fixtures: { toolResponses: [] } }
        : task,
    ),
    fails: { 'readings-miss': 'suite.passed' },
  },
  {
    defect: 'a toolResponses entry without response read as no entry',
    ...regrading((task) => {
      const recorded = task.fixtures?.toolResponses;
      if (recorded === undefined) return task;
      const toolResponses = recorded.filter((r) => r.response !== undefined);
      return { ...task, fixtures: { ...task.fixtures, toolResponses } };
    }),
    fails: { 'readings-miss': 'suite.passed' },
  },
];

/**
 * A host that reads each task another way: the oracle grades the fixture as that host reads it,
 * and the summary and every eval.scored score and verdict follow, so the host is consistent with
 * itself and wrong only in the reading. A task the reading leaves alone is graded as before.
 */
function regrading(read: (task: EvalTask) => EvalTask): Pick<Row, 'mutate' | 'mutateEvents'> {
  const regrade = (f: Fixture) =>
    grade({ ...f, suite: { ...f.suite, tasks: f.suite.tasks.map(read) } });
  return {
    mutate: (_s, _id, f) => regrade(f).summary,
    mutateEvents: mapEvents('eval.scored', (p, f) => {
      const task = regrade(f).tasks.find((t) => t.taskId === p.taskId);
      const trial = task?.trials[Number(p.trial ?? 1) - 1];
      if (trial === undefined) return p;
      const closed = 'failedClosed' in p ? { failedClosed: trial.failedClosed } : {};
      return { ...p, score: trial.score, passed: trial.passed, ...closed };
    }),
  };
}

/** Tasks of one trial that failed closed on a path that held, with a score that clears passScore. */
function passesClosed(f: Fixture): ReadonlySet<string> {
  return new Set(
    grade(f)
      .tasks.filter((task) =>
        task.trials.some((t) => t.failedClosed && t.matched !== false && atLeast(t.score, pass(f))),
      )
      .map((task) => task.taskId),
  );
}

/** The fixture as a host that ignores misses sees it: every called tool has a recorded answer. */
function answered(f: Fixture): Fixture {
  const tasks = f.suite.tasks.map((task) => {
    const calls = (f.script[task.taskId] ?? []).flatMap((t) => t.calls.map((c) => c.tool));
    const toolResponses = [...new Set(calls)].map((tool) => ({ tool, response: null }));
    return { ...task, fixtures: { toolResponses } };
  });
  return { ...f, suite: { ...f.suite, tasks } };
}

/** The row's breaks as host options; none for the plain host. */
const breaksOf = (row?: Row): Pick<OracleHostOptions, 'mutate' | 'mutateEvents'> => ({
  ...(row?.mutate === undefined ? {} : { mutate: row.mutate }),
  ...(row?.mutateEvents === undefined ? {} : { mutateEvents: row.mutateEvents }),
});

async function runRow(
  row: Row | undefined,
  modes: readonly OracleMode[],
  legs: readonly LegDefinition[],
) {
  const apiKey = randomBytes(18).toString('base64url');
  const host = await startOracleHost({
    apiKey,
    modes,
    seed: 0x246 + (row === undefined ? -1 : ROWS.indexOf(row)),
    ...breaksOf(row),
  });
  try {
    return await runEveryLeg(host.url, apiKey, 2, undefined, legs);
  } finally {
    await host.close();
  }
}

const FIXTURES = loadFixtures();

/**
 * Whether the row's host serves a run of the leg's fixture other documents than the plain host:
 * the summary or the log, compared as the JSON text the wire carries. A leg the row leaves alone
 * is served what the plain host serves it, so its verdict is the plain host's.
 */
function touches(row: Row, leg: LegDefinition): boolean {
  const fixture = leg.fixtureId === undefined ? undefined : FIXTURES.get(leg.fixtureId);
  if (fixture === undefined) return false;
  return JSON.stringify(servedRun(fixture, breaksOf(row))) !== plainServed(fixture);
}

/** What the plain host serves a run of each fixture, as JSON text, by fixture id. */
const PLAIN_SERVED = new Map<string, string>();
function plainServed(fixture: Fixture): string {
  const text = PLAIN_SERVED.get(fixture.id) ?? JSON.stringify(servedRun(fixture, {}));
  PLAIN_SERVED.set(fixture.id, text);
  return text;
}

/**
 * Every leg on the plain host, once for the file: the verdict of each leg a row leaves alone. Each
 * row drives only the legs whose documents it changes, so its run is the part that tests the row.
 */
let plainRun: Promise<readonly LegOutcome[]> | undefined;
const plainOutcomes = (): Promise<readonly LegOutcome[]> =>
  (plainRun ??= runRow(undefined, [], LEGS));

/** Every leg's outcome under the row: its own host's where it changes the leg, else the plain host's. */
async function rowOutcomes(row: Row): Promise<readonly LegOutcome[]> {
  const touched = LEGS.filter((leg) => touches(row, leg));
  const [own, plain] = await Promise.all([runRow(row, [], touched), plainOutcomes()]);
  const byId = new Map([...plain, ...own].map((outcome) => [outcome.requirement, outcome]));
  return LEGS.flatMap((leg) => byId.get(leg.id) ?? []);
}

/**
 * Each row gives every leg a verdict, so it shows the exact set of legs its break fails and every
 * other leg passing: the legs whose documents it changes on its own host, the rest on the plain
 * host (rowOutcomes). The host making every upstream-optional choice about its documents runs the
 * legs the row must fail: the break is caught in that shape of the documents too. Those legs are
 * most of a row's cost on this host, whose events arrive over time, while the legs that pass there
 * are the plain host's, shown passing in oracle-host.test.ts and upstream-optional.test.ts. The
 * paging and long-poll modes change no document and have their own test.
 */
const DOCUMENT_MODES: readonly OracleMode[] = ['optional-members', 'vendor-keys', 'anon-tenant'];

/** Only a hang guard: the rows share the machine, and a busy one must not fail a row. */
const ROW_TIMEOUT_MS = 600_000;

/** The legs a row must fail, in LEGS order. */
const failingLegs = (row: Row): readonly LegDefinition[] =>
  LEGS.filter((leg) => row.fails[slugOfLeg(leg)] !== undefined);

/** The outcomes seen, against the table: every given leg fails when the row lists it, else passes. */
function expectFails(row: Row, outcomes: readonly LegOutcome[], legs: readonly LegDefinition[]) {
  const fails: Readonly<Record<string, string>> = row.fails;
  expect(outcomes.map((o) => o.requirement)).toEqual(legs.map((leg) => leg.id));
  const seen = outcomes.map((o) => [slugOf(o.requirement), o.disposition]);
  const wanted = outcomes.map((o) => {
    const slug = slugOf(o.requirement);
    return [slug, fails[slug] === undefined ? 'executed-pass' : 'executed-fail'];
  });
  expect(seen).toEqual(wanted);
  for (const outcome of outcomes) {
    const rule = fails[slugOf(outcome.requirement)];
    if (rule === undefined) continue;
    const failed = outcome.findings.filter((f) => !f.ok && f.severity === 'MUST');
    expect(failed.map((f) => f.rule)).toContain(rule);
  }
}

describe.concurrent('one defect at a time on the independent host', () => {
  it.each(ROWS.map((row) => [row.defect, Object.keys(row.fails).join(', '), row] as const))(
    '%s fails exactly %s, every other leg passing',
    async (_defect, _legs, row) => {
      expectFails(row, await rowOutcomes(row), LEGS);
    },
    ROW_TIMEOUT_MS,
  );

  it.each(ROWS.map((row) => [row.defect, Object.keys(row.fails).join(', '), row] as const))(
    '%s fails %s with optional members, vendor keys and an anon: tenant too',
    async (_defect, _legs, row) => {
      const legs = failingLegs(row);
      expect(legs.length, 'a row names the legs it fails').toBeGreaterThan(0);
      expectFails(row, await runRow(row, DOCUMENT_MODES, legs), legs);
    },
    ROW_TIMEOUT_MS,
  );
});
