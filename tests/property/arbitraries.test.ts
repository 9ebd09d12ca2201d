// The generator's own tests: every fixture it makes is one the suite would load, and over a
// sample it reaches every case the witness properties lean on. A property over fixtures that
// never reach a boundary, a miss or a forbidden hit would pass without having tested them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSchemaErrors, validate } from '../../lib/schemas.ts';
import { fixtureArb, PATH_KINDS, scriptedCalls, UNANSWERED_TOOL } from './arbitraries.ts';
import { above, atLeast, grade } from './oracle.ts';

describe('the random fixture generator', () => {
  it('makes only fixtures that validate against the fixture schema', () => {
    fc.assert(
      fc.property(fixtureArb, (fixture) => {
        expect(formatSchemaErrors(validate('fixture', fixture))).toBe('');
      }),
      { numRuns: 200 },
    );
  });

  it('bends a two-call path seven different ways', () => {
    const base = [{ tool: 'crm:lookup', args: { id: 'A' } }, { tool: 'crm:update' }];
    const paths = PATH_KINDS.map((kind) => JSON.stringify(scriptedCalls(kind, base, 1)));
    expect(new Set(paths).size).toBe(PATH_KINDS.length);
  });

  it('reaches boundaries, forbidden hits, misses, every rule and both presence cases', () => {
    const seen = new Set<string>();
    for (const fixture of fc.sample(fixtureArb, { numRuns: 200 })) {
      const { tasks, summary } = grade(fixture);
      const strict = grade(fixture, above);
      seen.add(`rule:${fixture.suite.trials?.passRule ?? 'none'}`);
      seen.add(`suite-passed:${summary.passed}`);
      if (JSON.stringify(strict.summary) !== JSON.stringify(summary)) seen.add('boundary');
      if (summary.passed !== strict.summary.passed) seen.add('suite-boundary');
      if (summary.gatedAggregateScore === undefined) seen.add('no-gated-aggregate');
      if (summary.tasks.length >= 40) seen.add('large-suite');
      if (fixture.suite.trials !== undefined && fixture.suite.trials.count >= 9)
        seen.add('many-trials');
      for (const task of fixture.suite.tasks) {
        const forbidden = task.expected.trajectory?.forbidden ?? [];
        const script = fixture.script[task.taskId] ?? [];
        if (script.some((e) => e.calls.some((c) => forbidden.includes(c.tool))))
          seen.add('forbidden-hit');
        // A call no task could answer, where the task's fixtures record no toolResponses.
        const recordsNothing =
          task.fixtures !== undefined && task.fixtures.toolResponses === undefined;
        if (recordsNothing && script.some((e) => e.calls.some((c) => c.tool === UNANSWERED_TOOL)))
          seen.add('call-where-nothing-is-recorded');
      }
      for (const task of tasks) {
        for (const trial of task.trials) {
          if (trial.failedClosed) seen.add('miss');
          if (trial.matched === false && !trial.failedClosed) seen.add('trajectory-failed');
          if (trial.matched === true) seen.add('trajectory-matched');
          if (trial.score === 1 && trial.matched === false) seen.add('good-answer-wrong-path');
        }
      }
      // A mean task exactly on its passScore, the boundary RFC 0246 §B makes inclusive.
      summary.tasks.forEach((entry, i) => {
        if (fixture.suite.trials?.passRule !== 'mean') return;
        if (entry.passed !== strict.summary.tasks[i]?.passed) seen.add('mean-task-boundary');
      });
    }
    expect([...seen].sort()).toEqual(
      [
        'boundary',
        'forbidden-hit',
        'good-answer-wrong-path',
        'large-suite',
        'many-trials',
        'miss',
        'no-gated-aggregate',
        'rule:all',
        'rule:any',
        'rule:mean',
        'rule:none',
        'suite-boundary',
        'suite-passed:false',
        'suite-passed:true',
        'mean-task-boundary',
        'trajectory-failed',
        'trajectory-matched',
        'call-where-nothing-is-recorded',
      ].sort(),
    );
  });

  it('the oracle comparators differ exactly at equality: ≥ admits it, > does not', () => {
    expect(atLeast(0.75, 0.75)).toBe(true);
    expect(above(0.75, 0.75)).toBe(false);
  });
});
