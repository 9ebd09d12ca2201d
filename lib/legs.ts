// The requirements this suite certifies: each one's id, the fixture that drives it and the
// capability gates it needs. The order is the order of the report.

import type { GateName, MatchMode, PassRule } from './types.ts';

/**
 * What a leg's fixture asks of a host, declared here so the advertised-limit gates (host facts)
 * are decided before the fixture file (a suite fact) is loaded. tests/decide/leg-needs.test.ts pins
 * each declaration to what the fixture file holds.
 */
export interface FixtureNeeds {
  readonly taskCount: number;
  /** The suite's `trials.count`; 1 without a trials block. */
  readonly trialCount: number;
  /** The suite's `trials.passRule`; absent without a trials block. */
  readonly passRule?: PassRule;
  /** Every `expected.trajectory.match` the fixture's tasks use. */
  readonly matchModes: readonly MatchMode[];
}

export interface LegDefinition {
  readonly id: string;
  /** What the leg shows when it passes, read as a sentence. */
  readonly title: string;
  /** The fixture the leg drives; absent for a server-free leg. */
  readonly fixtureId?: string;
  /** What that fixture needs; present exactly when `fixtureId` is. */
  readonly needs?: FixtureNeeds;
  /** Capability gates, checked in this order before the fixture gate (contract §2, §9). */
  readonly gates: readonly GateName[];
  readonly ref: string;
}

/** What every requirement id starts with; the README's table and the CLI's selection leave it out. */
export const REQUIREMENT_PREFIX = 'openwop.requirement.0246.';

/** The requirement a generated pack drives (`run --generate`); it is not a leg of `LEGS`. */
export const GENERATED_REQUIREMENT = `${REQUIREMENT_PREFIX}generated`;

/**
 * The legs, kept literal so their ids make a type: a test table keyed by `LegSlug` is incomplete,
 * and fails to compile, until it states the new leg's column.
 */
const LEG_TABLE = [
  {
    id: `${REQUIREMENT_PREFIX}mean-gated`,
    title: 'a forbidden tool in every trial gates the task mean to 0 and fails task and suite',
    fixtureId: 'conformance-eval-trajectory-gate-mean',
    needs: { taskCount: 1, trialCount: 2, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}suite-gated`,
    title: 'a wrong-path task gates the suite aggregate and fails the suite, scores unchanged',
    fixtureId: 'conformance-eval-trajectory-gate',
    needs: { taskCount: 2, trialCount: 1, matchModes: ['exact', 'in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'RFC 0246 §A, §B, §C',
  },
  {
    id: `${REQUIREMENT_PREFIX}gated-fields-shape`,
    title: 'gatedScore and gatedAggregateScore validate in 0–1 and fail outside it',
    gates: [],
    ref: 'RFC 0246 §D',
  },
  {
    id: `${REQUIREMENT_PREFIX}no-trajectory-ungated`,
    title: 'a suite without trajectories carries no gated field and is decided on its scores',
    fixtureId: 'conformance-eval-trajectory-gate-control',
    needs: { taskCount: 2, trialCount: 1, matchModes: [] },
    gates: ['agents.evalSuite'],
    ref: 'RFC 0246 §D',
  },
  {
    id: `${REQUIREMENT_PREFIX}mean-partial-inclusive`,
    title: 'one wrong trial in four gates the mean to exactly passScore, which still passes',
    fixtureId: 'conformance-eval-trajectory-gate-boundary',
    needs: { taskCount: 1, trialCount: 4, passRule: 'mean', matchModes: ['any-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}any-rule-unchanged`,
    title: 'passRule any still counts trial verdicts while the suite reads the gated aggregate',
    fixtureId: 'conformance-eval-trajectory-gate-any',
    needs: { taskCount: 2, trialCount: 2, passRule: 'any', matchModes: ['exact'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}all-rule-unchanged`,
    title: 'passRule all still fails a task with one trajectory-failed trial, whatever its score',
    fixtureId: 'conformance-eval-trajectory-gate-all',
    needs: { taskCount: 1, trialCount: 2, passRule: 'all', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  // The reading legs: each fixture uses one match mode, and each of its tasks has one trial that
  // one neighbouring reading of that mode accepts and the other rejects ([0244-assumed]).
  {
    id: `${REQUIREMENT_PREFIX}readings-exact`,
    title: 'exact rejects an extra call and a differing argument, and reads absent args as {}',
    fixtureId: 'conformance-eval-trajectory-readings-exact',
    needs: { taskCount: 4, trialCount: 1, matchModes: ['exact'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}readings-in-order`,
    title:
      'in-order allows an extra call, and rejects a swap, a differing argument, a forbidden hit and a collapsed repeat',
    fixtureId: 'conformance-eval-trajectory-readings-in-order',
    needs: { taskCount: 5, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}readings-any-order`,
    title:
      'any-order allows a swap and an extra call and pairs calls one to one, and rejects a differing argument, a forbidden hit and a collapsed repeat',
    fixtureId: 'conformance-eval-trajectory-readings-any-order',
    needs: { taskCount: 6, trialCount: 1, matchModes: ['any-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}cost-limit-kept`,
    title:
      'a gated aggregate that clears passScore still fails the suite when the total cost exceeds maxCostUsd though no single trial does',
    fixtureId: 'conformance-eval-trajectory-gate-cost-limit',
    needs: { taskCount: 2, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}latency-limit-kept`,
    title:
      'a gated aggregate that clears passScore still fails the suite when the p95 of its trial latencies exceeds the limit though their mean, their median and each task mean do not',
    fixtureId: 'conformance-eval-trajectory-gate-latency-limit',
    needs: { taskCount: 4, trialCount: 2, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}limits-hold`,
    title:
      'a gated aggregate that clears passScore passes the suite with its cost and the p95 of its trial latencies exactly on their inclusive limits',
    fixtureId: 'conformance-eval-trajectory-gate-limits-hold',
    needs: { taskCount: 2, trialCount: 2, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}miss-gated`,
    title:
      'a trial that failed closed on a fixture miss gates to 0 and fails the mean and the suite',
    fixtureId: 'conformance-eval-trajectory-gate-miss',
    needs: { taskCount: 2, trialCount: 2, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §A, §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}outputs-measured`,
    title:
      'each golden strategy scores near misses 0 and outputs written differently but equal 1, args match deep-equal, and a score exactly on passScore passes its trial',
    fixtureId: 'conformance-eval-trajectory-measured',
    needs: { taskCount: 15, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'RFC 0246 §A, §C, contract §4',
  },
  {
    id: `${REQUIREMENT_PREFIX}readings-miss`,
    title:
      'an empty toolResponses list misses, a task without one never does, and an entry without response records its tool',
    fixtureId: 'conformance-eval-trajectory-readings-miss',
    needs: { taskCount: 3, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A',
  },
  {
    id: `${REQUIREMENT_PREFIX}zero-pass-score`,
    title:
      "at passScore 0 without a trials block, a task's verdict is its one trial's: a wrong path with a golden output fails, a trial that failed closed fails, a matching path scoring 0 passes, and the suite passes on a gated aggregate of 0",
    fixtureId: 'conformance-eval-trajectory-zero-pass-score',
    needs: { taskCount: 3, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}readings-args`,
    title:
      'args match as deep-equal JSON: members sent in another order match, array items in another order do not',
    fixtureId: 'conformance-eval-trajectory-readings-args',
    needs: { taskCount: 2, trialCount: 1, matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A',
  },
  {
    id: `${REQUIREMENT_PREFIX}cost-limit-over-trials`,
    title:
      "a gated aggregate that clears passScore still fails the suite when the sum of every trial's cost exceeds maxCostUsd though one figure per task does not",
    fixtureId: 'conformance-eval-trajectory-gate-cost-trials',
    needs: { taskCount: 2, trialCount: 2, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}latency-limit-over-trials`,
    title:
      "a gated aggregate that clears passScore passes the suite when the p95 of every trial's latency is within the limit though one task's slowest trial, its sum and its mean are not",
    fixtureId: 'conformance-eval-trajectory-gate-latency-outlier',
    needs: { taskCount: 2, trialCount: 20, passRule: 'mean', matchModes: ['in-order'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    ref: 'RFC 0246 §B',
  },
  {
    id: `${REQUIREMENT_PREFIX}readings-exact-empty`,
    title:
      'an exact trajectory that lists no calls matches only a trial that makes none: a trial that calls a tool fails its path',
    fixtureId: 'conformance-eval-trajectory-readings-exact-empty',
    needs: { taskCount: 2, trialCount: 1, matchModes: ['exact'] },
    gates: ['agents.evalSuite', 'agents.evalSuite.trajectory'],
    ref: 'contract §4, RFC 0246 §A, §B',
  },
] as const satisfies readonly LegDefinition[];

export const LEGS: readonly LegDefinition[] = LEG_TABLE;

/** Every leg's id, as a type. */
export type LegId = (typeof LEG_TABLE)[number]['id'];

/** A leg's id without the requirement prefix: the name the matrix and the CLI's selection use. */
export type LegSlug = SlugOf<LegId>;
type SlugOf<Id> = Id extends `${typeof REQUIREMENT_PREFIX}${infer Slug}` ? Slug : never;

/** A requirement id's slug; the id of a leg of `LEGS` gives a `LegSlug`. */
export function slugOfLeg(leg: LegDefinition): LegSlug {
  return leg.id.slice(REQUIREMENT_PREFIX.length) as LegSlug;
}

/** A fixture id for usage messages to show: the first leg's that drives one. */
export const EXAMPLE_FIXTURE_ID: string = LEGS.flatMap((leg) => leg.fixtureId ?? [])[0] ?? '';

export function legById(id: string): LegDefinition {
  const leg = LEGS.find((l) => l.id === id);
  if (leg === undefined) throw new Error(`no leg with id ${id}`);
  return leg;
}
