// Each defect breaks one clause: against the conforming host on the fixture that shows it, the
// run differs at exactly the listed places, and there with the listed values.

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFECTS,
  startReferenceHost,
  type DefectName,
  type ReferenceHost,
} from '../../reference-host/index.ts';
import { diffPaths, view, type View } from './defect-view.ts';
import { call, type FixtureId } from './harness.ts';

/** Marks a place that must differ without pinning its new value (a whole log, an error body). */
const DIFFERS = Symbol('differs');
type Expected = Readonly<Record<string, unknown>>;

const MEAN = 'conformance-eval-trajectory-gate-mean';
const SUITE = 'conformance-eval-trajectory-gate';
const CONTROL = 'conformance-eval-trajectory-gate-control';
const BOUNDARY = 'conformance-eval-trajectory-gate-boundary';
const ANY = 'conformance-eval-trajectory-gate-any';
const ALL = 'conformance-eval-trajectory-gate-all';
const EXACT = 'conformance-eval-trajectory-readings-exact';
const IN_ORDER = 'conformance-eval-trajectory-readings-in-order';
const ANY_ORDER = 'conformance-eval-trajectory-readings-any-order';
const COST = 'conformance-eval-trajectory-gate-cost-limit';
const LATENCY = 'conformance-eval-trajectory-gate-latency-limit';
const HOLD = 'conformance-eval-trajectory-gate-limits-hold';
const MISS = 'conformance-eval-trajectory-gate-miss';
const MEASURED = 'conformance-eval-trajectory-measured';
const READINGS_MISS = 'conformance-eval-trajectory-readings-miss';
const ZERO_PASS_SCORE = 'conformance-eval-trajectory-zero-pass-score';
const ARGS = 'conformance-eval-trajectory-readings-args';
const COST_TRIALS = 'conformance-eval-trajectory-gate-cost-trials';
const LATENCY_OUTLIER = 'conformance-eval-trajectory-gate-latency-outlier';
const EXACT_EMPTY = 'conformance-eval-trajectory-readings-exact-empty';

/** Everything a run would have shown, for a defect under which no run starts. */
const NOTHING_RUN: Expected = {
  createKeys: DIFFERS,
  runId: undefined,
  pageKeys: DIFFERS,
  envelopeKeys: DIFFERS,
  firstEventId: undefined,
  log: DIFFERS,
  runCompleted: [],
  evalPayloads: DIFFERS,
  'rereads.lastSequences': [],
  terminal: false,
  runStatus: undefined,
  summaryStatus: 0,
  summary: undefined,
};
const NO_RUN: Expected = { ...NOTHING_RUN, createStatus: 422 };

/**
 * A reading task's one trial flipped to `to`: its eval.scored (payload `task + 1`), its summary
 * entry, and the suite's gated aggregate and count in the summary and in eval.completed (payload
 * `completed`); the suite's `passed` only where the flip crosses passScore.
 */
function flipped(
  tasks: readonly number[],
  to: boolean,
  completed: number,
  suite: { gatedAggregateScore: number; passedCount: number; passed?: boolean },
): Expected {
  const perTask = tasks.flatMap((task) => [
    [`evalPayloads.${task + 1}.passed`, to],
    [`evalPayloads.${task + 1}.trajectoryMatched`, to],
    [`summary.tasks.${task}.gatedScore`, to ? 1 : 0],
    [`summary.tasks.${task}.passed`, to],
  ]);
  return {
    ...Object.fromEntries(perTask),
    'summary.gatedAggregateScore': suite.gatedAggregateScore,
    'summary.passedCount': suite.passedCount,
    [`evalPayloads.${completed}.passedCount`]: suite.passedCount,
    ...(suite.passed === undefined
      ? {}
      : { 'summary.passed': suite.passed, [`evalPayloads.${completed}.passed`]: suite.passed }),
  };
}

/** Measured's eval.completed payload: after eval.started and one eval.scored per task. */
const MEASURED_COMPLETED = 16;
/** Measured's tasks whose one trial scores 1 and matches, passing exactly on passScore 1. */
const MEASURED_ON_PASS_SCORE = [3, 4, 10, 11];

/**
 * Measured's tasks whose output is graded `to` instead of the other score: each one's score,
 * verdict and gating score (its path matches), and the suite's aggregates and count in the
 * summary and in eval.completed. Correctly graded, 6 of 15 score 1 and 4 of 15 gate to 1.
 */
function regraded(tasks: readonly number[], to: 0 | 1): Expected {
  const delta = to === 1 ? tasks.length : -tasks.length;
  return {
    ...scoresOf(tasks, to),
    'summary.aggregateScore': (6 + delta) / 15,
    'summary.gatedAggregateScore': (4 + delta) / 15,
    'summary.passedCount': 4 + delta,
    [`evalPayloads.${MEASURED_COMPLETED}.aggregateScore`]: (6 + delta) / 15,
    [`evalPayloads.${MEASURED_COMPLETED}.passedCount`]: 4 + delta,
  };
}

/** The per-task part of `regraded`: the suite's figures left out. */
function scoresOf(tasks: readonly number[], to: 0 | 1): Expected {
  return Object.fromEntries(
    tasks.flatMap((task) => [
      [`evalPayloads.${task + 1}.score`, to],
      [`evalPayloads.${task + 1}.passed`, to === 1],
      [`summary.tasks.${task}.score`, to],
      [`summary.tasks.${task}.gatedScore`, to],
      [`summary.tasks.${task}.passed`, to === 1],
    ]),
  );
}

const TABLE: readonly { defect: DefectName; fixture: FixtureId; changes: Expected }[] = [
  {
    defect: 'unmigrated-0244',
    fixture: MEAN,
    changes: {
      'summary.gatedAggregateScore': undefined,
      'summary.tasks.0.gatedScore': undefined,
      'summary.tasks.0.passed': true,
      'summary.passed': true,
      'summary.passedCount': 1,
      'evalPayloads.3.passed': true,
      'evalPayloads.3.passedCount': 1,
    },
  },
  {
    defect: 'gated-fields-but-old-passed',
    fixture: SUITE,
    changes: { 'summary.passed': true, 'evalPayloads.3.passed': true },
  },
  {
    defect: 'score-zeroed',
    fixture: SUITE,
    changes: {
      'evalPayloads.2.score': 0,
      'evalPayloads.3.aggregateScore': 0.5,
      'summary.tasks.1.score': 0,
      'summary.aggregateScore': 0.5,
    },
  },
  {
    defect: 'gated-score-omitted-when-equal',
    fixture: SUITE,
    changes: { 'summary.tasks.0.gatedScore': undefined },
  },
  {
    defect: 'gated-aggregate-omitted',
    fixture: MEAN,
    changes: { 'summary.gatedAggregateScore': undefined },
  },
  // Mean's gated aggregate is 0, the one shipped suite whose gated aggregate is.
  {
    defect: 'gated-aggregate-omitted-when-zero',
    fixture: MEAN,
    changes: { 'summary.gatedAggregateScore': undefined },
  },
  // limits-hold's one-entry scripts are played once each: two eval.scored, not four.
  {
    defect: 'trials-from-script-length',
    fixture: HOLD,
    changes: {
      evalPayloads: DIFFERS,
      log: DIFFERS,
      'rereads.lastSequences': DIFFERS,
      'summary.totalCostUsd': 0.25,
      'summary.tasks.0.costUsd': 0.125,
      'summary.tasks.1.costUsd': 0.125,
      'summary.tasks.0.trials': DIFFERS,
      'summary.tasks.1.trials': DIFFERS,
    },
  },
  {
    defect: 'task-gated-all-or-nothing',
    fixture: BOUNDARY,
    changes: {
      'summary.tasks.0.gatedScore': 0,
      'summary.tasks.0.passed': false,
      'summary.gatedAggregateScore': 0,
      'summary.passed': false,
      'summary.passedCount': 0,
      'evalPayloads.5.passed': false,
      'evalPayloads.5.passedCount': 0,
    },
  },
  {
    defect: 'any-rule-gated-by-mean',
    fixture: ANY,
    changes: {
      'summary.tasks.0.passed': false,
      'summary.passedCount': 0,
      'evalPayloads.5.passedCount': 0,
    },
  },
  {
    // wrong-path-twice scores 1 in both trials, on a wrong path each time.
    defect: 'any-rule-counts-scores',
    fixture: ANY,
    changes: {
      'summary.tasks.1.passed': true,
      'summary.passedCount': 2,
      'evalPayloads.5.passedCount': 2,
    },
  },
  {
    // empty-path, the fourth task, loses its trajectory: no trajectoryMatched, no gatedScore.
    defect: 'empty-trajectory-ungated',
    fixture: EXACT,
    changes: {
      'evalPayloads.4.trajectoryMatched': undefined,
      'summary.tasks.3.gatedScore': undefined,
    },
  },
  {
    // no-path-miss-then-clean: its gating score equals its score, so only the member is new.
    defect: 'miss-gates-ungated-task',
    fixture: MISS,
    changes: { 'summary.tasks.1.gatedScore': 0.5 },
  },
  {
    // wrong-path-golden and miss-on-matching-path gate to 0, which clears passScore 0: their
    // tasks pass though their one trial, and so its eval.scored, still says it did not.
    defect: 'single-trial-passed-by-gated-score',
    fixture: ZERO_PASS_SCORE,
    changes: {
      'summary.tasks.0.passed': true,
      'summary.tasks.2.passed': true,
      'summary.passedCount': 3,
      'evalPayloads.4.passedCount': 3,
    },
  },
  {
    // miss-on-matching-path failed closed with a score of 0, which clears passScore 0.
    defect: 'trial-passed-ignores-fail-closed',
    fixture: ZERO_PASS_SCORE,
    changes: {
      'evalPayloads.3.passed': true,
      'summary.tasks.2.passed': true,
      'summary.passedCount': 2,
      'evalPayloads.4.passedCount': 2,
    },
  },
  {
    defect: 'strict-greater-than',
    fixture: BOUNDARY,
    changes: {
      'summary.tasks.0.passed': false,
      'summary.passed': false,
      'summary.passedCount': 0,
      'evalPayloads.5.passed': false,
      'evalPayloads.5.passedCount': 0,
    },
  },
  {
    defect: 'gated-fields-on-ungated-tasks',
    fixture: CONTROL,
    changes: {
      'summary.tasks.0.gatedScore': 1,
      'summary.tasks.1.gatedScore': 1,
      'summary.gatedAggregateScore': 1,
    },
  },
  {
    defect: 'completed-passed-old-rule',
    fixture: SUITE,
    changes: { 'evalPayloads.3.passed': true },
  },
  {
    defect: 'content-leak',
    fixture: CONTROL,
    changes: {
      'evalPayloads.1.output': 'O-88 shipped',
      'evalPayloads.2.output': 'Monday to Friday, 09:00 to 17:00',
    },
  },
  {
    defect: 'gated-out-of-range',
    fixture: SUITE,
    changes: { 'summary.tasks.0.gatedScore': 100, 'summary.gatedAggregateScore': 50 },
  },
  {
    defect: 'scored-per-task',
    fixture: MEAN,
    changes: { log: DIFFERS, evalPayloads: DIFFERS, 'rereads.lastSequences': DIFFERS },
  },
  {
    defect: 'gated-aggregate-other-aggregation',
    fixture: SUITE,
    changes: { 'summary.gatedAggregateScore': 0 },
  },
  {
    defect: 'trial-passed-ignores-trajectory',
    fixture: MEAN,
    changes: {
      'evalPayloads.1.passed': true,
      'evalPayloads.2.passed': true,
      'summary.tasks.0.trials.passAtK': 1,
      'summary.tasks.0.trials.passHatK': 1,
      'summary.tasks.0.trials.trialStats.passed': 2,
    },
  },
  {
    defect: 'rule-counts-trajectory-failed',
    fixture: ALL,
    changes: {
      'summary.tasks.0.passed': true,
      'summary.passedCount': 1,
      'evalPayloads.3.passedCount': 1,
    },
  },
  {
    defect: 'withhold-eval-suite',
    fixture: SUITE,
    changes: { 'discovery.agents.evalSuite': undefined, ...NO_RUN },
  },
  {
    defect: 'unadvertised-summary-refused',
    fixture: SUITE,
    changes: { 'discovery.agents.evalSuite': undefined, ...NO_RUN },
  },
  {
    defect: 'withhold-trajectory',
    fixture: SUITE,
    changes: { 'discovery.agents.evalSuite.trajectory': undefined },
  },
  {
    defect: 'withhold-trials',
    fixture: MEAN,
    changes: { 'discovery.agents.evalSuite.trials': undefined },
  },
  { defect: 'withhold-fixtures', fixture: SUITE, changes: { 'discovery.fixtures.length': 0 } },
  { defect: 'create-refused', fixture: SUITE, changes: NO_RUN },
  {
    defect: 'run-never-ends',
    fixture: SUITE,
    changes: {
      log: DIFFERS,
      runCompleted: [],
      evalPayloads: DIFFERS,
      'rereads.lastSequences': DIFFERS,
      terminal: false,
      runStatus: 'running',
      summaryStatus: 409,
      summary: DIFFERS,
    },
  },
  { defect: 'discovery-not-json', fixture: SUITE, changes: { discovery: DIFFERS } },
  // A host started without a key refuses nothing either way: the run must not differ at all. What
  // the defect does change, a request without a key served, is the test below the table.
  { defect: 'no-key-check', fixture: SUITE, changes: {} },
  { defect: 'any-bearer-accepted', fixture: SUITE, changes: {} },
  { defect: 'key-prefix-accepted', fixture: SUITE, changes: {} },
  { defect: 'key-case-insensitive', fixture: SUITE, changes: {} },
  { defect: 'key-last-character-unchecked', fixture: SUITE, changes: {} },
  { defect: 'key-truncation-accepted', fixture: SUITE, changes: {} },
  // Nor does a run ask for a run or a suite the host lacks: the refusals are tested below.
  { defect: 'unknown-run-bad-request', fixture: SUITE, changes: {} },
  { defect: 'unknown-suite-server-error', fixture: SUITE, changes: {} },
  {
    defect: 'discovery-no-witness',
    fixture: SUITE,
    changes: { 'discovery.agents.witness': undefined },
  },
  {
    defect: 'discovery-v1-flag',
    fixture: SUITE,
    changes: { 'discovery.agents.evalSuite.supported': true },
  },
  {
    defect: 'passed-count-wrong',
    fixture: SUITE,
    changes: { 'summary.passedCount': 2, 'evalPayloads.3.passedCount': 2 },
  },
  // The readings: exact's eval.completed is payload 5, in-order's 6, any-order's 7.
  {
    defect: 'args-ignored',
    fixture: EXACT,
    changes: flipped([2], true, 5, { gatedAggregateScore: 3 / 4, passedCount: 3, passed: true }),
  },
  {
    defect: 'absent-args-not-empty',
    fixture: EXACT,
    changes: flipped([0], false, 5, { gatedAggregateScore: 1 / 4, passedCount: 1 }),
  },
  {
    defect: 'exact-read-as-in-order',
    fixture: EXACT,
    changes: flipped([1], true, 5, { gatedAggregateScore: 3 / 4, passedCount: 3, passed: true }),
  },
  {
    // exact-empty-call-made's call meets an exact path that lists none.
    defect: 'empty-exact-matches-any',
    fixture: EXACT_EMPTY,
    changes: flipped([0], true, 3, { gatedAggregateScore: 1, passedCount: 2, passed: true }),
  },
  {
    // Mean has a trials block of 2 under rule mean; its two trials still run.
    defect: 'started-without-trials',
    fixture: MEAN,
    changes: { 'evalPayloads.0.trials': undefined },
  },
  {
    // Control's two task ids sort the other way round from the suite's order.
    defect: 'summary-tasks-sorted',
    fixture: CONTROL,
    changes: { 'summary.tasks': DIFFERS },
  },
  {
    defect: 'in-order-read-as-exact',
    fixture: IN_ORDER,
    changes: flipped([0], false, 6, { gatedAggregateScore: 0, passedCount: 0 }),
  },
  {
    defect: 'in-order-read-as-any-order',
    fixture: IN_ORDER,
    changes: flipped([1], true, 6, { gatedAggregateScore: 0.4, passedCount: 2, passed: true }),
  },
  {
    defect: 'any-order-read-as-in-order',
    fixture: ANY_ORDER,
    changes: flipped([0, 2], false, 7, {
      gatedAggregateScore: 1 / 6,
      passedCount: 1,
      passed: false,
    }),
  },
  {
    defect: 'any-order-read-as-unordered',
    fixture: ANY_ORDER,
    changes: flipped([1], false, 7, { gatedAggregateScore: 1 / 3, passedCount: 2, passed: false }),
  },
  {
    defect: 'any-order-first-fit',
    fixture: ANY_ORDER,
    changes: flipped([2], false, 7, { gatedAggregateScore: 1 / 3, passedCount: 2, passed: false }),
  },
  {
    defect: 'forbidden-ignored-when-matched',
    fixture: IN_ORDER,
    changes: flipped([3], true, 6, { gatedAggregateScore: 0.4, passedCount: 2, passed: true }),
  },
  {
    defect: 'repeated-call-collapsed',
    fixture: IN_ORDER,
    changes: flipped([4], true, 6, { gatedAggregateScore: 0.4, passedCount: 2, passed: true }),
  },
  // The suite-gated log is sequences 0..18.
  {
    defect: 'cursor-ignored',
    fixture: SUITE,
    changes: {
      'rereads.afterThird': Array.from({ length: 19 }, (_, i) => i),
      'rereads.afterLast': Array.from({ length: 19 }, (_, i) => i),
    },
  },
  {
    defect: 'cursor-inclusive',
    fixture: SUITE,
    changes: {
      'rereads.afterThird': Array.from({ length: 17 }, (_, i) => i + 2),
      'rereads.afterLast': [18],
    },
  },
  // The log's highest is 18 on every page; the page's own reading answers the cursor past the end.
  { defect: 'last-sequence-of-page', fixture: SUITE, changes: { 'rereads.lastSequences.2': 19 } },
  {
    defect: 'last-sequence-minus-one',
    fixture: SUITE,
    changes: { 'rereads.lastSequences': [-1, -1, -1] },
  },
  {
    defect: 'run-completed-missing',
    fixture: SUITE,
    changes: { 'log.length': 18, runCompleted: [], 'rereads.lastSequences': [17, 17, 17] },
  },
  { defect: 'run-completed-no-outputs', fixture: SUITE, changes: { 'runCompleted.0': [] } },
  {
    defect: 'run-completed-before-eval-completed',
    fixture: SUITE,
    changes: { 'log.17': 'run.completed', 'log.18': 'eval.completed' },
  },
  {
    defect: 'events-out-of-order',
    fixture: SUITE,
    changes: {
      'log.16': 'eval.completed',
      'log.17': 'eval.scored',
      'evalPayloads.2': DIFFERS,
      'evalPayloads.3': DIFFERS,
    },
  },
  {
    defect: 'summary-409-forever',
    fixture: SUITE,
    changes: { summaryStatus: 409, summary: DIFFERS, summaryRefusal: DIFFERS },
  },
  {
    defect: 'status-failed-on-gate',
    fixture: SUITE,
    changes: { runStatus: 'failed' },
  },
  {
    defect: 'cost-limit-dropped',
    fixture: COST,
    changes: { 'summary.passed': true, 'evalPayloads.3.passed': true },
  },
  {
    // A fresh host's first run of the suite is an odd one, so it drops the cost condition.
    defect: 'cost-limit-dropped-on-odd-runs',
    fixture: COST,
    changes: { 'summary.passed': true, 'evalPayloads.3.passed': true },
  },
  {
    defect: 'latency-limit-dropped',
    fixture: LATENCY,
    changes: { 'summary.passed': true, 'evalPayloads.9.passed': true },
  },
  {
    // Each trial costs 0.03, within maxCostUsd 0.05; only the total 0.06 is over it.
    defect: 'cost-limit-per-trial',
    fixture: COST,
    changes: { 'summary.passed': true, 'evalPayloads.3.passed': true },
  },
  {
    // Each task's mean cost, 0.03, summed over the two tasks: 0.06, within maxCostUsd 0.1.
    defect: 'cost-over-task-means',
    fixture: COST_TRIALS,
    changes: { 'summary.passed': true, 'evalPayloads.5.passed': true },
  },
  {
    // The mean latency 1750 is within maxP95LatencyMs 2000; the p95 3000 is not.
    defect: 'p95-as-mean',
    fixture: LATENCY,
    changes: { 'summary.passed': true, 'evalPayloads.9.passed': true },
  },
  {
    // Every task's mean latency, 1750, is within the limit; the p95 of the trials, 3000, is not.
    defect: 'p95-over-task-means',
    fixture: LATENCY,
    changes: { 'summary.passed': true, 'evalPayloads.9.passed': true },
  },
  {
    // Every task's summed latency, 200, is over the limit of 100 its trials sit on.
    defect: 'p95-over-task-sums',
    fixture: HOLD,
    changes: { 'summary.passed': false, 'evalPayloads.5.passed': false },
  },
  {
    // One task's slowest trial, 40000 ms, is over the limit of 2000, though the p95 of all forty
    // trial latencies, 500, is not.
    defect: 'p95-over-task-maxima',
    fixture: LATENCY_OUTLIER,
    changes: { 'summary.passed': false, 'evalPayloads.41.passed': false },
  },
  {
    // The total cost and the p95 sit exactly on their limits, which an exclusive reading breaks.
    defect: 'limits-exclusive',
    fixture: HOLD,
    changes: { 'summary.passed': false, 'evalPayloads.5.passed': false },
  },
  {
    // Each task's trial 1 has its missed call answered: it scores and passes, and so do the
    // tasks and the suite.
    defect: 'miss-not-failed-closed',
    fixture: MISS,
    changes: {
      'evalPayloads.1.score': 1,
      'evalPayloads.1.passed': true,
      'evalPayloads.1.failedClosed': false,
      'evalPayloads.3.score': 1,
      'evalPayloads.3.passed': true,
      'evalPayloads.3.failedClosed': false,
      'evalPayloads.5.aggregateScore': 1,
      'evalPayloads.5.passed': true,
      'evalPayloads.5.passedCount': 2,
      'summary.aggregateScore': 1,
      'summary.gatedAggregateScore': 1,
      'summary.passed': true,
      'summary.passedCount': 2,
      ...Object.fromEntries(
        [0, 1].flatMap((task) => [
          [`summary.tasks.${task}.score`, 1],
          [`summary.tasks.${task}.passed`, true],
          [`summary.tasks.${task}.trials.meanScore`, 1],
          [`summary.tasks.${task}.trials.passHatK`, 1],
          [`summary.tasks.${task}.trials.trialStats.passed`, 2],
          [`summary.tasks.${task}.trials.trialStats.failedClosed`, 0],
          [`summary.tasks.${task}.trials.trialStats.minScore`, 1],
        ]),
      ),
      'summary.tasks.0.gatedScore': 1,
    },
  },
  {
    defect: 'limits-hidden-and-ignored',
    fixture: COST,
    changes: {
      'evalPayloads.1.costUsd': undefined,
      'evalPayloads.2.costUsd': undefined,
      'evalPayloads.3.passed': true,
      'summary.tasks.0.costUsd': undefined,
      'summary.tasks.1.costUsd': undefined,
      'summary.totalCostUsd': undefined,
      'summary.passed': true,
    },
  },
  {
    // The nine outputs that miss their golden value score 1 and pass.
    defect: 'golden-never-graded',
    fixture: MEASURED,
    changes: regraded([0, 1, 2, 6, 7, 8, 9, 12, 13], 1),
  },
  // json-members-reordered no longer matches as text.
  { defect: 'json-match-as-text', fixture: MEASURED, changes: regraded([3], 0) },
  {
    // The four trials exactly on passScore 1 no longer pass.
    defect: 'trial-verdict-strict',
    fixture: MEASURED,
    changes: {
      ...Object.fromEntries(
        MEASURED_ON_PASS_SCORE.flatMap((task) => [
          [`evalPayloads.${task + 1}.passed`, false],
          [`summary.tasks.${task}.passed`, false],
        ]),
      ),
      'summary.passedCount': 0,
      [`evalPayloads.${MEASURED_COMPLETED}.passedCount`]: 0,
    },
  },
  {
    defect: 'args-case-insensitive',
    fixture: MEASURED,
    changes: flipped([5], true, MEASURED_COMPLETED, {
      gatedAggregateScore: 5 / 15,
      passedCount: 5,
    }),
  },
  {
    defect: 'args-subset',
    fixture: MEASURED,
    changes: flipped([14], true, MEASURED_COMPLETED, {
      gatedAggregateScore: 5 / 15,
      passedCount: 5,
    }),
  },
  // args-members-reordered no longer matches: gated 0 < 0.5 fails the suite.
  {
    defect: 'args-compared-as-text',
    fixture: ARGS,
    changes: flipped([0], false, 3, { gatedAggregateScore: 0, passedCount: 0, passed: false }),
  },
  // args-array-reordered now matches: gated 1, the suite passing either way.
  {
    defect: 'args-arrays-unordered',
    fixture: ARGS,
    changes: flipped([1], true, 3, { gatedAggregateScore: 1, passedCount: 2 }),
  },
  { defect: 'exact-trims-whitespace', fixture: MEASURED, changes: regraded([6], 1) },
  { defect: 'golden-case-insensitive', fixture: MEASURED, changes: regraded([7, 8], 1) },
  { defect: 'exact-members-sorted', fixture: MEASURED, changes: regraded([9], 1) },
  {
    // Values, not texts: the reordered object now equals its value, the object no longer equals
    // the string spelling it, so the two scores swap and every aggregate stays as it was.
    defect: 'exact-compared-as-values',
    fixture: MEASURED,
    changes: { ...scoresOf([9], 1), ...scoresOf([10], 0) },
  },
  // Of measured's exact values only exact-members-in-own-order's is not a string.
  { defect: 'exact-non-string-as-value', fixture: MEASURED, changes: regraded([9], 1) },
  { defect: 'contains-strings-only', fixture: MEASURED, changes: regraded([11], 0) },
  { defect: 'json-match-parses-string', fixture: MEASURED, changes: regraded([12], 1) },
  { defect: 'json-match-arrays-unordered', fixture: MEASURED, changes: regraded([13], 1) },
  {
    // empty-list-misses is answered: it scores 1 and the suite reads 1 (passing either way).
    defect: 'empty-responses-never-miss',
    fixture: READINGS_MISS,
    changes: {
      'evalPayloads.1.score': 1,
      'evalPayloads.1.passed': true,
      'evalPayloads.1.failedClosed': false,
      'summary.tasks.0.score': 1,
      'summary.tasks.0.gatedScore': 1,
      'summary.tasks.0.passed': true,
      'summary.aggregateScore': 1,
      'summary.gatedAggregateScore': 1,
      'summary.passedCount': 3,
      'evalPayloads.4.aggregateScore': 1,
      'evalPayloads.4.passedCount': 3,
    },
  },
  {
    // no-list-never-misses fails closed; its task lists no toolResponses, so no failedClosed.
    defect: 'absent-responses-miss',
    fixture: READINGS_MISS,
    changes: {
      'evalPayloads.2.score': 0,
      'evalPayloads.2.passed': false,
      'summary.tasks.1.score': 0,
      'summary.tasks.1.gatedScore': 0,
      'summary.tasks.1.passed': false,
      'summary.aggregateScore': 1 / 3,
      'summary.gatedAggregateScore': 1 / 3,
      'summary.passed': false,
      'summary.passedCount': 1,
      'evalPayloads.4.aggregateScore': 1 / 3,
      'evalPayloads.4.passed': false,
      'evalPayloads.4.passedCount': 1,
    },
  },
  {
    defect: 'response-less-entry-misses',
    fixture: READINGS_MISS,
    changes: {
      'evalPayloads.3.score': 0,
      'evalPayloads.3.passed': false,
      'evalPayloads.3.failedClosed': true,
      'summary.tasks.2.score': 0,
      'summary.tasks.2.gatedScore': 0,
      'summary.tasks.2.passed': false,
      'summary.aggregateScore': 1 / 3,
      'summary.gatedAggregateScore': 1 / 3,
      'summary.passed': false,
      'summary.passedCount': 1,
      'evalPayloads.4.aggregateScore': 1 / 3,
      'evalPayloads.4.passed': false,
      'evalPayloads.4.passedCount': 1,
    },
  },
  {
    defect: 'latency-reported-in-seconds',
    fixture: LATENCY,
    // Each task's trials take 500 and 3000 ms, in turn; each task reports its slowest, 3000.
    changes: {
      ...Object.fromEntries(
        [1, 3, 3, 1, 1, 3, 3, 1].map((s, i) => [`evalPayloads.${i + 1}.latencyMs`, s]),
      ),
      ...Object.fromEntries([0, 1, 2, 3].map((t) => [`summary.tasks.${t}.latencyMs`, 3])),
    },
  },
  {
    defect: 'protocol-v1-only',
    fixture: SUITE,
    changes: {
      'discovery.protocolVersions.0': '1.11',
      'discovery.preferredVersion': '1.11',
      ...NOTHING_RUN,
      createStatus: 406,
      versions: ['1.11'],
    },
  },
  {
    defect: 'trials-max-count-1',
    fixture: MEAN,
    changes: { 'discovery.agents.evalSuite.trials.maxCount': 1 },
  },
  {
    defect: 'error-body-dialect',
    fixture: SUITE,
    changes: {
      summaryRefusal: {
        error: { code: 'run_state_conflict', message: 'the summary is being finalised' },
      },
    },
  },
  { defect: 'run-id-untenanted', fixture: SUITE, changes: { runId: 'run-N' } },
  { defect: 'event-id-short', fixture: SUITE, changes: { firstEventId: 'e0' } },
  { defect: 'events-unversioned', fixture: SUITE, changes: { envelopeKeys: DIFFERS } },
  { defect: 'create-answer-no-events-url', fixture: SUITE, changes: { createKeys: DIFFERS } },
  { defect: 'poll-page-extra-member', fixture: SUITE, changes: { pageKeys: DIFFERS } },
  { defect: 'version-header-missing', fixture: SUITE, changes: { versions: ['absent'] } },
];

function valueAt(v: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[key]
          : undefined,
      v,
    );
}

const covers = (prefix: string, path: string): boolean =>
  path === prefix || path.startsWith(`${prefix}.`);

/**
 * Only a hang guard: a run ends by itself, or its host's hang watch says it never will, so no view
 * depends on how fast the machine serves it.
 */
const HANG_GUARD_MS = 20_000;
const conforming = new Map<FixtureId, View>();
let host: ReferenceHost | undefined;

beforeAll(async () => {
  const ok = await startReferenceHost();
  try {
    for (const id of new Set(TABLE.map((t) => t.fixture))) {
      conforming.set(id, await view(ok.url, id, HANG_GUARD_MS));
    }
  } finally {
    await ok.close();
  }
});

afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('reference host defects', () => {
  it('the table names every defect exactly once', () => {
    expect(TABLE.map((t) => t.defect).sort()).toEqual(DEFECTS.map((d) => d.name).sort());
  });

  it.each(TABLE)('$defect changes only what it claims on $fixture', async (row) => {
    let hung = false;
    host = await startReferenceHost({
      defect: row.defect,
      onHang: () => {
        hung = true;
      },
    });
    const broken = await view(host.url, row.fixture, HANG_GUARD_MS, () => hung);
    const diff = diffPaths(conforming.get(row.fixture), broken);
    const claimed = Object.keys(row.changes);
    expect(diff.filter((p) => !claimed.some((c) => covers(c, p)))).toEqual([]);
    expect(claimed.filter((c) => !diff.some((p) => covers(c, p)))).toEqual([]);
    for (const [path, value] of Object.entries(row.changes)) {
      if (value !== DIFFERS) expect(valueAt(broken, path), path).toEqual(value);
    }
  });

  // The refusals the suite provokes: each defect changes the answer to exactly one of them, but
  // no-key-check, which serves a wrong key as it serves none.
  const KEY = 'k'.repeat(32);
  const UNKNOWN_RUN = '/runs/reference%2Fprobe-0000000000000000/eval-summary';
  const UNKNOWN_SUITE = JSON.stringify({
    mode: 'eval',
    evalSuiteRef: 'openwop-eval-gate.evals.no-such-suite@0.0.0',
    agentId: 'no-such-agent',
  });
  const REFUSALS = [
    { name: 'keyless', method: 'GET', path: UNKNOWN_RUN, apiKey: undefined, body: undefined },
    {
      name: 'wrong key',
      method: 'GET',
      path: UNKNOWN_RUN,
      apiKey: 'w'.repeat(32),
      body: undefined,
    },
    ...(
      [
        ['key extended', `${KEY}x`],
        ['key in upper case', KEY.toUpperCase()],
        ['last character changed', `${KEY.slice(0, -1)}x`],
        ['last character removed', KEY.slice(0, -1)],
      ] as const
    ).map(([name, apiKey]) => ({
      name,
      method: 'GET',
      path: UNKNOWN_RUN,
      apiKey,
      body: undefined,
    })),
    { name: 'unknown run', method: 'GET', path: UNKNOWN_RUN, apiKey: KEY, body: undefined },
    { name: 'unknown suite', method: 'POST', path: '/runs', apiKey: KEY, body: UNKNOWN_SUITE },
  ] as const;
  const refusals = async (url: string): Promise<Record<string, unknown>> => {
    const out: Record<string, unknown> = {};
    for (const r of REFUSALS) {
      const answer = await call(url, r.method, r.path, {
        ...(r.apiKey === undefined ? {} : { apiKey: r.apiKey }),
        ...(r.body === undefined ? {} : { body: r.body }),
      });
      out[r.name] = [answer.status, (answer.body as { error?: unknown } | undefined)?.error];
    }
    return out;
  };
  const CONFORMING = {
    keyless: [401, 'unauthenticated'],
    'wrong key': [401, 'unauthenticated'],
    'key extended': [401, 'unauthenticated'],
    'key in upper case': [401, 'unauthenticated'],
    'last character changed': [401, 'unauthenticated'],
    'last character removed': [401, 'unauthenticated'],
    'unknown run': [404, 'not_found'],
    'unknown suite': [404, 'not_found'],
  };

  const NEAR_AND_WRONG_SERVED = {
    'wrong key': [404, 'not_found'],
    'key extended': [404, 'not_found'],
    'key in upper case': [404, 'not_found'],
    'last character changed': [404, 'not_found'],
    'last character removed': [404, 'not_found'],
  };

  it('a conforming host answers every provoked refusal as the contract says', async () => {
    const ok = await startReferenceHost({ apiKey: KEY });
    try {
      expect(await refusals(ok.url)).toEqual(CONFORMING);
    } finally {
      await ok.close();
    }
  });

  it.each([
    {
      defect: 'no-key-check',
      changes: { keyless: [404, 'not_found'], ...NEAR_AND_WRONG_SERVED },
    },
    { defect: 'any-bearer-accepted', changes: NEAR_AND_WRONG_SERVED },
    { defect: 'key-prefix-accepted', changes: { 'key extended': [404, 'not_found'] } },
    { defect: 'key-case-insensitive', changes: { 'key in upper case': [404, 'not_found'] } },
    {
      defect: 'key-last-character-unchecked',
      changes: { 'last character changed': [404, 'not_found'] },
    },
    {
      defect: 'key-truncation-accepted',
      changes: { 'last character removed': [404, 'not_found'] },
    },
    { defect: 'unknown-run-bad-request', changes: { 'unknown run': [400, 'validation_error'] } },
    { defect: 'unknown-suite-server-error', changes: { 'unknown suite': [500, 'internal_error'] } },
  ] as const)('$defect changes only its provoked refusals', async ({ defect, changes }) => {
    host = await startReferenceHost({ apiKey: KEY, defect });
    expect(await refusals(host.url)).toEqual({ ...CONFORMING, ...changes });
  });

  it('without agents.evalSuite the summary it gates is answered 404; unadvertised-summary-refused answers it 422 and changes nothing else', async () => {
    const withheld = await startReferenceHost({ apiKey: KEY, defect: 'withhold-eval-suite' });
    let fair: Record<string, unknown>;
    try {
      fair = await refusals(withheld.url);
    } finally {
      await withheld.close();
    }
    expect(fair['unknown run']).toEqual([404, 'not_found']);
    host = await startReferenceHost({ apiKey: KEY, defect: 'unadvertised-summary-refused' });
    expect(await refusals(host.url)).toEqual({
      ...fair,
      'unknown run': [422, 'capability_not_provided'],
    });
  });
});
