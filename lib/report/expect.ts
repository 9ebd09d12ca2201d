// `openwop-eval-gate expect FIXTURE [--json]`: the numbers a conformant host reports for a
// fixture. Nothing here grades: every number is the witness's own (expectRun), so this output and
// a leg's verdict cannot disagree.

// The grading alone, not the whole witness: the CLI renders expectations on every run.
import {
  expectRun,
  type ExpectedRun,
  type ExpectedTask,
  type Presence,
} from '../eval-gate-witness.ts';
import type { Fixture } from '../types.ts';

export interface ExpectedTrialView {
  readonly trial: number;
  readonly score: number;
  /** Null when the task has no trajectory. */
  readonly trajectoryMatched: boolean | null;
  readonly failedClosed: boolean;
  readonly gatingScore: number;
  readonly passed: boolean;
  /** The cost and latency the script states for the trial, which a host reports as they are. */
  readonly costUsd?: number;
  readonly latencyMs?: number;
}

/** A declared cost or latency limit and the stated figure it is decided on (RFC 0246 §B). */
export interface ExpectedLimitView {
  readonly threshold: 'maxCostUsd' | 'maxP95LatencyMs';
  readonly limit: number;
  /** The run's total stated cost, or the p95 of the stated trial latencies. */
  readonly figure: number;
  readonly kept: boolean;
}

/** A value the host reports, by the member path the host writes it under. */
export type HostValue = number | string | boolean;

/**
 * What a host's own document must hold, under the host's own member names (`trials.meanScore`),
 * and what it may leave out but must get right when it carries it (the [0244-assumed]
 * bookkeeping, a gated value whose presence the RFC leaves open).
 */
export interface HostFields {
  readonly must: Readonly<Record<string, HostValue>>;
  readonly ifCarried: Readonly<Record<string, HostValue>>;
}

export interface ExpectedTaskView {
  readonly taskId: string;
  /** The task's entry in the EvalSummary, member by member. */
  readonly fields: HostFields;
  readonly score: number;
  /** The gated score; absent when the host must not report one. */
  readonly gatedScore?: number;
  /** `required`, `forbidden` (then gatedScore is absent) or `optional` (either is conformant). */
  readonly gatedScorePresence: Presence;
  readonly passed: boolean;
  readonly trials: readonly ExpectedTrialView[];
}

export interface ExpectedView {
  readonly fixtureId: string;
  readonly suiteId: string;
  readonly passScore: number;
  readonly passRule: string | null;
  readonly trialsPerTask: number;
  /** The eval.scored events a host emits: one per task per trial. */
  readonly scoredEvents: number;
  readonly suite: {
    readonly aggregateScore: number;
    readonly gatedAggregateScore?: number;
    readonly gatedAggregatePresence: Presence;
    /** Suite `passed`: the gated aggregate clears passScore and every declared limit holds. */
    readonly passed: boolean;
    /** The suite's declared limits, each with the stated figure it is decided on. */
    readonly limits: readonly ExpectedLimitView[];
    readonly passedCount: number;
    readonly taskCount: number;
    /** The EvalSummary's own members, as the host writes them. */
    readonly fields: HostFields;
  };
  readonly tasks: readonly ExpectedTaskView[];
}

export function expectedView(fixture: Fixture): ExpectedView {
  return viewOf(expectRun(fixture));
}

function viewOf(run: ExpectedRun): ExpectedView {
  return {
    fixtureId: run.fixtureId,
    suiteId: run.suiteId,
    passScore: run.thresholds.passScore,
    passRule: run.trialsBlock?.passRule ?? null,
    trialsPerTask: run.trialCount,
    scoredEvents: run.scoredCount,
    suite: {
      aggregateScore: run.aggregateScore,
      ...(run.gatedAggregatePresence === 'forbidden'
        ? {}
        : { gatedAggregateScore: run.gatedAggregateScore }),
      gatedAggregatePresence: run.gatedAggregatePresence,
      passed: run.passed,
      limits: run.limits.map(({ threshold, limit, figure, kept }) => ({
        threshold,
        limit,
        figure,
        kept,
      })),
      passedCount: run.passedCount,
      taskCount: run.taskCount,
      fields: suiteFields(run),
    },
    tasks: run.tasks.map((task) => ({
      taskId: task.taskId,
      fields: taskFields(run, task),
      score: task.score,
      ...(task.gatedScorePresence === 'forbidden' ? {} : { gatedScore: task.gatedScore }),
      gatedScorePresence: task.gatedScorePresence,
      passed: task.passed,
      trials: task.trials.map((t, i) => ({
        trial: i + 1,
        score: t.score,
        trajectoryMatched: t.trajectoryMatched,
        failedClosed: t.failedClosed,
        gatingScore: t.gatingScore,
        passed: t.passed,
        ...(t.costUsd === null ? {} : { costUsd: t.costUsd }),
        ...(t.latencyMs === null ? {} : { latencyMs: t.latencyMs }),
      })),
    })),
  };
}

/** A gated value goes where its presence puts it; a forbidden one nowhere. */
function gated(
  fields: { must: Record<string, HostValue>; ifCarried: Record<string, HostValue> },
  name: string,
  value: number,
  presence: Presence,
): void {
  if (presence === 'required') fields.must[name] = value;
  else if (presence === 'optional') fields.ifCarried[name] = value;
}

function suiteFields(run: ExpectedRun): HostFields {
  const fields = {
    must: { aggregateScore: run.aggregateScore } as Record<string, HostValue>,
    ifCarried: {} as Record<string, HostValue>,
  };
  gated(fields, 'gatedAggregateScore', run.gatedAggregateScore, run.gatedAggregatePresence);
  fields.must.passed = run.passed;
  fields.must.taskCount = run.taskCount;
  fields.must.passedCount = run.passedCount;
  return fields;
}

/** The task entry: RFC 0246 §C makes trials.meanScore a MUST; the rest of `trials` is SHOULD. */
function taskFields(run: ExpectedRun, task: ExpectedTask): HostFields {
  const fields = {
    must: { score: task.score } as Record<string, HostValue>,
    ifCarried: {} as Record<string, HostValue>,
  };
  gated(fields, 'gatedScore', task.gatedScore, task.gatedScorePresence);
  fields.must.passed = task.passed;
  const block = run.trialsBlock;
  if (block === null) return fields;
  fields.must['trials.meanScore'] = task.score;
  Object.assign(fields.ifCarried, {
    'trials.count': block.count,
    'trials.passRule': block.passRule,
    'trials.passAtK': task.passAtK,
    'trials.passHatK': task.passHatK,
  });
  for (const [key, value] of Object.entries(task.trialStats))
    fields.ifCarried[`trials.trialStats.${key}`] = value;
  return fields;
}

function fieldsText(fields: HostFields): string {
  const list = (record: Readonly<Record<string, HostValue>>): string =>
    Object.entries(record)
      .map(([k, v]) => `${k} ${typeof v === 'number' ? num(v) : String(v)}`)
      .join(', ');
  const carried = list(fields.ifCarried);
  return `${list(fields.must)}${carried === '' ? '' : `; if carried: ${carried}`}`;
}

/** A number as the tables print it: at most 4 decimals, no trailing zeros. */
export function num(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** The gated value and what the RFC says of its presence, e.g. `0` or `absent`. */
export function gatedText(value: number | undefined, presence: Presence): string {
  if (value === undefined) return 'absent';
  return presence === 'optional' ? `${num(value)} (may be absent)` : num(value);
}

export function trajectoryText(matched: boolean | null): string {
  return matched === null ? 'none' : matched ? 'matched' : 'failed';
}

/** The table for people: suite line, one row per task, one row per trial. */
export function renderExpected(view: ExpectedView): string[] {
  const s = view.suite;
  const rows: string[][] = [['task', 'trial', 'score', 'trajectory', 'gating', 'passed']];
  for (const task of view.tasks) {
    rows.push([
      task.taskId,
      'all',
      num(task.score),
      '',
      gatedText(task.gatedScore, task.gatedScorePresence),
      String(task.passed),
    ]);
    for (const t of task.trials) {
      rows.push([
        '',
        String(t.trial),
        num(t.score),
        trajectoryText(t.trajectoryMatched),
        num(t.gatingScore),
        String(t.passed),
      ]);
    }
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return [
    `${view.fixtureId} (${view.suiteId}): passScore ${num(view.passScore)}, ` +
      `${view.passRule === null ? 'no trials block' : `passRule ${view.passRule}`}, ` +
      `${view.trialsPerTask} trial${view.trialsPerTask === 1 ? '' : 's'} per task`,
    '',
    ...rows.map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    ),
    '',
    `suite: aggregateScore ${num(s.aggregateScore)}, gatedAggregateScore ${gatedText(s.gatedAggregateScore, s.gatedAggregatePresence)}, ` +
      `passed ${String(s.passed)}, passedCount ${s.passedCount} of ${s.taskCount}`,
    ...s.limits.map(
      (l) =>
        `limit: ${l.threshold} ${num(l.limit)}, stated ${l.threshold === 'maxCostUsd' ? 'total cost' : 'p95 latency'} ${num(l.figure)}: ${l.kept ? 'holds' : 'exceeded, so passed is false'}`,
    ),
    ...figureLines(view),
    ...missLines(view),
    `eval.scored events: ${view.scoredEvents}`,
    'A task row\'s "gating" is its gatedScore; "absent" means the host must not report one.',
    '',
    'What the summary carries, under its own member names:',
    `  suite: ${fieldsText(s.fields)}`,
    ...view.tasks.map((task) => `  task "${task.taskId}": ${fieldsText(task.fields)}`),
  ];
}

/** The figures a host reports as stated, one line per task, when the script states any. */
function figureLines(view: ExpectedView): string[] {
  return view.tasks.flatMap((task) => {
    const figures = task.trials.map((t) =>
      [
        t.costUsd === undefined ? '' : `cost ${num(t.costUsd)}`,
        t.latencyMs === undefined ? '' : `latency ${num(t.latencyMs)} ms`,
      ]
        .filter((f) => f !== '')
        .join(', '),
    );
    if (figures.every((f) => f === '')) return [];
    return [`stated figures of ${task.taskId}, trial by trial: ${figures.join('; ')}`];
  });
}

/** The trials that fail closed on a fixture miss: their score and gating score are 0. */
function missLines(view: ExpectedView): string[] {
  const closed = view.tasks.flatMap((task) =>
    task.trials.filter((t) => t.failedClosed).map((t) => `${task.taskId} trial ${t.trial}`),
  );
  if (closed.length === 0) return [];
  return [
    `failed closed on a fixture miss (score 0, gating 0, whatever the output): ${closed.join(', ')}`,
  ];
}
