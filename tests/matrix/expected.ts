// The falsifiability matrix, written by hand: for the conformant reference host and for each of
// its defects, the disposition every leg must reach under OPENWOP_REQUIRE_BEHAVIOR=true with no
// opt-outs, the MUST rules that must be among a failing leg's failed findings, and the SHOULD
// wire rules that must be among a leg's failed findings (a wire defect never fails a leg, so its
// legs pass and the SHOULD findings are what show it).
//
// Each row is derived from the defect's description and the fixture files, not from a run. The
// correct grading of the host fixtures (contract §4), which every row starts from:
//   mean      1 task, 2 trials, rule mean, passScore 0.6: both trials score 1 and hit a forbidden
//             tool; task score 1, gatedScore 0, passed false; aggregate 1, gated 0, suite false.
//   gate      2 tasks, no trials block: task 1 matches (score 1, gated 1, passed), task 2 takes
//             the wrong path (score 1, gated 0, not passed); aggregate 1, gated 0.5, suite false.
//   control   2 tasks without trajectories, both score 1 and pass; no gated field; suite true.
//   boundary  1 task, 4 trials, rule mean, passScore 0.75: trial 3 hits a forbidden tool; task
//             score 1, gatedScore 0.75, passed true (≥ is inclusive); gated 0.75, suite true.
//   any       2 tasks, 2 trials, rule any, every output golden: wrong-path-then-match takes the
//             wrong path in trial 1 and matches in trial 2 (passed true, gatedScore 0.5);
//             wrong-path-twice takes it in both (passed false, gatedScore 0); gated aggregate
//             0.25 < 0.6, suite false, passedCount 1.
//   all       1 task, 2 trials, rule all: trial 1 matches, trial 2 hits a forbidden tool; task
//             score 1, gatedScore 0.5, passed false; gated 0.5, suite false, passedCount 0.
//   readings  one trial per task, every output golden, so each task's gatedScore is 1 exactly
//             when its path matched (docs/host-guide.md, "Trajectory readings"):
//             exact     absent-args-are-empty 1, extra-call 0, args-differ 0, empty-path
//                       (no call expected, none made) 1; gated 0.5 < 0.6, suite false.
//             in-order  extra-call 1, swapped 0, args-differ 0, forbidden-inside 0,
//                       repeat-once 0; gated 0.2 < 0.35, suite false.
//             any-order swapped 1, extra-call 1, pairs-args-first 1, args-differ 0,
//                       forbidden-inside 0, repeat-once 0; gated 0.5 ≥ 0.45, suite true.
//             A defect that accepts one more path lifts exact to 0.75 and in-order to 0.4, so
//             both suites pass; one that rejects one more drops any-order to 1/3, which fails.
//             exact-empty (passScore 0.6): exact-empty-call-made calls a tool where its
//                       exact path lists none 0, exact-empty-no-call 1; gated 0.5 < 0.6,
//                       suite false. It reads as readings-exact wherever a row treats
//                       the reading legs alike.
//   cost-limit, latency-limit, limits-hold
//             every trial matches (score 1, gated 1, passed); aggregate and gated 1 ≥ 0.6.
//             cost-limit (no trials block): 2 tasks at cost 0.03, each within maxCostUsd 0.05
//             and the total 0.06 over it: suite false. latency-limit (2 trials, rule mean): 4
//             tasks whose trials take 500 and 3000 ms, so the p95 of the 8 trial latencies is 3000
//             (nearest-rank, interpolated and maximum) > 2000 while their mean and median 1750,
//             their minimum 500 and every task's mean 1750 are not: suite false. limits-hold (2
//             trials, rule mean, one script entry played in both): 2 tasks whose trials cost
//             0.125 and take 100 ms, exactly on maxCostUsd 0.5 and maxP95LatencyMs 100 while
//             each task's sum of latencies, 200, is over it: suite true.
//   cost-limit-over-trials
//             2 tasks, 2 trials, rule mean, maxCostUsd 0.1: every trial matches and costs 0.03,
//             so the total 0.12 is over the limit while each trial (0.03), each task's mean
//             (0.03) and their sum (0.06), and each task's sum (0.06) are not: aggregate and
//             gated 1 ≥ 0.6, suite false, passedCount 2.
//   latency-limit-over-trials
//             2 tasks, 20 trials, rule mean, maxP95LatencyMs 2000: every trial matches; one task
//             takes 500 ms in nineteen trials and 40000 in its tenth, the other 500 in all, so
//             the p95 of the forty trial latencies is 500 (nearest rank, interpolated either
//             way) and suite true, while one figure per task (slowest 40000, sum 49500, mean
//             2475) is over the limit.
//   miss      2 tasks, 2 trials, rule mean: in each, trial 1 calls a tool with no recorded
//             response and fails closed (score 0, gating 0), trial 2 is clean (1); task score
//             0.5, passed false; miss-then-clean has a trajectory (gatedScore 0.5),
//             no-path-miss-then-clean has none (no gatedScore); aggregate and gated 0.5, suite
//             false, passedCount 0.
//   measured  15 tasks, no trials block, passScore 1, one in-order call each: the outputs of
//             exact-output-differs, contains-output-lacks, json-member-differs and the near
//             misses of host guide §6 (exact-whitespace-kept, exact-case-kept,
//             contains-case-kept, exact-members-in-own-order, json-string-not-parsed,
//             json-array-order-kept) miss their golden value (score 0, gated 0, not passed);
//             json-members-reordered, contains-output-inside, exact-json-text-matches and
//             contains-json-text-inside match only as documented (score 1, gated 1, passed
//             exactly on passScore); args-differ-in-case calls with "c-8006" for "C-8006" and
//             args-superset with a member more than expected (score 1, gated 0, not passed).
//             Aggregate 6/15, gated 4/15, suite false, passedCount 4.
//   readings-miss
//             3 tasks, no trials block, passScore 0.6, outputs golden: empty-list-misses fails
//             closed (0, 0); no-list-never-misses and entry-without-response-records do not
//             (1, 1). Aggregate and gated 2/3, suite true, passedCount 2.
//   zero-pass-score
//             3 tasks, no trials block, passScore 0, in-order paths: wrong-path-golden makes
//             one of its two expected calls with a golden output (score 1, gated 0, passed
//             false: its one trial failed its trajectory); matching-path-misses matches and
//             misses its golden value (score 0, gated 0, passed true: 0 ≥ 0 and the path held);
//             miss-on-matching-path matches but calls a tool its task does not record, so it
//             fails closed (score 0, gated 0, passed false, though 0 ≥ 0).
//             Without a trials block a task's verdict is its one trial's (contract §4), not
//             gatedScore ≥ passScore, which at passScore 0 passes the failed ones too. The suite
//             reads gatedAggregateScore ≥ passScore (RFC 0246 §B): aggregate 1/3, gated 0 ≥ 0,
//             suite true, passedCount 1.
//   readings-args
//             2 tasks, no trials block, passScore 0.5, outputs golden, one in-order call each:
//             args-members-reordered sends its two expected members in the other order (match,
//             gated 1, passed); args-array-reordered sends its expected list in the other order
//             (no match, gated 0, not passed). Aggregate 1, gated 0.5 ≥ 0.5, suite true,
//             passedCount 1. Args read as text drop the first (gated 0, suite false); arrays read
//             as sets lift the second (gated 1).

import type { DefectName } from '../../reference-host/index.ts';
import type { RuleId } from '../../lib/eval-gate-witness.ts';
import type { Disposition } from '../../lib/types.ts';
import { LEGS, slugOfLeg, type LegSlug } from '../../lib/legs.ts';

/**
 * The columns: every leg of `LEGS`. `Row` is keyed by their type, so a new leg does not compile
 * until `everyHostLeg` and every row written out leg by leg state its expectation.
 */
export const LEG_SLUGS: readonly LegSlug[] = LEGS.map(slugOfLeg);
export type { LegSlug };

/** `run.served` is the finding run-leg makes when a host refuses or mis-serves a listed fixture. */
export type FailingRule = RuleId | 'run.served';

/** The SHOULD rules on the published v2 wire shapes; none fails a leg on its own. */
export type WireRule = Extract<RuleId, `wire.${string}`>;

export const isWireRule = (rule: string): boolean => rule.startsWith('wire.');

/**
 * The SHOULD rules a row may name: the wire rules, and `events.started-trials`, whose one clause
 * (eval.started's trials block) a defect breaks without touching any MUST. The other SHOULD rules
 * (`task.trial-stats`, `trial.flags`) follow from a MUST defect and are not compared.
 */
export type WarnedRule = WireRule | 'events.started-trials';

export const isWarnedRule = (rule: string): boolean =>
  isWireRule(rule) || rule === 'events.started-trials';

export interface LegExpectation {
  readonly disposition: Disposition;
  /** MUST rules that must be among the leg's failed findings (a subset, not the whole set). */
  readonly rules?: readonly FailingRule[];
  /** What the leg's reason must say: which gate failed, or what could not be observed. */
  readonly reason?: RegExp;
  /**
   * SHOULD rules (`WarnedRule`) that must be among the leg's failed findings. Absent: the leg must
   * show no failed finding of those rules at all, so a defect in one clause cannot hide behind
   * another.
   */
  readonly warnings?: readonly WarnedRule[];
}

export type Row = Readonly<Record<LegSlug, LegExpectation>>;
export type RowName = 'conformant' | DefectName;

const PASS: LegExpectation = { disposition: 'executed-pass' };
const fail = (...rules: FailingRule[]): LegExpectation => ({ disposition: 'executed-fail', rules });
/** A capability or fixture gate that fails in strict mode fails the leg before any run starts. */
const gateFail = (reason: RegExp): LegExpectation => ({ disposition: 'executed-fail', reason });
const blocked = (reason: RegExp): LegExpectation => ({ disposition: 'blocked', reason });
/** A wire defect: the leg still passes, and the named SHOULD rules fail. */
const warn = (...warnings: WarnedRule[]): LegExpectation => ({
  disposition: 'executed-pass',
  warnings,
});

const NO_EVAL_SUITE = gateFail(/does not advertise agents\.evalSuite(?!\.)/);
const NO_TRAJECTORY = gateFail(/does not advertise agents\.evalSuite\.trajectory/);
const NO_TRIALS = gateFail(/does not advertise agents\.evalSuite\.trials/);
const NO_FIXTURE = gateFail(/does not list fixture/);
const REFUSED = fail('run.served');
const NEVER_TERMINAL = blocked(/could not observe the run \(events\)/);
const NO_SUMMARY = blocked(/could not observe the run \(summary\)/);
const NO_DISCOVERY = blocked(/discovery unreadable/);
/** Contract §2: the major-2 gate, checked before any other. */
export const NO_MAJOR_2_REASON = /2\.x/;
const NO_MAJOR_2 = gateFail(NO_MAJOR_2_REASON);
/** Contract §2: an advertised limit below the fixture's need, named. */
export const TRIALS_LIMIT_REASON = /trials\.maxCount/;
const TRIALS_LIMIT = gateFail(TRIALS_LIMIT_REASON);

/** The three reading legs alike; a row spreads it where they agree. */
const readingLegs = (
  leg: LegExpectation,
): Pick<
  Row,
  'readings-exact' | 'readings-in-order' | 'readings-any-order' | 'readings-exact-empty'
> => ({
  'readings-exact': leg,
  'readings-exact-empty': leg,
  'readings-in-order': leg,
  'readings-any-order': leg,
});
/**
 * The limit and miss columns, one expectation for all four; a row overrides the ones that differ.
 * Kept apart from the first seven so columns added in parallel merge as one line each.
 */
const limitLegs = (leg: LegExpectation) =>
  ({
    'cost-limit-kept': leg,
    'latency-limit-kept': leg,
    'limits-hold': leg,
    'miss-gated': leg,
    'cost-limit-over-trials': leg,
    'latency-limit-over-trials': leg,
  }) as const;
/** The two columns that measure grading and misses: no trials block, one in-order call a task. */
const measureLegs = (leg: LegExpectation) =>
  ({ 'outputs-measured': leg, 'readings-miss': leg }) as const;

/** Every host leg, with the server-free shape leg passing: it reads no host at all. */
const everyHostLeg = (leg: LegExpectation): Row => ({
  'mean-gated': leg,
  'suite-gated': leg,
  'gated-fields-shape': PASS,
  'no-trajectory-ungated': leg,
  'mean-partial-inclusive': leg,
  'any-rule-unchanged': leg,
  'all-rule-unchanged': leg,
  ...readingLegs(leg),
  ...limitLegs(leg),
  ...measureLegs(leg),
  'zero-pass-score': leg,
  'readings-args': leg,
});

/**
 * A trajectory read another way flips the verdict of one trial: its event, its task's gating
 * score and verdict (one trial, no trials block) and the suite's gated aggregate. `suite.passed`
 * is added where the flip carries the aggregate across passScore.
 */
const misread = (...more: FailingRule[]): LegExpectation =>
  fail(
    'trial.passed',
    'task.gated-score-value',
    'task.passed',
    'suite.gated-aggregate-value',
    ...more,
  );

/** A measured output graded wrong: its score, its trial verdict and everything built on them. */
const MISGRADED = fail(
  'trial.score-unchanged',
  'trial.passed',
  'task.score-unchanged',
  'task.gated-score-value',
  'task.passed',
  'suite.aggregate-unchanged',
  'suite.gated-aggregate-value',
);

/** A call that must not miss read as a miss: the miss fixture's trial, its task and the suite drop. */
const WRONGLY_MISSED: Row = {
  ...everyHostLeg(PASS),
  'readings-miss': fail(
    'trial.score-unchanged',
    'trial.passed',
    'task.score-unchanged',
    'task.gated-score-value',
    'task.passed',
    'suite.aggregate-unchanged',
    'suite.gated-aggregate-value',
    'suite.passed',
  ),
};

export const EXPECTED: Readonly<Record<RowName, Row>> = {
  conformant: everyHostLeg(PASS),

  // No gated fields anywhere; mean and suite passed read raw scores (all 1). Control has nothing
  // to gate; boundary's verdicts agree with the raw ones (1 ≥ 0.75) but its fields are missing;
  // the all task's verdict counts trials and stays false, while its suite passes on the raw 1.
  'unmigrated-0244': {
    'mean-gated': fail(
      'task.passed',
      'task.gated-score-present',
      'suite.gated-aggregate-present',
      'suite.passed',
    ),
    'suite-gated': fail(
      'task.gated-score-present',
      'suite.gated-aggregate-present',
      'suite.passed',
    ),
    'gated-fields-shape': PASS,
    'no-trajectory-ungated': PASS,
    'mean-partial-inclusive': fail('task.gated-score-present', 'suite.gated-aggregate-present'),
    'any-rule-unchanged': fail(
      'task.gated-score-present',
      'suite.gated-aggregate-present',
      'suite.passed',
    ),
    'all-rule-unchanged': fail(
      'task.gated-score-present',
      'suite.gated-aggregate-present',
      'suite.passed',
    ),
    ...readingLegs(
      fail('task.gated-score-present', 'suite.gated-aggregate-present', 'suite.passed'),
    ),
    'readings-any-order': fail('task.gated-score-present', 'suite.gated-aggregate-present'),
    // The limit fixtures match and the miss's trial already scores 0, so raw and gated verdicts
    // agree there; only the fields are missing.
    ...limitLegs(fail('task.gated-score-present', 'suite.gated-aggregate-present')),
    // Raw and gated aggregates fall on the same side of passScore: 0.5 and 1/3 below 1, 2/3 twice.
    ...measureLegs(fail('task.gated-score-present', 'suite.gated-aggregate-present')),
    // Without a trials block the old rule and the new decide each task alike, and the raw 0.5
    // and the gated 0 both clear passScore 0.
    'zero-pass-score': fail('task.gated-score-present', 'suite.gated-aggregate-present'),
    // Raw 1 and gated 0.5 both clear passScore 0.5.
    'readings-args': fail('task.gated-score-present', 'suite.gated-aggregate-present'),
  },

  // Right fields, old verdicts: wrong wherever the raw score (1) clears passScore and the gated
  // one does not: mean (task and suite), gate, any and all (suite). Boundary clears both ways.
  'gated-fields-but-old-passed': {
    'mean-gated': fail('task.passed', 'suite.passed'),
    'suite-gated': fail('suite.passed'),
    'gated-fields-shape': PASS,
    'no-trajectory-ungated': PASS,
    'mean-partial-inclusive': PASS,
    'any-rule-unchanged': fail('suite.passed'),
    'all-rule-unchanged': fail('suite.passed'),
    ...readingLegs(fail('suite.passed')),
    'readings-any-order': PASS,
    // Raw and gated values are equal on the limit fixtures (1) and the miss (0.5); measured's
    // raw 0.5 fails its passScore 1 as its gated 1/3 does, and readings-miss has no path to gate.
    ...limitLegs(PASS),
    ...measureLegs(PASS),
    // Raw 1/3 and gated 0 both clear passScore 0; raw 1 and gated 0.5 clear 0.5.
    'zero-pass-score': PASS,
    'readings-args': PASS,
  },

  // Every fixture but control has a trajectory-failed trial, whose zeroed score lowers the trial,
  // the task mean and the aggregate; the verdicts come out right, which is exactly §C's trap.
  'score-zeroed': {
    'mean-gated': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'task.mean-score',
      'suite.aggregate-unchanged',
    ),
    'suite-gated': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'suite.aggregate-unchanged',
    ),
    'gated-fields-shape': PASS,
    'no-trajectory-ungated': PASS,
    'mean-partial-inclusive': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'task.mean-score',
      'suite.aggregate-unchanged',
    ),
    'any-rule-unchanged': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'task.mean-score',
      'suite.aggregate-unchanged',
    ),
    'all-rule-unchanged': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'task.mean-score',
      'suite.aggregate-unchanged',
    ),
    ...readingLegs(
      fail('trial.score-unchanged', 'task.score-unchanged', 'suite.aggregate-unchanged'),
    ),
    ...limitLegs(PASS),
    // args-differ-in-case fails its path with a golden output.
    'outputs-measured': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'suite.aggregate-unchanged',
    ),
    'readings-miss': PASS,
    // wrong-path-golden's golden output on a failed path drops to 0, and the aggregate with it.
    'zero-pass-score': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'suite.aggregate-unchanged',
    ),
    // args-array-reordered's golden output on a failed path drops to 0.
    'readings-args': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'suite.aggregate-unchanged',
    ),
  },

  // gatedScore equals score (1 = 1) on gate's matching task, the reading tasks whose path matched
  // and the limit fixtures' tasks, and on the miss task (0.5 = 0.5, both lowered by the
  // failed-closed trial); every other trajectory task is gated below its score, so it keeps it.
  'gated-score-omitted-when-equal': {
    ...everyHostLeg(PASS),
    'suite-gated': fail('task.gated-score-present'),
    ...readingLegs(fail('task.gated-score-present')),
    ...limitLegs(fail('task.gated-score-present')),
    ...measureLegs(fail('task.gated-score-present')),
    // matching-path-misses and miss-on-matching-path score 0 and gate to 0.
    'zero-pass-score': fail('task.gated-score-present'),
    // args-members-reordered scores and gates 1.
    'readings-args': fail('task.gated-score-present'),
  },

  // Only mean's and zero-pass-score's gated aggregates are 0.
  'gated-aggregate-omitted-when-zero': {
    ...everyHostLeg(PASS),
    'mean-gated': fail('suite.gated-aggregate-present'),
    'zero-pass-score': fail('suite.gated-aggregate-present'),
  },
  // Only limits-hold plays a one-entry script in each of its trials.
  'trials-from-script-length': {
    ...everyHostLeg(PASS),
    'limits-hold': fail('events.scored-count'),
    // latency-outlier's quick task scripts one entry for its twenty trials.
    'latency-limit-over-trials': fail('events.scored-count'),
  },

  'gated-aggregate-omitted': {
    ...everyHostLeg(fail('suite.gated-aggregate-present')),
    'no-trajectory-ungated': PASS,
  },

  // All-or-nothing agrees with the mean when every trial failed (mean) or there is one trial
  // (gate); boundary drops to 0 and fails its mean rule; any and all keep their verdicts (rules
  // that count trials, on suites that fail either way) but not their values.
  'task-gated-all-or-nothing': {
    ...everyHostLeg(PASS),
    'mean-partial-inclusive': fail(
      'task.gated-score-value',
      'task.passed',
      'suite.gated-aggregate-value',
      'suite.passed',
    ),
    'any-rule-unchanged': fail('task.gated-score-value', 'suite.gated-aggregate-value'),
    'all-rule-unchanged': fail('task.gated-score-value', 'suite.gated-aggregate-value'),
  },

  // Only the any fixture has rule any; its gatedScore 0.5 < 0.6 turns a passing task to failed.
  'any-rule-gated-by-mean': { ...everyHostLeg(PASS), 'any-rule-unchanged': fail('task.passed') },

  // Only boundary lands exactly on passScore (0.75 = 0.75), and zero-pass-score's gated aggregate
  // (0 = 0); every other comparison is strict anyway, and rule all counts trial verdicts, which
  // compare a score of 1 with 0.6.
  'strict-greater-than': {
    ...everyHostLeg(PASS),
    'mean-partial-inclusive': fail('task.passed', 'suite.passed'),
    'zero-pass-score': fail('suite.passed'),
    // Its gated aggregate 0.5 sits exactly on passScore 0.5.
    'readings-args': fail('suite.passed'),
  },

  // Control's tasks, and the miss fixture's no-path-miss-then-clean (its suite has a trajectory
  // task, so the aggregate is due anyway).
  'gated-fields-on-ungated-tasks': {
    ...everyHostLeg(PASS),
    'no-trajectory-ungated': fail('task.gated-score-absent', 'suite.gated-aggregate-absent'),
    'miss-gated': fail('task.gated-score-absent'),
  },

  // The old rule differs from the summary wherever the aggregate (1) clears passScore and the
  // suite does not: mean, gate, any, all, the exact and in-order readings and the two broken
  // limits. Control, boundary, the any-order readings and limits-hold pass both ways, and the
  // miss's aggregate (0.5) fails both ways.
  'completed-passed-old-rule': {
    ...everyHostLeg(fail('completed.consistent')),
    'no-trajectory-ungated': PASS,
    'mean-partial-inclusive': PASS,
    'readings-any-order': PASS,
    'limits-hold': PASS,
    'miss-gated': PASS,
    // measured's aggregate 0.5 fails passScore 1 and readings-miss's 2/3 clears 0.6, both as
    // their suites do; zero-pass-score's 1/3 clears 0 as its suite does.
    ...measureLegs(PASS),
    'zero-pass-score': PASS,
    // Its aggregate 1 clears 0.5 as its suite does.
    'readings-args': PASS,
    // latency-outlier's aggregate 1 clears 0.6 and its p95 holds, as its suite does.
    'latency-limit-over-trials': PASS,
  },

  'content-leak': everyHostLeg(fail('content-free')),

  // A gating score of 0 is 0 per cent too, so mean (task 0, aggregate 0) reports in range; every
  // other trajectory fixture has a non-zero gating score and control has none.
  'gated-out-of-range': {
    ...everyHostLeg(
      fail('summary.schema', 'task.gated-score-value', 'suite.gated-aggregate-value'),
    ),
    'mean-gated': PASS,
    'no-trajectory-ungated': PASS,
    // Both of its gating scores are 0 as well.
    'zero-pass-score': PASS,
  },

  // Without a trials block a task has one trial, so one event per task is one per trial; the
  // task's score and verdict are then the trial's (gate, control, the readings, the limit
  // fixtures).
  'scored-per-task': {
    ...everyHostLeg(fail('events.scored-count')),
    'suite-gated': PASS,
    'no-trajectory-ungated': PASS,
    ...readingLegs(PASS),
    'cost-limit-kept': PASS,
    ...measureLegs(PASS),
    'zero-pass-score': PASS,
    'readings-args': PASS,
  },

  // Min and mean differ only over two or more tasks with different gating scores: gate (0, 1),
  // any (0.5, 0) and every reading fixture (0s and 1s).
  'gated-aggregate-other-aggregation': {
    ...everyHostLeg(PASS),
    'suite-gated': fail('suite.gated-aggregate-value'),
    // any: min 0, mean 0.25.
    'any-rule-unchanged': fail('suite.gated-aggregate-value'),
    ...readingLegs(fail('suite.gated-aggregate-value')),
    // measured: min 0, mean 1/3; readings-miss: min 0, mean 2/3.
    ...measureLegs(fail('suite.gated-aggregate-value')),
    // readings-args: min 0, mean 0.5.
    'readings-args': fail('suite.gated-aggregate-value'),
  },

  // Every trajectory fixture has a failed trial whose event now says passed. Gate's wrong-path
  // task has no trials block, so its verdict is that trial's and turns true as well, rule all
  // now sees two passed trials and any's wrong-path-twice one. Rule mean reads gated scores, so
  // those task verdicts stay right.
  'trial-passed-ignores-trajectory': {
    ...everyHostLeg(fail('trial.passed')),
    'suite-gated': fail('trial.passed', 'task.passed'),
    'any-rule-unchanged': fail('trial.passed', 'task.passed'),
    'no-trajectory-ungated': PASS,
    'all-rule-unchanged': fail('trial.passed', 'task.passed'),
    ...readingLegs(fail('trial.passed', 'task.passed')),
    // No trial of the limit or miss fixtures fails its trajectory; measured's args-differ-in-case
    // does, with a score of 1 that clears passScore 1.
    ...limitLegs(PASS),
    'outputs-measured': fail('trial.passed', 'task.passed'),
    'readings-miss': PASS,
    // wrong-path-golden's trial scores 1 ≥ 0 on a failed path; no trials block, so its task too.
    'zero-pass-score': fail('trial.passed', 'task.passed'),
    'readings-args': fail('trial.passed', 'task.passed'),
  },

  // Every event verdict stays right; only a rule that counts trials can go wrong, and only where
  // a trajectory-failed trial decides it: all (trial 2 scores 1, so the task passes) and any's
  // wrong-path-twice (both trials score 1); gate has no trials block.
  'rule-counts-trajectory-failed': {
    ...everyHostLeg(PASS),
    'all-rule-unchanged': fail('task.passed'),
    'any-rule-unchanged': fail('task.passed'),
  },
  // Rule any alone: only wrong-path-twice has no trial that both matches and scores.
  'any-rule-counts-scores': {
    ...everyHostLeg(PASS),
    'any-rule-unchanged': fail('task.passed'),
  },
  // Only readings-exact's empty-path expects an empty list of calls; read as no trajectory it
  // loses its gatedScore, and its gating score (1) and verdict stay as they were.
  'empty-trajectory-ungated': {
    ...everyHostLeg(PASS),
    'readings-exact': fail('task.gated-score-present'),
    'readings-exact-empty': fail('task.gated-score-present'),
  },
  // Only the miss fixture has a task without a trajectory whose trial fails closed.
  'miss-gates-ungated-task': {
    ...everyHostLeg(PASS),
    'miss-gated': fail('task.gated-score-absent'),
  },
  // Above passScore 0 a single trial's verdict and its gating score ≥ passScore agree; only
  // zero-pass-score's wrong-path-golden and miss-on-matching-path (gated 0 ≥ 0, trial not
  // passed) tell them apart. Its passedCount, 3, agrees with the task verdicts it reports, so
  // suite.counts holds.
  'single-trial-passed-by-gated-score': {
    ...everyHostLeg(PASS),
    'zero-pass-score': fail('task.passed'),
  },
  // A failed-closed trial scores 0, which clears passScore only at 0: only zero-pass-score's
  // miss-on-matching-path passes then, its event and (no trials block) its task. The miss
  // fixture's trials score 0 against 0.6, and readings-miss's against 0.6.
  'trial-passed-ignores-fail-closed': {
    ...everyHostLeg(PASS),
    'zero-pass-score': fail('trial.passed', 'task.passed'),
  },

  'protocol-v1-only': everyHostLeg(NO_MAJOR_2),
  // The legs whose fixtures have a trials block (count 2 or 4); gate, control, the readings and
  // the limit fixtures have none.
  'trials-max-count-1': {
    ...everyHostLeg(TRIALS_LIMIT),
    'suite-gated': PASS,
    'no-trajectory-ungated': PASS,
    ...readingLegs(PASS),
    'cost-limit-kept': PASS,
    ...measureLegs(PASS),
    'zero-pass-score': PASS,
    'readings-args': PASS,
  },

  'withhold-eval-suite': everyHostLeg(NO_EVAL_SUITE),
  'withhold-trajectory': {
    ...everyHostLeg(NO_TRAJECTORY),
    'no-trajectory-ungated': PASS,
  },
  'withhold-trials': {
    ...everyHostLeg(NO_TRIALS),
    'suite-gated': PASS,
    'no-trajectory-ungated': PASS,
    ...readingLegs(PASS),
    'cost-limit-kept': PASS,
    ...measureLegs(PASS),
    'zero-pass-score': PASS,
    'readings-args': PASS,
  },
  'withhold-fixtures': everyHostLeg(NO_FIXTURE),
  'create-refused': everyHostLeg(REFUSED),
  'run-never-ends': everyHostLeg(NEVER_TERMINAL),
  // Every host leg reads its log through the cursor at least in the replays, so every host leg
  // sees the clause at either pacing: a one-page first read is followed by a re-read mid-log.
  'cursor-ignored': everyHostLeg(fail('events.cursor')),
  'cursor-inclusive': everyHostLeg(fail('events.cursor')),
  // Every host leg replays its finished log from past the end, where the page's own reading
  // answers the cursor (one above the log's highest) at either pacing; -1 is below the first
  // event every first read delivers.
  'last-sequence-of-page': everyHostLeg(fail('events.last-sequence')),
  'last-sequence-minus-one': everyHostLeg(fail('events.last-sequence')),
  'discovery-not-json': everyHostLeg(NO_DISCOVERY),
  // Host-check defects: no leg reads the key check, the discovery members or the refusals they
  // break, so every leg passes with no warning, and only the host checks show them
  // (host-checks-expected.ts).
  'no-key-check': everyHostLeg(PASS),
  'any-bearer-accepted': everyHostLeg(PASS),
  'key-prefix-accepted': everyHostLeg(PASS),
  'key-case-insensitive': everyHostLeg(PASS),
  'key-last-character-unchecked': everyHostLeg(PASS),
  'key-truncation-accepted': everyHostLeg(PASS),
  'discovery-no-witness': everyHostLeg(PASS),
  'discovery-v1-flag': everyHostLeg(PASS),
  'unknown-run-bad-request': everyHostLeg(PASS),
  'unknown-suite-server-error': everyHostLeg(PASS),
  // Discovery withholds agents.evalSuite as withhold-eval-suite does, so the strict gate fails
  // every host leg before a run starts; the 422 on the summary shows only in the host checks.
  'unadvertised-summary-refused': everyHostLeg(NO_EVAL_SUITE),

  // passedCount by score counts every task (all score 1): mean and all say 1 of 0 passed, gate
  // 2 of 1, any 2 of 1, each reading fixture all of its tasks; control and boundary pass every
  // task.
  'passed-count-wrong': {
    ...everyHostLeg(PASS),
    'mean-gated': fail('suite.counts'),
    'suite-gated': fail('suite.counts'),
    'any-rule-unchanged': fail('suite.counts'),
    'all-rule-unchanged': fail('suite.counts'),
    ...readingLegs(fail('suite.counts')),
    // measured: args-differ-in-case scores 1 on a failed path, so 3 tasks clear passScore, 2 pass.
    'outputs-measured': fail('suite.counts'),
    // zero-pass-score: every score (1, 0, 0) clears passScore 0, so 3 tasks, where 1 passed.
    'zero-pass-score': fail('suite.counts'),
    // readings-args: both score 1 ≥ 0.5, where 1 passed.
    'readings-args': fail('suite.counts'),
  },

  // The trajectory readings (docs/host-guide.md). Each defect flips the tasks whose one trial
  // tells its reading from ours; the existing fixtures are named where one of their trials does.
  'args-ignored': {
    ...everyHostLeg(PASS),
    'readings-exact': misread('suite.passed'),
    'readings-in-order': misread('suite.passed'),
    'readings-any-order': misread(),
    'outputs-measured': misread(),
    // args-array-reordered matches: gated 1, passing either way.
    'readings-args': misread(),
  },
  // Only exact-absent-args-are-empty expects `args: {}`; it drops to 0 (suite false either way).
  'absent-args-not-empty': { ...everyHostLeg(PASS), 'readings-exact': misread() },
  // exact-extra-call matches; every other exact path (gate, any) has no extra call.
  // exact-empty-call-made matches too: in order, no expected call is met by any path.
  'exact-read-as-in-order': {
    ...everyHostLeg(PASS),
    'readings-exact': misread('suite.passed'),
    'readings-exact-empty': misread('suite.passed'),
  },
  // Only exact-empty-call-made calls a tool where an empty exact path expects none: it matches,
  // lifting the gated aggregate from 0.5 to 1 over passScore 0.6.
  'empty-exact-matches-any': {
    ...everyHostLeg(PASS),
    'readings-exact-empty': misread('suite.passed'),
  },
  // in-order-extra-call fails; all's matching trial has no extra call, mean's trials a forbidden hit.
  'in-order-read-as-exact': { ...everyHostLeg(PASS), 'readings-in-order': misread() },
  // in-order-swapped matches, and so does gate's wrong-path task (its two calls swapped), which
  // lifts gate to 1 and passes its suite.
  'in-order-read-as-any-order': {
    ...everyHostLeg(PASS),
    'suite-gated': misread('suite.passed'),
    'readings-in-order': misread('suite.passed'),
  },
  // any-order-swapped and any-order-pairs-args-first fail (1/6), and so do boundary's trials 2
  // and 4, whose calls come swapped: its gated mean 0.25 fails task and suite.
  'any-order-read-as-in-order': {
    ...everyHostLeg(PASS),
    'mean-partial-inclusive': misread('suite.passed'),
    'readings-any-order': misread('suite.passed'),
  },
  // any-order-extra-call fails; boundary's only trial with an extra call hits a forbidden tool.
  'any-order-read-as-unordered': {
    ...everyHostLeg(PASS),
    'readings-any-order': misread('suite.passed'),
  },
  // The args-free expectation takes the C-5003 lookup first; boundary's calls all carry args.
  'any-order-first-fit': { ...everyHostLeg(PASS), 'readings-any-order': misread('suite.passed') },
  // Every forbidden hit in the fixtures sits in an otherwise matching path, so every fixture with
  // a forbidden list sees it: mean (both trials, task and suite pass), boundary (gated 1, still
  // passing), all (trial 2 passes, so the task does) and the in-order and any-order readings.
  'forbidden-ignored-when-matched': {
    ...everyHostLeg(PASS),
    'mean-gated': misread('suite.passed'),
    'mean-partial-inclusive': fail('trial.passed', 'task.gated-score-value'),
    'all-rule-unchanged': misread('suite.passed'),
    'readings-in-order': misread('suite.passed'),
    'readings-any-order': misread(),
  },
  // Only the readings repeat an expected call; under exact the count is the sequence's length.
  'repeated-call-collapsed': {
    ...everyHostLeg(PASS),
    'readings-in-order': misread('suite.passed'),
    'readings-any-order': misread(),
  },

  'events-out-of-order': everyHostLeg(fail('events.completed-once')),
  // Every host leg reads its whole log, whose end is the same on every fixture.
  'run-completed-missing': everyHostLeg(fail('events.run-completed')),
  'run-completed-no-outputs': everyHostLeg(fail('events.run-completed')),
  'run-completed-before-eval-completed': everyHostLeg(fail('events.run-completed')),

  'summary-409-forever': everyHostLeg(NO_SUMMARY),

  // The suites that do not pass: mean, gate, any, all, the exact and in-order readings, the two
  // broken limits and the miss.
  'status-failed-on-gate': {
    ...everyHostLeg(fail('run.completed-status')),
    'no-trajectory-ungated': PASS,
    'mean-partial-inclusive': PASS,
    'readings-any-order': PASS,
    'limits-hold': PASS,
    'readings-miss': PASS,
    'zero-pass-score': PASS,
    'readings-args': PASS,
    'latency-limit-over-trials': PASS,
  },

  // Only the two cost fixtures exceed a cost limit: their gated aggregate (1) then passes the suite.
  'cost-limit-dropped': {
    ...everyHostLeg(PASS),
    'cost-limit-kept': fail('suite.passed'),
    'cost-limit-over-trials': fail('suite.passed'),
  },
  'latency-limit-dropped': { ...everyHostLeg(PASS), 'latency-limit-kept': fail('suite.passed') },
  // A fresh host's first run of each suite is an odd one: the cost fixtures' fail as above.
  'cost-limit-dropped-on-odd-runs': {
    ...everyHostLeg(PASS),
    'cost-limit-kept': fail('suite.passed'),
    'cost-limit-over-trials': fail('suite.passed'),
  },

  // Only the miss fixture scripts a miss: answered, trial 1 scores 1 and gates 1, so the task and
  // the suite pass on a mean of 1 where the fail-closed 0 keeps both at 0.5.
  'miss-not-failed-closed': {
    ...everyHostLeg(PASS),
    'miss-gated': fail(
      'trial.score-unchanged',
      'trial.passed',
      'task.score-unchanged',
      'task.mean-score',
      'task.gated-score-value',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
      'suite.passed',
    ),
    // empty-list-misses, answered, scores 1 and lifts the suite from 2/3 to 1 (passing either way).
    'readings-miss': fail(
      'trial.score-unchanged',
      'trial.passed',
      'task.score-unchanged',
      'task.gated-score-value',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
    ),
    // miss-on-matching-path, answered, scores 1 on its matched path and passes; the suite passes
    // either way (gated 1/3 or 0 against passScore 0).
    'zero-pass-score': fail(
      'trial.score-unchanged',
      'trial.passed',
      'task.score-unchanged',
      'task.gated-score-value',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
    ),
  },

  // Each limit condition read another way: only the fixture built to tell that reading apart
  // sees it. No single cost trial exceeds the limit; the mean latency 1750 is within 2000; only
  // limits-hold sits exactly on its limits, and the broken ones fail either way.
  'cost-limit-per-trial': {
    ...everyHostLeg(PASS),
    'cost-limit-kept': fail('suite.passed'),
    'cost-limit-over-trials': fail('suite.passed'),
  },
  // One figure per task: only cost-limit-over-trials runs a costed task more than once; its
  // tasks' means (0.03 each) sum to 0.06, within its limit of 0.1.
  'cost-over-task-means': {
    ...everyHostLeg(PASS),
    'cost-limit-over-trials': fail('suite.passed'),
  },
  'p95-as-mean': { ...everyHostLeg(PASS), 'latency-limit-kept': fail('suite.passed') },
  // One figure per task: latency-limit's tasks each take 500 and 3000 ms, a mean of 1750 under
  // its limit of 2000, and a slowest trial of 3000 over it as every trial p95 is; limits-hold's
  // take 100 twice, a sum of 200 over its limit of 100. latency-outlier's slow task takes 500 ms
  // in nineteen trials and 40000 in one: its mean 2475, its sum and its slowest are over 2000,
  // while the p95 of all forty trials is 500.
  'p95-over-task-means': {
    ...everyHostLeg(PASS),
    'latency-limit-kept': fail('suite.passed'),
    'latency-limit-over-trials': fail('suite.passed'),
  },
  'p95-over-task-sums': {
    ...everyHostLeg(PASS),
    'limits-hold': fail('suite.passed'),
    'latency-limit-over-trials': fail('suite.passed'),
  },
  'p95-over-task-maxima': {
    ...everyHostLeg(PASS),
    'latency-limit-over-trials': fail('suite.passed'),
  },
  'limits-exclusive': { ...everyHostLeg(PASS), 'limits-hold': fail('suite.passed') },

  // Reported bare and decided without the limits: passed is still judged on the stated figures,
  // so the two fixtures over a limit fail; limits-hold passes either way.
  'limits-hidden-and-ignored': {
    ...everyHostLeg(PASS),
    'cost-limit-kept': fail('suite.passed'),
    'latency-limit-kept': fail('suite.passed'),
    'cost-limit-over-trials': fail('suite.passed'),
  },

  // The fixtures that state a latency: latency-limit (3000 reads 3), limits-hold (100 reads 0)
  // and latency-outlier (500 reads 1).
  'latency-reported-in-seconds': {
    ...everyHostLeg(PASS),
    'latency-limit-kept': fail('limits.figures'),
    'limits-hold': fail('limits.figures'),
    'latency-limit-over-trials': fail('limits.figures'),
  },

  // Grading read another way: only the measured fixture scripts outputs that miss their golden
  // value, a json-match output in another member order, a trial exactly on passScore and args
  // that differ only in case; every other fixture's outputs are golden and its args exact.
  'golden-never-graded': {
    ...everyHostLeg(PASS),
    // The three missing outputs score 1 and pass; gated 5/6 stays under passScore 1.
    'outputs-measured': MISGRADED,
    // matching-path-misses scores 1 and gates to 1; it passes either way, and so does the suite.
    'zero-pass-score': fail(
      'trial.score-unchanged',
      'task.score-unchanged',
      'task.gated-score-value',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
    ),
  },
  'json-match-as-text': {
    ...everyHostLeg(PASS),
    'outputs-measured': MISGRADED,
  },
  // Every other fixture's passing trials score 1 against a passScore below 1; zero-pass-score's
  // matching-path-misses scores 0, exactly its passScore 0.
  'trial-verdict-strict': {
    ...everyHostLeg(PASS),
    'outputs-measured': fail('trial.passed', 'task.passed'),
    'zero-pass-score': fail('trial.passed', 'task.passed'),
  },
  'args-case-insensitive': { ...everyHostLeg(PASS), 'outputs-measured': misread() },

  // The readings of host guide §6's golden table: every other fixture's output is its golden value
  // written alike, so only measured's near misses and differently written equals tell them apart.
  // Each flips one task's score (near misses to 1, equals to 0), its verdict and both aggregates.
  'exact-trims-whitespace': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  'golden-case-insensitive': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  'exact-members-sorted': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  // Two scores swap (a reordered object now equals, an object no longer equals its text), so
  // the aggregates and the count stay as they were.
  'exact-compared-as-values': {
    ...everyHostLeg(PASS),
    'outputs-measured': fail(
      'trial.score-unchanged',
      'trial.passed',
      'task.score-unchanged',
      'task.gated-score-value',
      'task.passed',
    ),
  },
  'exact-non-string-as-value': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  'contains-strings-only': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  'json-match-parses-string': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  'json-match-arrays-unordered': { ...everyHostLeg(PASS), 'outputs-measured': MISGRADED },
  // The reading fixtures tell args apart by value only; measured's args-superset calls with one
  // member more than expected, so a subset reading matches its path.
  'args-subset': { ...everyHostLeg(PASS), 'outputs-measured': misread() },
  // Only readings-args sends expected args with their members in another order (every other
  // fixture's args have one member) or expects an array in args.
  'args-compared-as-text': { ...everyHostLeg(PASS), 'readings-args': misread('suite.passed') },
  'args-arrays-unordered': { ...everyHostLeg(PASS), 'readings-args': misread() },

  // The miss readings: only readings-miss has an empty list, a response-less entry, and a task
  // without toolResponses that makes a call (control's makes none).
  'empty-responses-never-miss': {
    ...everyHostLeg(PASS),
    'readings-miss': fail(
      'trial.score-unchanged',
      'trial.passed',
      'task.score-unchanged',
      'task.gated-score-value',
      'task.passed',
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
    ),
  },
  // A missed call drops the task to 0 and the suite from 2/3 to 1/3, under passScore 0.6.
  'absent-responses-miss': WRONGLY_MISSED,
  'response-less-entry-misses': WRONGLY_MISSED,

  // Wire defects, each one clause of the published v2 shapes. Every host leg drives a run, so
  // every host leg sees the clause: the first summary read of a run is a 409 error body, the
  // tenantless id is in the 201, every page and every envelope.
  'error-body-dialect': everyHostLeg(warn('wire.error-body')),
  'run-id-untenanted': everyHostLeg(
    warn('wire.create-answer', 'wire.poll-page', 'wire.event-envelope'),
  ),
  'event-id-short': everyHostLeg(warn('wire.event-envelope')),
  'events-unversioned': everyHostLeg(warn('wire.event-envelope')),
  'create-answer-no-events-url': everyHostLeg(warn('wire.create-answer')),
  'poll-page-extra-member': everyHostLeg(warn('wire.poll-page')),
  'version-header-missing': everyHostLeg(warn('wire.version-header')),
  // Sorted by taskId, the summary keeps its order only where the suite's task ids already sort:
  // one-task fixtures, and gate, any, cost-limit, cost-trials, limits-hold, miss and exact-empty.
  'summary-tasks-sorted': {
    ...everyHostLeg(PASS),
    'no-trajectory-ungated': warn('wire.summary-task-order'),
    ...readingLegs(warn('wire.summary-task-order')),
    'readings-exact-empty': PASS,
    'latency-limit-kept': warn('wire.summary-task-order'),
    'latency-limit-over-trials': warn('wire.summary-task-order'),
    ...measureLegs(warn('wire.summary-task-order')),
    'zero-pass-score': warn('wire.summary-task-order'),
    'readings-args': warn('wire.summary-task-order'),
  },
  // Only the suites with a trials block owe it in eval.started: mean, boundary, any, all,
  // latency-limit, limits-hold, miss, cost-trials and latency-outlier.
  'started-without-trials': {
    ...everyHostLeg(PASS),
    'mean-gated': warn('events.started-trials'),
    'mean-partial-inclusive': warn('events.started-trials'),
    'any-rule-unchanged': warn('events.started-trials'),
    'all-rule-unchanged': warn('events.started-trials'),
    ...limitLegs(warn('events.started-trials')),
    'cost-limit-kept': PASS,
  },
};

/** Rows whose legs fail a host gate in strict mode, with the reason the relaxed gate gives. */
export const GATE_ROWS: Readonly<Partial<Record<RowName, RegExp>>> = {
  'protocol-v1-only': NO_MAJOR_2_REASON,
  'trials-max-count-1': TRIALS_LIMIT_REASON,
  'withhold-eval-suite': /^host does not advertise/,
  'unadvertised-summary-refused': /^host does not advertise/,
  'withhold-trajectory': /^host does not advertise/,
  'withhold-trials': /^host does not advertise/,
  'withhold-fixtures': /^host does not list/,
};

/** A leg that fails a gate in strict mode fails with no finding: it never drives the host. */
export function isGateFailure(leg: LegExpectation): boolean {
  return leg.disposition === 'executed-fail' && leg.rules === undefined;
}

/** Defects whose run cannot end by itself; their rows run with a short run deadline. */
export const HANGING: ReadonlySet<RowName> = new Set<RowName>([
  'run-never-ends',
  'summary-409-forever',
]);
