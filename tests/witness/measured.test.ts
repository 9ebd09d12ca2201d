// The measuring fixtures as the witness grades them: outputs that miss their golden value, ones
// that meet it only as documented, a trial exactly on passScore, args that differ only in case,
// and the three miss readings. Correct runs come from the property tests' oracle, which shares no
// code with the witness; each wrong reading is the oracle's grade of the fixture as misread.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectRun, judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import type { EvalTask, Fixture } from '../../lib/types.ts';
import { grade, observe, oracle } from '../property/oracle.ts';

const MEASURED = 'conformance-eval-trajectory-measured';
const MISS = 'conformance-eval-trajectory-readings-miss';

const fixtures = new Map<string, Fixture>();
beforeAll(async () => {
  for (const id of [MEASURED, MISS]) {
    const loaded = await loadFixture(id);
    if (!loaded.ok) throw new Error(loaded.reason);
    fixtures.set(id, loaded.fixture);
  }
});
const shipped = (id: string): Fixture => fixtures.get(id) as Fixture;

/** Each task's [score, gatedScore, passed], in file order. */
const taskNumbers = (id: string): [string, number, number, boolean][] =>
  expectRun(shipped(id)).tasks.map((t) => [t.taskId, t.score, t.gatedScore, t.passed]);

/** The rules that fail when a host grades the fixture with each task read as `read` does. */
function failedRules(id: string, read: (task: EvalTask) => EvalTask): string[] {
  const fixture = shipped(id);
  const misread = { ...fixture, suite: { ...fixture.suite, tasks: fixture.suite.tasks.map(read) } };
  const failed = mustFailures(judgeEvalRun(fixture, observe(fixture, grade(misread))));
  return [...new Set(failed.map((f) => f.rule))].sort();
}

describe('what the witness expects of the measured fixture', () => {
  it('grades each output by its strategy, passes the trials exactly on passScore, and gates the cased path', () => {
    expect(taskNumbers(MEASURED)).toEqual([
      ['exact-output-differs', 0, 0, false],
      ['contains-output-lacks', 0, 0, false],
      ['json-member-differs', 0, 0, false],
      ['json-members-reordered', 1, 1, true],
      ['contains-output-inside', 1, 1, true],
      ['args-differ-in-case', 1, 0, false],
      ['exact-whitespace-kept', 0, 0, false],
      ['exact-case-kept', 0, 0, false],
      ['contains-case-kept', 0, 0, false],
      ['exact-members-in-own-order', 0, 0, false],
      ['exact-json-text-matches', 1, 1, true],
      ['contains-json-text-inside', 1, 1, true],
      ['json-string-not-parsed', 0, 0, false],
      ['json-array-order-kept', 0, 0, false],
      ['args-superset', 1, 0, false],
    ]);
    const run = expectRun(shipped(MEASURED));
    expect([run.aggregateScore, run.gatedAggregateScore, run.passed, run.passedCount]).toEqual([
      6 / 15,
      4 / 15,
      false,
      4,
    ]);
  });

  it('a correct host holds every MUST rule', () => {
    expect(mustFailures(judgeEvalRun(shipped(MEASURED), oracle(shipped(MEASURED))))).toEqual([]);
  });

  it('a host that compares json-match as text fails the reordered task on its score', () => {
    expect(
      failedRules(MEASURED, (task) => {
        const match = task.expected.match;
        if (match?.strategy !== 'json-match') return task;
        const value = JSON.stringify(match.value);
        return { ...task, expected: { ...task.expected, match: { strategy: 'exact', value } } };
      }),
    ).toEqual(
      // The reordered object now misses while the string spelling the value now matches, so the
      // aggregates balance out and only the tasks show it.
      expect.arrayContaining(['task.passed', 'task.score-unchanged']),
    );
  });
});

describe('what the witness expects of the miss readings fixture', () => {
  it('the empty list misses and fails closed; no list and a response-less entry do not', () => {
    expect(taskNumbers(MISS)).toEqual([
      ['empty-list-misses', 0, 0, false],
      ['no-list-never-misses', 1, 1, true],
      ['entry-without-response-records', 1, 1, true],
    ]);
    const run = expectRun(shipped(MISS));
    expect(run.tasks.map((t) => t.trials[0]?.missedTool)).toEqual([
      'crm:lookup-customer',
      null,
      null,
    ]);
    expect([run.aggregateScore, run.gatedAggregateScore, run.passed]).toEqual([2 / 3, 2 / 3, true]);
  });

  it('a correct host holds every MUST rule', () => {
    expect(mustFailures(judgeEvalRun(shipped(MISS), oracle(shipped(MISS))))).toEqual([]);
  });

  it('a host that reads a task without toolResponses as recording nothing fails the suite verdict', () => {
    expect(
      failedRules(MISS, (task) =>
        task.fixtures === undefined ? { ...task, fixtures: { toolResponses: [] } } : task,
      ),
    ).toEqual(expect.arrayContaining(['suite.passed', 'task.score-unchanged']));
  });
});
