// Which defects may be switched on together. Two defects combine when each still breaks its own
// clause beside the other; they conflict when one of them makes the other's switch unreachable,
// so the pair would silently behave as the first alone and a run against it would claim a defect
// it cannot show. A conflicting pair is refused, never quietly reduced to one defect.

import { DEFECTS, isDefectName, type DefectName } from './defects.ts';

export interface Override {
  /** The defect that wins. */
  readonly defect: DefectName;
  /** Defects whose switch it leaves unreachable or unobservable. */
  readonly overrides: readonly DefectName[];
  /** Why, in a few words, read after "with DEFECT, ". */
  readonly because: string;
}

/** Defects a client sees in discovery alone, before it asks for any run. */
const DISCOVERY_DEFECTS: readonly DefectName[] = [
  'trials-max-count-1',
  'withhold-eval-suite',
  'withhold-trajectory',
  'withhold-trials',
  'withhold-fixtures',
  'discovery-not-json',
  'discovery-no-witness',
  'discovery-v1-flag',
  'version-header-missing',
];

/** Defects that show without a run: in discovery, or in a request the host refuses. */
const RUNLESS_DEFECTS: readonly DefectName[] = [
  ...DISCOVERY_DEFECTS,
  'protocol-v1-only',
  'create-refused',
  'no-key-check',
  'any-bearer-accepted',
  'error-body-dialect',
  'unknown-run-bad-request',
  'unknown-suite-server-error',
  'unadvertised-summary-refused',
];

const everyDefectBut = (kept: readonly DefectName[]): DefectName[] =>
  DEFECTS.map((d) => d.name).filter((name) => !kept.includes(name));

/**
 * What a host without an agents.evalSuite record hides: every defect a run would show, and the
 * records and flags that only qualify that capability.
 */
const HIDDEN_WITHOUT_EVAL_SUITE: readonly DefectName[] = [
  ...everyDefectBut(RUNLESS_DEFECTS),
  'withhold-trajectory',
  'withhold-trials',
  'trials-max-count-1',
  'discovery-v1-flag',
  'create-refused',
];

export const OVERRIDES: readonly Override[] = [
  {
    defect: 'gated-aggregate-omitted',
    overrides: ['gated-aggregate-omitted-when-zero'],
    because: 'the gated aggregate is never reported, zero or not',
  },
  {
    defect: 'protocol-v1-only',
    overrides: everyDefectBut([...DISCOVERY_DEFECTS, 'protocol-v1-only']),
    because: 'every request but discovery is answered 406 before it is served',
  },
  {
    defect: 'create-refused',
    overrides: everyDefectBut(RUNLESS_DEFECTS),
    because: 'no run is ever created, so nothing a run does can show',
  },
  {
    defect: 'withhold-eval-suite',
    overrides: HIDDEN_WITHOUT_EVAL_SUITE,
    because: 'there is no agents.evalSuite record and every eval run is refused',
  },
  {
    defect: 'unadvertised-summary-refused',
    overrides: ['withhold-eval-suite', ...HIDDEN_WITHOUT_EVAL_SUITE],
    because: 'it withholds agents.evalSuite too, so every eval run is refused',
  },
  {
    defect: 'discovery-not-json',
    overrides: [
      'trials-max-count-1',
      'withhold-trajectory',
      'withhold-trials',
      'withhold-fixtures',
      'discovery-no-witness',
      'discovery-v1-flag',
    ],
    because: 'discovery is HTML, so no member of it can be read',
  },
  {
    defect: 'withhold-trials',
    overrides: ['trials-max-count-1'],
    because: 'there is no trials record to carry a maxCount',
  },
  {
    defect: 'unmigrated-0244',
    overrides: [
      'gated-fields-but-old-passed',
      'gated-score-omitted-when-equal',
      'gated-aggregate-omitted',
      'gated-aggregate-omitted-when-zero',
      'gated-fields-on-ungated-tasks',
      'gated-out-of-range',
      'miss-gates-ungated-task',
    ],
    because: 'no gated field is reported and every decision reads raw scores',
  },
  {
    defect: 'limits-hidden-and-ignored',
    overrides: [
      'cost-limit-dropped',
      'cost-limit-dropped-on-odd-runs',
      'latency-limit-dropped',
      'cost-limit-per-trial',
      'p95-as-mean',
      'p95-over-task-means',
      'p95-over-task-sums',
      'p95-over-task-maxima',
      'limits-exclusive',
      'latency-reported-in-seconds',
      'cost-over-task-means',
    ],
    because: 'no cost or latency is reported and neither limit condition is read',
  },
  {
    defect: 'cost-limit-dropped',
    overrides: ['cost-limit-per-trial', 'cost-limit-dropped-on-odd-runs', 'cost-over-task-means'],
    because: 'the cost condition is not read at all',
  },
  {
    defect: 'cost-over-task-means',
    overrides: ['cost-limit-per-trial'],
    because: 'the cost condition reads one figure per task, not any trial',
  },
  {
    defect: 'latency-limit-dropped',
    overrides: ['p95-as-mean', 'p95-over-task-means', 'p95-over-task-sums', 'p95-over-task-maxima'],
    because: 'the latency condition is not read at all',
  },
  {
    defect: 'p95-over-task-means',
    overrides: ['p95-over-task-sums', 'p95-over-task-maxima'],
    because: "the latency condition already reads one figure per task, its trials' mean",
  },
  {
    defect: 'p95-over-task-sums',
    overrides: ['p95-over-task-maxima'],
    because: "the latency condition already reads one figure per task, its trials' sum",
  },
  {
    defect: 'score-zeroed',
    overrides: [
      'trial-passed-ignores-trajectory',
      'rule-counts-trajectory-failed',
      'any-rule-counts-scores',
    ],
    because: 'a trajectory-failed trial scores 0 and so never clears passScore',
  },
  {
    defect: 'trial-passed-ignores-trajectory',
    overrides: ['rule-counts-trajectory-failed', 'any-rule-counts-scores'],
    because: 'a trial that clears passScore already passes, whatever its trajectory',
  },
  {
    defect: 'rule-counts-trajectory-failed',
    overrides: ['any-rule-counts-scores'],
    because: 'rules all and any both count a trial by its score already',
  },
  {
    defect: 'any-rule-gated-by-mean',
    overrides: ['any-rule-counts-scores'],
    because: 'rule any reads the gated mean and counts no trial at all',
  },
  {
    defect: 'gated-fields-on-ungated-tasks',
    overrides: ['miss-gates-ungated-task'],
    because: 'every task without a trajectory carries gatedScore, missed or not',
  },
  {
    defect: 'golden-never-graded',
    overrides: ['json-match-as-text'],
    because: 'every output scores 1 before any match strategy is read',
  },
  {
    defect: 'exact-compared-as-values',
    overrides: ['exact-non-string-as-value'],
    because: 'every exact value, a string too, compares as a JSON value already',
  },
  {
    defect: 'args-ignored',
    overrides: [
      'absent-args-not-empty',
      'args-case-insensitive',
      'args-compared-as-text',
      'args-arrays-unordered',
    ],
    because: 'call args are never compared',
  },
  {
    defect: 'args-compared-as-text',
    overrides: ['args-subset', 'args-case-insensitive', 'args-arrays-unordered'],
    because: 'args compare by their JSON text and by nothing else',
  },
  {
    defect: 'args-arrays-unordered',
    overrides: ['args-subset', 'args-case-insensitive'],
    because: 'args compare as values with arrays unordered and by nothing else',
  },
  {
    defect: 'in-order-read-as-exact',
    overrides: ['in-order-read-as-any-order'],
    because: 'in-order already reads as exact; it cannot read as any-order too',
  },
  {
    defect: 'any-order-read-as-in-order',
    overrides: ['any-order-read-as-unordered', 'any-order-first-fit'],
    because: 'the any-order matcher never runs',
  },
  {
    defect: 'miss-not-failed-closed',
    overrides: [
      'absent-responses-miss',
      'empty-responses-never-miss',
      'response-less-entry-misses',
      'trial-passed-ignores-fail-closed',
    ],
    because:
      'no miss fails a trial, so which calls miss, and how a failed-closed trial is decided, cannot show',
  },
  {
    defect: 'run-never-ends',
    overrides: [
      'completed-passed-old-rule',
      'events-out-of-order',
      'run-completed-missing',
      'run-completed-no-outputs',
      'run-completed-before-eval-completed',
      'summary-409-forever',
      'status-failed-on-gate',
    ],
    because: 'the run appends neither eval.completed nor run.completed and never has a summary',
  },
  {
    defect: 'run-completed-missing',
    overrides: ['run-completed-no-outputs', 'run-completed-before-eval-completed'],
    because: 'there is no run.completed to carry outputs or to come early',
  },
  {
    defect: 'scored-per-task',
    overrides: ['events-out-of-order'],
    because: 'the last per-trial eval.scored it would hold back is never sent',
  },
  {
    defect: 'cursor-ignored',
    overrides: ['cursor-inclusive'],
    because: 'afterSequence is not read at all',
  },
  {
    defect: 'last-sequence-minus-one',
    overrides: ['last-sequence-of-page'],
    because: 'every page says lastSequence -1',
  },
  {
    defect: 'no-key-check',
    overrides: ['any-bearer-accepted'],
    because: 'no Authorization header is read at all',
  },
];

/** The reason `a` and `b` cannot be combined, or undefined when they combine. */
export function conflictOf(a: DefectName, b: DefectName): string | undefined {
  for (const [winner, loser] of [
    [a, b],
    [b, a],
  ] as const) {
    const found = OVERRIDES.find((o) => o.defect === winner && o.overrides.includes(loser));
    if (found !== undefined) return `with ${winner}, ${found.because}, so ${loser} could not show`;
  }
  return undefined;
}

/**
 * The defects a comma list names, checked: each known, none twice, no two in conflict. Throws
 * one line naming the fault (and, for an unknown name, every valid one).
 */
export function defectSet(names: readonly string[]): readonly DefectName[] {
  const out: DefectName[] = [];
  for (const name of names) {
    if (!isDefectName(name)) {
      throw new Error(
        `unknown defect "${name}"; valid defects: ${DEFECTS.map((d) => d.name).join(', ')}`,
      );
    }
    if (out.includes(name)) throw new Error(`defect ${name} is named twice`);
    for (const earlier of out) {
      const conflict = conflictOf(earlier, name);
      if (conflict !== undefined) {
        throw new Error(`defects ${earlier} and ${name} conflict: ${conflict}`);
      }
    }
    out.push(name);
  }
  return out;
}

/** `a,b, c` as the names it lists; an empty item is an unknown defect, not skipped. */
export function parseDefectList(text: string): readonly DefectName[] {
  return defectSet(text.split(',').map((s) => s.trim()));
}
