// Which catalogue rules a judged run left unexercised, and why. A rule owes findings on a run:
// one per subject it applies to (the run, each task, each eval.* type), and how many it owes
// follows from the fixture alone: trial rules only with a trials block, gated-score presence by
// each task's trajectory, an eval.* payload rule per type a run must log. A rule that produced
// fewer findings than it owes judged nothing for the rest, and the report says so rather than
// letting a quiet rule read as a held one. Pure: fixture, observation and findings in, a list out.

import { cursorWasDriven } from './replays.ts';
import type { Finding, Fixture, RunObservation, UnexercisedRule } from '../types.ts';
import { recordedSince } from '../types.ts';
import { expectRun, type ExpectedRun } from './expected.ts';
import { member } from './finding.ts';
import { PROBE_RULES } from '../host-probes.ts';
import { RULES, type RuleId } from './rules.ts';

/** What the owed counts and the reasons read. */
interface RunFacts {
  readonly expected: ExpectedRun;
  readonly observation: RunObservation;
  /** The event types the log carried. */
  readonly loggedTypes: ReadonlySet<string>;
}

interface Coverage {
  /** How many findings the rule owes on this run; 0 where it does not apply. */
  readonly owed: (facts: RunFacts) => number;
  /** Why it had nothing (or too little) to judge, for a host engineer. */
  readonly why: (facts: RunFacts, judged: number, owed: number) => string;
  /** Overrides "judged ≥ owed" where a finding can hold without the rule having been tested. */
  readonly exercised?: (facts: RunFacts) => boolean;
}

/** The eval.* types every eval run logs (contract §7); each owes one events.payload-schema finding. */
const EVAL_TYPES = ['eval.started', 'eval.scored', 'eval.completed'] as const;

const once = (): number => 1;
const never = (): number => 0;
/** Once on a fixture whose script states a cost or a latency for some trial. */
const statesFigures = (f: RunFacts): number =>
  f.expected.tasks.some((t) => t.trials.some((r) => r.costUsd !== null || r.latencyMs !== null))
    ? 1
    : 0;
const perTask = (f: RunFacts): number => f.expected.taskCount;
const withTrials = (f: RunFacts): number => (f.expected.trialsBlock === null ? 0 : perTask(f));
const tasksWhere =
  (presence: 'required' | 'forbidden') =>
  (f: RunFacts): number =>
    f.expected.tasks.filter((t) => t.gatedScorePresence === presence).length;
const suiteWhere =
  (presence: 'required' | 'forbidden') =>
  (f: RunFacts): number =>
    f.expected.gatedAggregatePresence === presence ? 1 : 0;

// Stryker disable next-line ArrowFunction,StringLiteral: a leg owes the host-check rules nothing, so this reason is never asked for; the typed table wants one
const suiteLevel = (): string => 'judged once per suite run as a host check, not on a leg';

/** A reason for a rule owed once that produced nothing. */
const nothing = (what: string) => (): string => what;

/** A reason for a per-task rule that judged some tasks and not others. */
const someTasks =
  (rule: RuleId, cause: string) =>
  (_f: RunFacts, judged: number, owed: number): string =>
    `${rule} judged ${judged} of the ${owed === 1 ? '1 task' : `${owed} tasks`} it applies to: ${cause}`;

const noStarted = (rule: RuleId) =>
  nothing(`no eval.started event was seen, so ${rule} had no payload to compare with the suite`);

/** The rules the probe table declares: judged once per run, beside the legs. */
type ProbeRuleId = (typeof PROBE_RULES)[number]['id'];

/** A rule judged once per suite run as a host check: a leg owes it nothing. */
const ONCE_PER_RUN: Coverage = { owed: never, why: suiteLevel };

const LEG_COVERAGE: { readonly [R in Exclude<RuleId, ProbeRuleId>]: Coverage } = {
  'run.completed-status': { owed: once, why: nothing('the run status was never read') },
  'events.envelope': { owed: once, why: nothing('no event log was recorded') },
  'events.run-id': { owed: once, why: nothing('no event log was recorded') },
  'events.sequence-ascending': { owed: once, why: nothing('no event log was recorded') },
  'events.cursor': {
    owed: once,
    why: nothing(
      'every event came on the first page and no cursor replay was made, so events.cursor never saw a poll resume from afterSequence',
    ),
    exercised: (f) => cursorWasDriven(f.observation),
  },
  'events.last-sequence': { owed: once, why: nothing('no poll page was recorded') },
  'events.started-first': { owed: once, why: nothing('no eval.* event order was judged') },
  'events.completed-once': { owed: once, why: nothing('no eval.* event order was judged') },
  'events.run-completed': { owed: once, why: nothing('no event log was recorded') },
  'events.payload-schema': {
    owed: () => EVAL_TYPES.length,
    why: (f, judged, owed) => {
      const unseen = EVAL_TYPES.filter((t) => !f.loggedTypes.has(t));
      return unseen.length === 0
        ? `events.payload-schema judged ${judged} of the ${owed} eval.* types the run logged`
        : `no ${unseen.join(' or ')} event was seen, so events.payload-schema had no payload of that type to validate`;
    },
  },
  'events.scored-count': { owed: once, why: nothing('the eval.scored events were not counted') },
  'events.started-consistent': { owed: once, why: noStarted('events.started-consistent') },
  'events.started-trials': { owed: once, why: noStarted('events.started-trials') },
  'content-free': {
    owed: () => 2,
    why: nothing('the eval.* payloads and the summary were not both searched for content keys'),
  },
  'summary.schema': { owed: once, why: nothing('no summary was validated') },
  'summary.identity': { owed: once, why: nothing('no summary was read') },
  'trial.score-unchanged': {
    owed: perTask,
    why: someTasks(
      'trial.score-unchanged',
      'the others had no eval.scored event with a trial in range',
    ),
  },
  'trial.passed': {
    owed: perTask,
    why: someTasks('trial.passed', 'the others had no eval.scored event with a trial in range'),
  },
  'trial.flags': {
    owed: perTask,
    why: someTasks('trial.flags', 'the others had no eval.scored event with a trial in range'),
  },
  'task.score-unchanged': {
    owed: perTask,
    why: someTasks('task.score-unchanged', 'the summary was not judged for the others'),
  },
  'task.mean-score': {
    owed: withTrials,
    why: someTasks('task.mean-score', 'the summary was not judged for the others'),
  },
  'task.trial-stats': {
    owed: withTrials,
    why: someTasks('task.trial-stats', 'the summary carried no trials object on the others'),
  },
  'task.gated-score-present': {
    owed: tasksWhere('required'),
    why: someTasks('task.gated-score-present', 'the summary was not judged for the others'),
  },
  'task.gated-score-value': {
    owed: tasksWhere('required'),
    why: someTasks('task.gated-score-value', 'the summary carried no gatedScore on the others'),
  },
  'task.gated-score-absent': {
    owed: tasksWhere('forbidden'),
    why: someTasks('task.gated-score-absent', 'the summary was not judged for the others'),
  },
  'task.passed': {
    owed: perTask,
    why: someTasks('task.passed', 'the summary was not judged for the others'),
  },
  'suite.aggregate-unchanged': { owed: once, why: nothing('no summary was read') },
  'suite.gated-aggregate-present': {
    owed: suiteWhere('required'),
    why: nothing('no summary was read'),
  },
  'suite.gated-aggregate-absent': {
    owed: suiteWhere('forbidden'),
    why: nothing('no summary was read'),
  },
  'suite.gated-aggregate-value': {
    owed: suiteWhere('required'),
    why: nothing(
      'the summary carried no gatedAggregateScore, so suite.gated-aggregate-value had no value to check',
    ),
  },
  'suite.passed': { owed: once, why: nothing('no summary was read') },
  'suite.counts': { owed: once, why: nothing('no summary was read') },
  'completed.consistent': {
    owed: once,
    why: nothing(
      'no eval.completed event was seen, so completed.consistent had nothing to compare with the summary',
    ),
  },
  'wire.create-answer': {
    owed: once,
    why: nothing(
      'the observation holds no POST /runs answer (it was recorded without the wire record), so wire.create-answer had nothing to judge',
    ),
  },
  'wire.poll-page': {
    owed: once,
    why: nothing(
      'no poll page was recorded with its members, so wire.poll-page had nothing to judge',
    ),
  },
  'wire.event-envelope': {
    owed: once,
    why: nothing('no event envelope was recorded, so wire.event-envelope had nothing to judge'),
  },
  'wire.error-body': { owed: once, why: errorBodyGap },
  'limits.figures': {
    owed: statesFigures,
    why: nothing(
      'the host reported none of the cost and latency figures the script states, so limits.figures had nothing to compare',
    ),
  },
  // The host checks are judged once per suite run, beside the legs (lib/witness/host-checks.ts),
  // and list their own unexercised rules there: a leg owes them nothing. The probes' rules are
  // added below from the probe table; discovery's is judged there too.
  'wire.discovery': ONCE_PER_RUN,
  // An order needs two tasks; a summary listing fewer of the suite's tasks has none to show.
  'wire.summary-task-order': {
    owed: (f) => (f.expected.taskCount >= 2 && recordedSince(f.observation, 2) ? 1 : 0),
    why: nothing('the summary listed fewer than two of the suite tasks, so it showed no order'),
  },
  'wire.version-header': {
    owed: once,
    why: nothing('no response header was recorded, so wire.version-header had nothing to judge'),
  },
};

const COVERAGE: { readonly [R in RuleId]: Coverage } = {
  ...LEG_COVERAGE,
  ...(Object.fromEntries(PROBE_RULES.map((r) => [r.id, ONCE_PER_RUN])) as {
    readonly [R in ProbeRuleId]: Coverage;
  }),
};

/**
 * Whether a leg's run can record `id` at all: a rule a leg never owes is judged only once per run
 * as a host check, so a baseline entry naming it under a requirement can never match.
 */
export function recordedOnLegs(id: RuleId): boolean {
  return COVERAGE[id].owed !== never;
}

function errorBodyGap(f: RunFacts): string {
  const kinds = f.observation.errors?.kinds ?? [];
  return kinds.length === 0
    ? 'no error answer was seen, so wire.error-body had nothing to judge'
    : 'every error body seen was larger than the suite keeps, so wire.error-body had nothing to judge';
}

/**
 * The catalogue rules that produced fewer findings on this run than they owe, in catalogue
 * order, each with why. Throws only where `judgeEvalRun` would: on a fixture that cannot be graded.
 */
export function unexercisedRules(
  fixture: Fixture,
  observation: RunObservation,
  findings: readonly Finding[],
): readonly UnexercisedRule[] {
  const facts: RunFacts = {
    expected: expectRun(fixture),
    observation,
    loggedTypes: typesOf(observation),
  };
  const judged = new Map<string, number>();
  for (const f of findings) judged.set(f.rule, (judged.get(f.rule) ?? 0) + 1);
  const out: UnexercisedRule[] = [];
  for (const { id } of RULES) {
    const coverage: Coverage = COVERAGE[id];
    const owed = coverage.owed(facts);
    if (owed === 0) continue;
    const count = judged.get(id) ?? 0;
    const exercised = count >= owed && (coverage.exercised?.(facts) ?? true);
    if (!exercised) out.push({ rule: id, reason: coverage.why(facts, count, owed) });
  }
  return out;
}

function typesOf(observation: RunObservation): ReadonlySet<string> {
  const events: unknown = member(observation, 'events');
  const types = new Set<string>();
  if (!Array.isArray(events)) return types;
  for (const event of events) {
    const type = member(event, 'type');
    if (typeof type === 'string') types.add(type);
  }
  return types;
}

const SEVERITY: ReadonlyMap<string, string> = new Map(RULES.map((r) => [r.id, r.severity]));

/**
 * The unexercised rules a leg's verdict relies on: every MUST rule that applies to the run (the
 * RFC 0246 rules, and the log and summary rules whose data they read; docs/decisions.md), but
 * `events.cursor` only once the observation carries the driver's cursor `replays`, since before
 * that a host that serves its whole log on one page is not at fault for it. `limits.figures` is
 * never binding: the published structures make every cost and latency member optional, and
 * `suite.passed` is decided on the figures the script states, so no verdict rests on them.
 */
export function bindingGaps(
  unexercised: readonly UnexercisedRule[],
  observation: RunObservation | undefined,
): readonly UnexercisedRule[] {
  const replayed = observation !== undefined && Object.hasOwn(observation, 'replays');
  return unexercised.filter(
    (u) =>
      SEVERITY.get(u.rule) === 'MUST' &&
      u.rule !== 'limits.figures' &&
      (u.rule !== 'events.cursor' || replayed),
  );
}
