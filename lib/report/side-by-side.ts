// Expected next to reported: for a leg, each number a correct host reports for its fixture (from
// the witness, lib/report/expect.ts) beside what this host reported (read from the row's recorded
// summary and eval.scored events, never from a finding's message). The Markdown summary and the
// JUnit failure text print these for every failing leg.

import { loadFixture } from '../fixtures.ts';
import type { Presence } from '../eval-gate-witness.ts';
import type { ExpectedView } from './expect.ts';
import { expectedView, gatedText, num, trajectoryText } from './expect.ts';
import type { EvalGateReport, ReportRow } from './report.ts';

export interface SideBySide {
  /** `suite`, `task t1`, `task t1 trial 2`. */
  readonly subject: string;
  readonly field: string;
  readonly expected: string;
  readonly reported: string;
  readonly agrees: boolean;
}

/** What a correct host reports for each fixture the report's rows drove, by fixture id. */
export type Expectations = ReadonlyMap<string, ExpectedView>;

/**
 * Loads and grades each fixture a failing row names, the only rows shown beside expected numbers;
 * one that will not load or grade is left out.
 */
export async function expectationsFor(report: EvalGateReport): Promise<Expectations> {
  return expectationsOfFixtures(
    report.requirements.flatMap((row) =>
      row.disposition === 'executed-fail' && row.fixtureId !== undefined ? [row.fixtureId] : [],
    ),
  );
}

/** What a correct host reports for each of these fixtures; one that will not load or grade is left out. */
export async function expectationsOfFixtures(ids: Iterable<string>): Promise<Expectations> {
  const views = await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const loaded = await loadFixture(id);
      if (!loaded.ok) return [];
      try {
        return [[id, expectedView(loaded.fixture)] as const];
      } catch {
        // A fixture the witness cannot grade has no expected numbers; a leg on it says why.
        return [];
      }
    }),
  );
  return new Map(views.flat());
}

/** The comparisons of one row, or none when it has no observation or no graded fixture. */
export function sideBySide(row: ReportRow, expectations: Expectations): readonly SideBySide[] {
  const view = row.fixtureId === undefined ? undefined : expectations.get(row.fixtureId);
  if (view === undefined || row.observation === undefined) return [];
  const summary = asRecord(row.observation.summary);
  const reportedTasks = Array.isArray(summary?.tasks) ? summary.tasks.map(asRecord) : [];
  const scored = row.observation.events.filter((e) => e.type === 'eval.scored');
  const out: SideBySide[] = [];
  const add = (subject: string, field: string, expected: string, reported: unknown): void => {
    const shown = show(reported);
    out.push({ subject, field, expected, reported: shown, agrees: shown === expected });
  };
  /** A gated value: where the RFC lets the host omit it, absent agrees, and so does the number. */
  const addGated = (
    subject: string,
    field: string,
    expected: number | undefined,
    presence: Presence,
    reported: unknown,
  ): void => {
    const shown = show(reported);
    const agrees =
      presence === 'optional' && reported === undefined
        ? true
        : shown === (expected === undefined ? 'absent' : num(expected));
    out.push({ subject, field, expected: gatedText(expected, presence), reported: shown, agrees });
  };
  const s = view.suite;
  add('suite', 'aggregateScore', num(s.aggregateScore), summary?.aggregateScore);
  addGated(
    'suite',
    'gatedAggregateScore',
    s.gatedAggregateScore,
    s.gatedAggregatePresence,
    summary?.gatedAggregateScore,
  );
  if (s.passed !== null) add('suite', 'passed', String(s.passed), summary?.passed);
  add('suite', 'passedCount', String(s.passedCount), summary?.passedCount);
  add('run', 'eval.scored events', String(view.scoredEvents), scored.length);
  for (const task of view.tasks) {
    const at = `task ${task.taskId}`;
    const reported = reportedTasks.find((t) => t?.taskId === task.taskId);
    add(at, 'score', num(task.score), reported?.score);
    addGated(at, 'gatedScore', task.gatedScore, task.gatedScorePresence, reported?.gatedScore);
    add(at, 'passed', String(task.passed), reported?.passed);
    const events = scored.map((e) => asRecord(e.payload)).filter((p) => p?.taskId === task.taskId);
    for (const trial of task.trials) {
      const payload =
        events.find((p) => p?.trial === trial.trial) ??
        (view.trialsPerTask === 1 ? events[0] : undefined);
      const where = `${at} trial ${trial.trial}`;
      add(where, 'score', num(trial.score), payload?.score);
      if (trial.trajectoryMatched !== null) {
        add(
          where,
          'trajectory',
          trajectoryText(trial.trajectoryMatched),
          typeof payload?.trajectoryMatched === 'boolean'
            ? trajectoryText(payload.trajectoryMatched)
            : payload?.trajectoryMatched,
        );
      }
      add(where, 'passed', String(trial.passed), payload?.passed);
    }
  }
  return out;
}

function show(value: unknown): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'number') return num(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value).slice(0, 40);
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/** One line per comparison, disagreements first: `task t1 gatedScore: expected 0, reported 1 ✗`. */
export function sideBySideLines(items: readonly SideBySide[]): string[] {
  const ordered = [...items.filter((i) => !i.agrees), ...items.filter((i) => i.agrees)];
  return ordered.map(
    (i) =>
      `${i.subject} ${i.field}: expected ${i.expected}, reported ${i.reported}${i.agrees ? '' : ' ✗'}`,
  );
}
