// Whatever the host sends, the witness answers with failing findings and never throws: the
// summary and payloads are `unknown` until a guard has read them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import type { Finding } from '../../lib/types.ts';
import {
  asObservation,
  GATED,
  gatedObservation,
  scoredPayload,
  summaryOf,
  summaryTask,
  type Draft,
} from './build.ts';
import { gated } from './mutate.ts';

function judged(mutate: (d: Draft) => void): readonly Finding[] {
  const draft = gatedObservation();
  mutate(draft);
  return judgeEvalRun(GATED, asObservation(draft));
}

const failingRules = (findings: readonly Finding[]): Set<string> =>
  new Set(mustFailures(findings).map((f) => f.rule));

describe('a summary that is not an EvalSummary', () => {
  it.each([
    ['an empty array', []],
    ['null', null],
    ['a string', 'x'],
    ['a number', 42],
    [
      'an object with every member of the wrong type',
      { suiteId: 1, tasks: 'none', passed: 'yes', aggregateScore: '1' },
    ],
  ])(
    '%s fails the schema, the identity, the verdict and every task without throwing',
    (_, summary) => {
      const rules = failingRules(judged((d) => (d.summary = summary)));
      for (const rule of [
        'summary.schema',
        'summary.identity',
        'suite.passed',
        'suite.aggregate-unchanged',
        'task.passed',
        'task.score-unchanged',
        'task.gated-score-present',
        'suite.gated-aggregate-present',
        'completed.consistent',
      ]) {
        expect(rules).toContain(rule);
      }
    },
  );
});

describe('numbers that are not numbers', () => {
  it('a score sent as the string "1" fails the schema and the score rules', () => {
    const rules = failingRules(
      judged((d) => {
        summaryTask(d, 'right-path').score = '1';
        scoredPayload(d, 'right-path', 1).score = '1';
      }),
    );
    expect(rules).toEqual(
      new Set([
        'summary.schema',
        'events.payload-schema',
        'task.score-unchanged',
        'trial.score-unchanged',
      ]),
    );
  });

  it.each(['NaN', 'Infinity', '0x1', ''])(
    'aggregateScore %j fails as a string, not as a parsed number',
    (text) => {
      const rules = failingRules(judged((d) => (summaryOf(d).aggregateScore = text)));
      expect(rules).toEqual(
        new Set(['summary.schema', 'suite.aggregate-unchanged', 'completed.consistent']),
      );
    },
  );

  it('1e400, which JSON.parse reads as Infinity, fails the gated score and the schema', () => {
    const parsed = JSON.parse('{"gatedScore": 1e400}') as { gatedScore: number };
    expect(parsed.gatedScore).toBe(Infinity);
    const findings = judged((d) => (summaryTask(d, 'wrong-path').gatedScore = parsed.gatedScore));
    expect(failingRules(findings)).toEqual(new Set(['summary.schema', 'task.gated-score-value']));
    expect(findings.find((f) => f.rule === 'task.gated-score-value' && !f.ok)?.message).toContain(
      'host reported Infinity',
    );
  });
});

describe('a log that is not a log', () => {
  it('events of every wrong shape fail the envelope and the eval sequence without throwing', () => {
    const rules = failingRules(
      judged((d) => {
        d.events = [
          null,
          5,
          'eval.started',
          [],
          { type: 'eval.scored', payload: 'text' },
          { type: 'eval.completed', payload: [1] },
        ] as Draft['events'];
      }),
    );
    for (const rule of [
      'events.envelope',
      'events.run-id',
      'events.started-first',
      'events.payload-schema',
      'events.scored-count',
    ]) {
      expect(rules).toContain(rule);
    }
  });

  it('pages with impossible counts, flags and sequences fail events.cursor and events.last-sequence', () => {
    const draft = gatedObservation();
    draft.pages = [
      { afterSequence: null, lastSequence: 'three', isTerminal: 'yes', eventCount: -4 },
      { afterSequence: 2, lastSequence: null, isTerminal: null, eventCount: Number.NaN },
    ];
    expect(failingRules(judgeEvalRun(GATED, asObservation(draft)))).toEqual(
      new Set(['events.cursor', 'events.last-sequence']),
    );
  });

  it('a huge array of junk tasks and a deeply nested vendor member are judged, not thrown on', () => {
    const findings = judged((d) => {
      const summary = summaryOf(d);
      summary.tasks = Array.from({ length: 100_000 }, (_, i) =>
        i % 2 === 0 ? null : { taskId: i },
      );
      let deep: unknown = { token: 'leaked' };
      for (let i = 0; i < 100_000; i += 1) deep = { inner: deep };
      summary['x-deep'] = deep;
    });
    const rules = failingRules(findings);
    expect(rules).toContain('summary.identity');
    expect(rules).toContain('content-free');
  });
});

describe('any JSON in place of what the host sends', () => {
  it('never throws on random JSON anywhere', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (summary, payload, status) => {
        const draft = gatedObservation();
        draft.summary = summary;
        draft.runStatus = status;
        const scored = draft.events.find((e) => e.type === 'eval.scored');
        if (scored !== undefined) scored.payload = payload;
        expect(() => judgeEvalRun(GATED, asObservation(draft))).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it('any run status but "completed", with a correct summary, fails run.completed-status alone', () => {
    const status = fc
      .oneof(
        fc.constantFrom('failed', 'cancelled', 'running', 'Completed', 'completed '),
        fc.string(),
      )
      .filter((s) => s !== 'completed');
    fc.assert(
      fc.property(status, (s) => {
        expect(gated((d) => (d.runStatus = s))).toEqual(['run.completed-status']);
      }),
      { numRuns: 200 },
    );
  });
});
