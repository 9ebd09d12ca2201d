// The rule catalogue: every rule the witness judges, as data. Ids are stable slugs that appear in
// findings and reports whether the rule held or not. A rule that rests only on an [0244-assumed]
// detail RFC 0246 does not need is SHOULD (docs/decisions.md), so it warns and never fails a leg;
// so are the wire rules, which judge how the host speaks v2, not how it grades.

import { PROBE_RULES } from '../host-probes.ts';
import type { Severity } from '../types.ts';

export interface Rule {
  readonly id: string;
  readonly severity: Severity;
  readonly ref: string;
  readonly statement: string;
  /**
   * Rules whose failure explains a failure of this one: the driver stops following a log whose
   * cursor or sequence breaks (docs/decisions.md, Transport), so what it did not read cannot be
   * counted. A failure of this rule beside a failure of one of these is a consequence.
   */
  readonly follows?: readonly string[];
}

/** What the driver does not read once the cursor or the order breaks. */
const CUT_LOG = ['events.cursor', 'events.sequence-ascending'] as const;

export const RULES = [
  rule(
    'run.completed-status',
    'MUST',
    'contract §6',
    'an eval run that was scored ends with status "completed", pass or fail',
  ),
  rule(
    'events.envelope',
    'MUST',
    'contract §6',
    'every event has an integer sequence ≥ 0, a string type and a string runId',
  ),
  rule('events.run-id', 'MUST', 'contract §6', "every event's runId is the run's id"),
  rule(
    'events.sequence-ascending',
    'MUST',
    'contract §6',
    'event sequences strictly ascend across the whole log',
    ['events.cursor'],
  ),
  rule(
    'events.cursor',
    'MUST',
    'contract §6',
    "each page holds only events after its afterSequence, lastSequence never decreases, the last page is terminal and no page after a terminal one says otherwise; re-read once finished from a sequence mid-log, from the last sequence and from past the end, the log returns exactly the first read's events after that cursor, identical and in order (none from the last two), and ends terminal",
  ),
  rule(
    'events.last-sequence',
    'MUST',
    'contract §6, openwop/openwop spec/v2/core/events.md',
    "every poll page's lastSequence, the replays' included, is the highest sequence in the log when the page is answered, −1 only while the log is empty: at least every sequence delivered so far, at most the finished log's highest, and exactly that once the log is finished",
    CUT_LOG,
  ),
  rule(
    'events.started-first',
    'MUST',
    'contract §7',
    'exactly one eval.started, before every other eval.* event',
    CUT_LOG,
  ),
  rule(
    'events.completed-once',
    'MUST',
    'contract §7',
    'exactly one eval.completed, after every eval.scored',
    CUT_LOG,
  ),
  rule(
    'events.run-completed',
    'MUST',
    'contract §7, openwop/openwop spec/v2/core/events.md',
    'exactly one run.completed, the last event of the log, after eval.completed, its payload carrying outputs as an object',
    CUT_LOG,
  ),
  rule(
    'events.payload-schema',
    'MUST',
    'RFC 0081, contract §7',
    'every eval.* payload validates against its schema',
  ),
  rule(
    'events.scored-count',
    'MUST',
    'contract §7',
    'taskCount × n eval.scored events, one per (task, trial), each naming a suite task and, with a trials block, a trial in 1..n',
    CUT_LOG,
  ),
  rule(
    'events.started-consistent',
    'MUST',
    'contract §7',
    'eval.started names the suite, its version and its task count (modes may be empty)',
  ),
  rule(
    'events.started-trials',
    'SHOULD',
    'contract §7 [0244-assumed]',
    'eval.started carries trials exactly when the suite has a trials block, equal to it',
  ),
  rule(
    'content-free',
    'MUST',
    'RFC 0081 §F',
    'no eval.* payload and no summary carries a deny-listed content key, at any depth, matched without regard to case or a vendor prefix (x-, openwop-, vendor.<name>.)',
  ),
  rule(
    'summary.schema',
    'MUST',
    'RFC 0081, RFC 0246 §D',
    'the summary validates against the EvalSummary v2 schema',
  ),
  rule(
    'summary.identity',
    'MUST',
    'RFC 0081',
    "the summary names the suite and version, and lists each of the suite's tasks exactly once",
  ),
  rule(
    'trial.score-unchanged',
    'MUST',
    'RFC 0246 §C',
    'every eval.scored.score is the trial output score, never zeroed for the gate',
  ),
  rule(
    'trial.passed',
    'MUST',
    'RFC 0244 §A, contract §4',
    'every eval.scored.passed is the trial verdict: score ≥ passScore, trajectory matched, not failed closed',
  ),
  rule(
    'trial.flags',
    'SHOULD',
    'contract §7 [0244-assumed]',
    'eval.scored trajectoryMatched and failedClosed, when present, agree with the trial',
  ),
  rule(
    'task.score-unchanged',
    'MUST',
    'RFC 0246 §C',
    'a task score is the mean of its trial output scores',
  ),
  rule(
    'task.mean-score',
    'MUST',
    'RFC 0246 §C, §Conformance',
    'with a trials block, a task carries trials.meanScore equal to the mean of its trial scores',
  ),
  rule(
    'task.trial-stats',
    'SHOULD',
    'contract §4 [0244-assumed]',
    'trials.count, passRule, passAtK, passHatK and trialStats, when present, agree with the trials',
  ),
  rule(
    'task.gated-score-present',
    'MUST',
    'RFC 0246 §D',
    'a task with expected.trajectory carries gatedScore',
  ),
  rule(
    'task.gated-score-value',
    'MUST',
    'RFC 0246 §A',
    "a carried gatedScore is the mean of the task's trial gating scores",
  ),
  rule(
    'task.gated-score-absent',
    'MUST',
    'RFC 0246 §D',
    'a task without a trajectory whose gating score equals its score omits gatedScore',
  ),
  rule(
    'task.passed',
    'MUST',
    'RFC 0246 §B',
    'a task passed by its rule: all, any, or mean of gating scores ≥ passScore',
  ),
  rule(
    'suite.aggregate-unchanged',
    'MUST',
    'RFC 0246 §C',
    'aggregateScore is the mean of the task scores',
  ),
  rule(
    'suite.gated-aggregate-present',
    'MUST',
    'RFC 0246 §D',
    'a suite with any trajectory task carries gatedAggregateScore',
  ),
  rule(
    'suite.gated-aggregate-absent',
    'MUST',
    'RFC 0246 §D',
    'a suite with no trajectory task and no fixture miss carries no gatedAggregateScore',
  ),
  rule(
    'suite.gated-aggregate-value',
    'MUST',
    'RFC 0246 §A',
    'a carried gatedAggregateScore is the mean of the task gating scores',
  ),
  rule(
    'suite.passed',
    'MUST',
    'RFC 0246 §B',
    'suite passed ⇔ gatedAggregateScore ≥ passScore and the cost and p95 latency limits hold, on the figures the script states',
  ),
  rule(
    'limits.figures',
    'MUST',
    'RFC 0246 §B, contract §3 [0244-assumed]',
    'the cost and latency a host reports for a scripted trial, task or suite are the figures the script states',
  ),
  rule(
    'suite.counts',
    'MUST',
    'RFC 0081',
    'taskCount is the number of tasks and passedCount the number of tasks reported passed',
  ),
  rule(
    'completed.consistent',
    'MUST',
    'RFC 0081, contract §7',
    "eval.completed's passed, aggregateScore, taskCount and passedCount equal the summary's",
  ),
  rule(
    'wire.create-answer',
    'SHOULD',
    'contract §6',
    'the 201 answer of POST /runs validates as {runId, status, eventsUrl, statusUrl?}',
  ),
  rule(
    'wire.poll-page',
    'SHOULD',
    'contract §6',
    'every poll page is exactly {runId, events, lastSequence, status, isTerminal}',
  ),
  rule(
    'wire.event-envelope',
    'SHOULD',
    'contract §6',
    'every event is a closed RunEventDoc envelope, and a log read from its start begins at sequence 0',
  ),
  rule(
    'wire.error-body',
    'SHOULD',
    'contract §1, §6',
    'every error body is the v2 error envelope {error, message, details?}, answered with the status its code is registered at',
  ),
  rule(
    'wire.version-header',
    'SHOULD',
    'contract §1',
    'every response carries an OpenWOP-Version: 2.<minor> header',
  ),
  rule(
    'wire.summary-task-order',
    'SHOULD',
    'contract §5, openwop/openwop-sdks schemas/v2/eval-summary.schema.json',
    "the summary lists the suite's tasks in the suite's order",
  ),
  rule(
    'wire.discovery',
    'SHOULD',
    'contract §2',
    'discovery validates as the published v2 root for the members the suite reads (agents a closed capability record with status, since and witness; agents.evalSuite a closed facet with no supported key), and preferredVersion is one of protocolVersions',
  ),
  // The rules the provoked refusals are judged by, declared with their probes.
  ...PROBE_RULES,
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

function rule<const Id extends string>(
  id: Id,
  severity: Severity,
  ref: string,
  statement: string,
  follows?: readonly string[],
): {
  readonly id: Id;
  readonly severity: Severity;
  readonly ref: string;
  readonly statement: string;
  readonly follows?: readonly string[];
} {
  return follows === undefined
    ? { id, severity, ref, statement }
    : { id, severity, ref, statement, follows };
}

const BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

/**
 * Rules about the live run, which a recorded summary and event list cannot show: the poll pages
 * (cursor, lastSequence), the run's status and id, and the end of its whole log, since a recorded
 * list may hold only the eval.* events. `judge` leaves them unjudged.
 */
export const LIVE_RUN_RULES: readonly RuleId[] = [
  'run.completed-status',
  'events.cursor',
  'events.last-sequence',
  'events.run-id',
  'events.run-completed',
];

/** Rules that read the eval.* event log, apart from the live run's: `judge` needs --events for them. */
export const EVENT_LOG_RULES: readonly RuleId[] = RULES.map((r) => r.id).filter(
  (id) => !LIVE_RUN_RULES.includes(id) && /^(events|trial|completed)\./.test(id),
);

/**
 * Rules that read the summary, beside `summary.schema`, which judges its shape: a summary that is
 * no JSON object fails each of them only because it fails the schema.
 */
export const SUMMARY_READING_RULES: readonly RuleId[] = RULES.map((r) => r.id).filter((id) =>
  /^(summary\.identity|suite\.|task\.|completed\.)/.test(id),
);

export function ruleById(id: RuleId): Rule {
  return BY_ID.get(id) as Rule;
}

/** The rules a failure of `id` follows from, as declared; none for an id outside the catalogue. */
export function declaredCauses(id: string): readonly string[] {
  return BY_ID.get(id)?.follows ?? [];
}
