// The defects the reference host can be started with. Each breaks exactly one clause, so a suite
// run against it must fail exactly the rules that read that clause; defect-set.ts says which
// of them may be switched on together. The switches live at the one place in grading or serving
// code that the clause governs; nothing here does any work.

export interface DefectRecord {
  readonly name: string;
  /** The clause the defect breaks. */
  readonly clause: string;
  readonly description: string;
}

export const DEFECTS = [
  {
    name: 'unmigrated-0244',
    clause: 'RFC 0246 §B, §D',
    description:
      'an RFC 0244 host: no gatedScore or gatedAggregateScore, rule mean and suite passed read raw scores',
  },
  {
    name: 'gated-fields-but-old-passed',
    clause: 'RFC 0246 §B',
    description:
      'gated fields are reported correctly, but rule mean and suite passed still read meanScore and aggregateScore',
  },
  {
    name: 'score-zeroed',
    clause: 'RFC 0246 §C',
    description:
      'a trajectory-failed trial reports score 0 (eval.scored and the task) instead of gating it',
  },
  {
    name: 'gated-aggregate-omitted-when-zero',
    clause: 'RFC 0246 §D',
    description: 'the summary leaves gatedAggregateScore out when it is 0, as if it were unset',
  },
  {
    name: 'gated-score-omitted-when-equal',
    clause: 'RFC 0246 §D',
    description: 'a trajectory task omits gatedScore when it equals its score',
  },
  {
    name: 'gated-aggregate-omitted',
    clause: 'RFC 0246 §D',
    description: 'the summary never carries gatedAggregateScore (passed is still decided on it)',
  },
  {
    name: 'task-gated-all-or-nothing',
    clause: 'RFC 0246 §A',
    description: "a task's gatedScore is 0 when any trial failed its trajectory, not the mean",
  },
  {
    name: 'any-rule-gated-by-mean',
    clause: 'RFC 0246 §B',
    description: 'passRule any is decided by gatedScore >= passScore instead of trial verdicts',
  },
  {
    name: 'strict-greater-than',
    clause: 'RFC 0246 §B',
    description: 'the mean rule and the suite decision compare with > instead of >=',
  },
  {
    name: 'gated-fields-on-ungated-tasks',
    clause: 'RFC 0246 §D',
    description:
      'gatedScore on tasks without a trajectory and gatedAggregateScore on a suite without one',
  },
  {
    name: 'completed-passed-old-rule',
    clause: 'contract §7, RFC 0246 §B',
    description: 'eval.completed.passed is aggregateScore >= passScore, unlike EvalSummary.passed',
  },
  {
    name: 'content-leak',
    clause: 'RFC 0081 §F',
    description: 'eval.scored carries the task output',
  },
  {
    name: 'gated-out-of-range',
    clause: 'RFC 0246 §D',
    description: 'gatedScore and gatedAggregateScore are reported as percentages (0-100)',
  },
  {
    name: 'scored-per-task',
    clause: 'contract §7',
    description: 'one eval.scored per task carrying the task result, not one per trial',
  },
  {
    name: 'gated-aggregate-other-aggregation',
    clause: 'RFC 0246 §A',
    description: 'gatedAggregateScore is the minimum of task gating scores, not their mean',
  },
  {
    name: 'trial-passed-ignores-trajectory',
    clause: 'RFC 0244 §A, RFC 0246 §B',
    description:
      'a trajectory-failed trial is reported passed, and rules all/any count it as passed',
  },
  {
    name: 'rule-counts-trajectory-failed',
    clause: 'RFC 0246 §B',
    description:
      'rules all/any count a trial as passed when its score clears passScore, trajectory or not; eval.scored.passed stays right',
  },
  {
    name: 'any-rule-counts-scores',
    clause: 'RFC 0246 §B',
    description:
      'rule any counts a trial as passed when its score clears passScore, trajectory or not; rule all and eval.scored.passed stay right',
  },
  {
    name: 'empty-exact-matches-any',
    clause: 'contract §4',
    description:
      'an exact trajectory that lists no calls matches every trial, whatever calls it makes',
  },
  {
    name: 'empty-trajectory-ungated',
    clause: 'RFC 0246 §D, contract §4',
    description:
      'a task whose expected trajectory lists no calls is graded and reported as a task without a trajectory',
  },
  {
    name: 'miss-gates-ungated-task',
    clause: 'RFC 0246 §D',
    description:
      'a task without a trajectory carries gatedScore when one of its trials failed closed on a fixture miss',
  },
  {
    name: 'single-trial-passed-by-gated-score',
    clause: 'contract §4, RFC 0246 §B',
    description:
      'a task without a trials block passes when gatedScore >= passScore instead of by its one trial, so at passScore 0 a trajectory-failed trial carries its task',
  },
  {
    name: 'trial-passed-ignores-fail-closed',
    clause: 'contract §4, RFC 0244 §D',
    description:
      "a trial's verdict reads its score and path only, so a trial that failed closed passes where its score 0 clears passScore 0",
  },
  {
    name: 'args-compared-as-text',
    clause: 'contract §4 [0244-assumed]',
    description:
      'args match only when their JSON texts are equal, so the same members sent in another order do not match',
  },
  {
    name: 'args-arrays-unordered',
    clause: 'contract §4 [0244-assumed]',
    description: 'an array in args matches the same items in any order',
  },
  {
    name: 'cost-over-task-means',
    clause: 'RFC 0246 §B',
    description:
      "the cost condition reads the sum of one figure per task, its trials' mean cost, instead of every trial's cost",
  },
  {
    name: 'protocol-v1-only',
    clause: 'contract §2',
    description: 'discovery lists protocolVersions ["1.11"], no 2.x, and answers 2.0 requests 406',
  },
  {
    name: 'trials-from-script-length',
    clause: 'contract §3, §7',
    description:
      'a task runs as many trials as its script has entries, so a one-entry script is played once instead of trials.count times',
  },
  {
    name: 'trials-max-count-1',
    clause: 'contract §2',
    description: 'discovery advertises agents.evalSuite.trials.maxCount 1',
  },
  {
    name: 'withhold-eval-suite',
    clause: 'contract §2',
    description: 'discovery has no agents.evalSuite record, and POST /runs refuses eval runs',
  },
  {
    name: 'withhold-trajectory',
    clause: 'contract §2',
    description: 'discovery has no agents.evalSuite.trajectory record',
  },
  {
    name: 'withhold-trials',
    clause: 'contract §2',
    description: 'discovery has no agents.evalSuite.trials record',
  },
  {
    name: 'withhold-fixtures',
    clause: 'contract §2',
    description: 'discovery lists no fixtures',
  },
  {
    name: 'create-refused',
    clause: 'contract §6, §9',
    description: 'POST /runs answers 422 capability_not_provided although discovery advertises it',
  },
  {
    name: 'run-never-ends',
    clause: 'contract §6, §7',
    description: 'the run stops after its last eval.scored and the log never reaches isTerminal',
  },
  {
    name: 'cursor-ignored',
    clause: 'contract §6',
    description: 'the poll answers from sequence 0 whatever afterSequence says',
  },
  {
    name: 'cursor-inclusive',
    clause: 'contract §6',
    description: 'the poll answers events with sequence >= afterSequence, not > afterSequence',
  },
  {
    name: 'last-sequence-of-page',
    clause: 'contract §6, openwop/openwop spec/v2/core/events.md',
    description:
      "a poll page's lastSequence is its own last event's sequence, or the cursor on an empty page, not the log's highest",
  },
  {
    name: 'last-sequence-minus-one',
    clause: 'contract §6, openwop/openwop spec/v2/core/events.md',
    description: 'every poll page says lastSequence -1, as if the log were empty',
  },
  {
    name: 'discovery-not-json',
    clause: 'contract §2',
    description: 'GET /.well-known/openwop answers 200 with an HTML body',
  },
  {
    name: 'no-key-check',
    clause: 'contract §1',
    description:
      'every request is served whatever its Authorization header says, none at all included',
  },
  {
    name: 'any-bearer-accepted',
    clause: 'contract §1, openwop/openwop spec/v2/errors.json',
    description:
      'any bearer token is served as if it were the key; a request without an Authorization header is still refused 401',
  },
  {
    name: 'key-prefix-accepted',
    clause: 'contract §1',
    description:
      'a bearer token that starts with the key is served, so the key with anything appended authenticates',
  },
  {
    name: 'key-case-insensitive',
    clause: 'contract §1',
    description: 'the bearer token is compared with the key ignoring case',
  },
  {
    name: 'key-last-character-unchecked',
    clause: 'contract §1',
    description:
      'a bearer token as long as the key is served when all but its last character match the key',
  },
  {
    name: 'key-truncation-accepted',
    clause: 'contract §1',
    description:
      'a bearer token the key starts with is served, so the key with its last character removed authenticates',
  },
  {
    name: 'discovery-no-witness',
    clause: 'contract §2',
    description: 'the agents record has no witness; every other member is as published',
  },
  {
    name: 'discovery-v1-flag',
    clause: 'contract §2',
    description:
      'agents.evalSuite carries the v1 flag supported: true; every other member is as published',
  },
  {
    name: 'unknown-run-bad-request',
    clause: 'contract §6',
    description:
      "a run id the host never minted, in the caller's own tenant, is answered 400 validation_error instead of 404 not_found",
  },
  {
    name: 'unknown-suite-server-error',
    clause: 'contract §6',
    description:
      'a create naming an eval suite the host does not have is answered 500 internal_error instead of 404 not_found',
  },
  {
    name: 'unadvertised-summary-refused',
    clause: 'contract §6',
    description:
      'discovery has no agents.evalSuite record, and GET /runs/{runId}/eval-summary, the operation it gates, is answered 422 capability_not_provided instead of 404',
  },
  {
    name: 'passed-count-wrong',
    clause: 'RFC 0081, contract §4',
    description: 'passedCount counts tasks whose score clears passScore, not tasks that passed',
  },
  {
    name: 'args-ignored',
    clause: 'contract §4 [0244-assumed]',
    description: 'an expected call with args matches a call to the same tool whatever its args',
  },
  {
    name: 'absent-args-not-empty',
    clause: 'contract §4 [0244-assumed]',
    description: 'an observed call without args does not match an expected call with args {}',
  },
  {
    name: 'exact-read-as-in-order',
    clause: 'contract §4 [0244-assumed]',
    description: 'match exact is graded as in-order, so extra calls between the expected ones pass',
  },
  {
    name: 'in-order-read-as-exact',
    clause: 'contract §4 [0244-assumed]',
    description: 'match in-order is graded as exact, so an extra call fails the path',
  },
  {
    name: 'in-order-read-as-any-order',
    clause: 'contract §4 [0244-assumed]',
    description: 'match in-order is graded as any-order, so expected calls out of order pass',
  },
  {
    name: 'any-order-read-as-in-order',
    clause: 'contract §4 [0244-assumed]',
    description: 'match any-order is graded as in-order, so expected calls out of order fail',
  },
  {
    name: 'any-order-read-as-unordered',
    clause: 'contract §4 [0244-assumed]',
    description:
      'match any-order also requires as many observed calls as expected ones, so an extra call fails',
  },
  {
    name: 'any-order-first-fit',
    clause: 'contract §4 [0244-assumed]',
    description:
      'any-order gives each expected call, in file order, the first free call it fits, with no reassignment',
  },
  {
    name: 'forbidden-ignored-when-matched',
    clause: 'contract §4 [0244-assumed]',
    description: 'a call to a forbidden tool does not fail a path whose expected calls all match',
  },
  {
    name: 'repeated-call-collapsed',
    clause: 'contract §4 [0244-assumed]',
    description:
      'in-order and any-order let one observed call meet every repeat of an expected call',
  },
  {
    name: 'events-out-of-order',
    clause: 'contract §7',
    description: 'eval.completed is appended before the last eval.scored',
  },
  {
    name: 'run-completed-missing',
    clause: 'contract §7',
    description: 'the log ends after eval.completed with no run.completed; the run is terminal',
  },
  {
    name: 'run-completed-no-outputs',
    clause: 'contract §7, openwop/openwop spec/v2/core/events.md',
    description:
      'run.completed carries an empty payload, without the outputs the published payload requires',
  },
  {
    name: 'run-completed-before-eval-completed',
    clause: 'contract §7',
    description: 'run.completed is appended before eval.completed, which ends the log',
  },
  {
    name: 'started-without-trials',
    clause: 'contract §7 [0244-assumed]',
    description:
      'eval.started carries no trials block even when the suite has one; everything else, the trials run included, is as the suite says',
  },
  {
    name: 'summary-tasks-sorted',
    clause: 'contract §5',
    description:
      "the summary lists its task entries sorted by taskId instead of in the suite's order",
  },
  {
    name: 'summary-409-forever',
    clause: 'contract §6',
    description: 'GET /runs/{runId}/eval-summary answers 409 even after the run is terminal',
  },
  {
    name: 'status-failed-on-gate',
    clause: 'contract §6',
    description: 'a run whose suite did not pass ends with status failed instead of completed',
  },
  {
    name: 'cost-limit-dropped',
    clause: 'RFC 0246 §B',
    description:
      'suite passed reads the gating aggregate and the latency limit, and drops the maxCostUsd condition',
  },
  {
    name: 'cost-limit-dropped-on-odd-runs',
    clause: 'RFC 0246 §B',
    description:
      'a race: the maxCostUsd condition is dropped on the first run of each suite and every other one after it, so the same host answers differently from one suite run to the next',
  },
  {
    name: 'latency-limit-dropped',
    clause: 'RFC 0246 §B',
    description:
      'suite passed reads the gating aggregate and the cost limit, and drops the maxP95LatencyMs condition',
  },
  {
    name: 'miss-not-failed-closed',
    clause: 'RFC 0246 §A, contract §4',
    description:
      'a call to a tool with no recorded response is answered null and the trial is graded on its output',
  },
  {
    name: 'cost-limit-per-trial',
    clause: 'RFC 0246 §B',
    description:
      'the maxCostUsd condition is decided on the costliest single trial, not on the total cost of the run',
  },
  {
    name: 'p95-as-mean',
    clause: 'RFC 0246 §B',
    description: 'the p95 latency the maxP95LatencyMs condition reads is the mean trial latency',
  },
  {
    name: 'p95-over-task-means',
    clause: 'RFC 0246 §B',
    description:
      'the p95 latency is taken over one figure per task, the mean of its trial latencies, not over every trial latency',
  },
  {
    name: 'p95-over-task-sums',
    clause: 'RFC 0246 §B',
    description:
      'the p95 latency is taken over one figure per task, the sum of its trial latencies, not over every trial latency',
  },
  {
    name: 'p95-over-task-maxima',
    clause: 'RFC 0246 §B',
    description:
      'the p95 latency is taken over one figure per task, its slowest trial latency (the figure a task entry reports), not over every trial latency',
  },
  {
    name: 'limits-exclusive',
    clause: 'RFC 0246 §B, contract §4',
    description:
      'the cost and latency conditions compare with < instead of <=, so a run exactly on a limit fails',
  },
  {
    name: 'limits-hidden-and-ignored',
    clause: 'RFC 0246 §B, contract §3',
    description:
      'no cost or latency is reported anywhere (eval.scored, task entries, totalCostUsd), and suite passed drops both limit conditions',
  },
  {
    name: 'golden-never-graded',
    clause: 'RFC 0246 §C, RFC 0081',
    description: 'every output scores 1, whatever the golden value and the match strategy',
  },
  {
    name: 'json-match-as-text',
    clause: 'contract §4',
    description:
      'json-match compares the JSON text of output and golden value, so the same members in another order differ',
  },
  {
    name: 'exact-trims-whitespace',
    clause: 'contract §4',
    description: 'exact compares the two texts with leading and trailing whitespace trimmed',
  },
  {
    name: 'golden-case-insensitive',
    clause: 'contract §4',
    description: 'exact and contains compare the two texts with every letter in lower case',
  },
  {
    name: 'exact-members-sorted',
    clause: 'contract §4',
    description:
      "exact writes a non-string value's JSON text with its members sorted by key, not in their own order",
  },
  {
    name: 'exact-compared-as-values',
    clause: 'contract §4',
    description:
      'exact compares the two JSON values, so an object output never equals a string value spelling its JSON text',
  },
  {
    name: 'exact-non-string-as-value',
    clause: 'contract §4',
    description:
      'exact compares a non-string golden value with the output as JSON values (a string value still by text), so the string "42" misses the value 42 and an object with its members in another order matches',
  },
  {
    name: 'contains-strings-only',
    clause: 'contract §4',
    description: 'contains scores a non-string output 0 instead of searching its JSON text',
  },
  {
    name: 'json-match-parses-string',
    clause: 'contract §4',
    description:
      'json-match parses a string output as JSON before comparing, so a string spelling the value matches it',
  },
  {
    name: 'json-match-arrays-unordered',
    clause: 'contract §4',
    description: 'json-match compares arrays as unordered collections, so reordered items match',
  },
  {
    name: 'args-subset',
    clause: 'contract §4 [0244-assumed]',
    description:
      'an expected call with args matches an observed call whose args hold those members, extra ones allowed',
  },
  {
    name: 'trial-verdict-strict',
    clause: 'contract §4, RFC 0246 §B',
    description:
      'a trial passes only when its score is greater than passScore, so a score exactly on it fails',
  },
  {
    name: 'args-case-insensitive',
    clause: 'contract §4 [0244-assumed]',
    description: 'expected and observed call args are compared with every string in lower case',
  },
  {
    name: 'empty-responses-never-miss',
    clause: 'contract §4 [0244-assumed]',
    description:
      'a task whose toolResponses list is empty is read as recording no fixtures, so its calls never miss',
  },
  {
    name: 'absent-responses-miss',
    clause: 'contract §4 [0244-assumed]',
    description:
      'a task without toolResponses is read as recording no answer, so each of its calls misses and fails the trial closed',
  },
  {
    name: 'response-less-entry-misses',
    clause: 'contract §4 [0244-assumed]',
    description:
      'a toolResponses entry without response records nothing, so a call to its tool misses',
  },
  {
    name: 'latency-reported-in-seconds',
    clause: 'contract §3',
    description:
      'latencyMs is reported in whole seconds (stated 3000 ms reads 3); suite passed is still decided on the stated figure',
  },
  {
    name: 'error-body-dialect',
    clause: 'contract §1, openwop/openwop schemas/v2/error-envelope.schema.json',
    description:
      'every error body is {error: {code, message}} instead of {error, message, details?}, the refusals the suite provokes included; the plain host also answers the first summary read 409 while it finalises, as the varied host always does, so a leg shows the body too',
  },
  {
    name: 'run-id-untenanted',
    clause: 'contract §1, openwop/openwop schemas/v2/ids.schema.json',
    description: 'run ids carry no tenant segment (run-000000000001)',
  },
  {
    name: 'event-id-short',
    clause: 'contract §6, openwop/openwop schemas/v2/ids.schema.json',
    description: 'event ids are shorter than 16 characters (e0, e1, ...)',
  },
  {
    name: 'events-unversioned',
    clause: 'contract §6, openwop/openwop schemas/v2/run-event.schema.json',
    description: 'events carry no schemaVersion',
  },
  {
    name: 'create-answer-no-events-url',
    clause: 'contract §6, openwop/openwop api/v2/openapi.yaml',
    description: 'the 201 answer of POST /runs has no eventsUrl',
  },
  {
    name: 'poll-page-extra-member',
    clause: 'contract §6, openwop/openwop api/v2/openapi.yaml',
    description: 'every poll page carries a hasMore member beside the five the closed page allows',
  },
  {
    name: 'version-header-missing',
    clause: 'contract §1, openwop/openwop spec/v2/path-manifest.json',
    description: 'no response carries the OpenWOP-Version header',
  },
] as const satisfies readonly DefectRecord[];

export type DefectName = (typeof DEFECTS)[number]['name'];

export function isDefectName(name: string): name is DefectName {
  return DEFECTS.some((d) => d.name === name);
}

/** The question every switch asks; with no defect, every answer is no. */
export type HasDefect = (name: DefectName) => boolean;

/** The switches of a set of defects (one name, a list, or none); each answers for itself. */
export function defectPredicate(
  defects: DefectName | readonly DefectName[] | undefined,
): HasDefect {
  const on = new Set<DefectName>(
    defects === undefined ? [] : typeof defects === 'string' ? [defects] : defects,
  );
  return (name) => on.has(name);
}
