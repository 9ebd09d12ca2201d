// Which rules a judged run left unexercised, from literal observations: a rule owes findings
// where the fixture makes it apply (trial rules only with a trials block, presence rules by each
// task's trajectory), and one that produced fewer is listed with why.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { bindingGaps, unexercisedRules } from '../../lib/witness/exercised.ts';
import type { Fixture, RunObservation, UnexercisedRule } from '../../lib/types.ts';
import {
  asObservation,
  GATED,
  gatedObservation,
  limited,
  summaryOf,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';

/** The drafts carry no wire record, so the five wire rules never have anything to judge. */
const WIRE = [
  'wire.create-answer',
  'wire.poll-page',
  'wire.event-envelope',
  'wire.error-body',
  'wire.version-header',
];

function gaps(fixture: Fixture, observation: RunObservation): readonly UnexercisedRule[] {
  return unexercisedRules(fixture, observation, judgeEvalRun(fixture, observation));
}

function gapsAfter(
  fixture: Fixture,
  draft: Draft,
  change: (d: Draft) => void,
): readonly UnexercisedRule[] {
  change(draft);
  return gaps(fixture, asObservation(draft));
}

const rules = (list: readonly UnexercisedRule[]): string[] => list.map((u) => u.rule);
const reasonOf = (list: readonly UnexercisedRule[], rule: string): string | undefined =>
  list.find((u) => u.rule === rule)?.reason;

/** Every event on one page, read from the start: what a fast host serves. */
function onePage(d: Draft): void {
  d.pages = [
    {
      afterSequence: null,
      lastSequence: d.events.length,
      isTerminal: true,
      eventCount: d.events.length,
    },
  ];
}

describe('unexercisedRules', () => {
  it('a correct run with a trials block exercises every rule but the wire rules it has no record for', () => {
    const list = gaps(GATED, asObservation(gatedObservation()));
    expect(rules(list)).toEqual(WIRE);
    expect(reasonOf(list, 'wire.error-body')).toBe(
      'no error answer was seen, so wire.error-body had nothing to judge',
    );
  });

  it('without a trials block the trial bookkeeping rules do not apply, so they are not listed', () => {
    const findings = judgeEvalRun(UNGATED, asObservation(ungatedObservation()));
    // They judged nothing here, and that is right: the fixture gives them nothing to judge.
    expect(findings.filter((f) => f.rule === 'task.mean-score')).toEqual([]);
    expect(findings.filter((f) => f.rule === 'task.trial-stats')).toEqual([]);
    expect(rules(gaps(UNGATED, asObservation(ungatedObservation())))).toEqual(WIRE);
  });

  it('a log served whole on its first page leaves events.cursor unexercised, unless a replay re-read it', () => {
    const list = gapsAfter(GATED, gatedObservation(), onePage);
    expect(rules(list)).toEqual(['events.cursor', ...WIRE]);
    expect(reasonOf(list, 'events.cursor')).toBe(
      'every event came on the first page and no cursor replay was made, so events.cursor never saw a poll resume from afterSequence',
    );
    const draft = gatedObservation();
    onePage(draft);
    const replayed = {
      ...asObservation(draft),
      replays: [{ cursor: 'mid-log' as const, afterSequence: 3, pages: [], events: [] }],
    };
    expect(rules(gaps(GATED, replayed))).toEqual(WIRE);
    const noReplay = { ...asObservation(draft), replays: [] };
    expect(rules(gaps(GATED, noReplay))).toEqual(['events.cursor', ...WIRE]);
  });

  it('a log without eval.completed leaves its payload and its agreement with the summary unjudged', () => {
    const list = gapsAfter(GATED, gatedObservation(), (d) => {
      d.events = d.events.filter((e) => e.type !== 'eval.completed');
    });
    expect(rules(list)).toEqual(['events.payload-schema', 'completed.consistent', ...WIRE]);
    expect(reasonOf(list, 'events.payload-schema')).toBe(
      'no eval.completed event was seen, so events.payload-schema had no payload of that type to validate',
    );
    expect(reasonOf(list, 'completed.consistent')).toBe(
      'no eval.completed event was seen, so completed.consistent had nothing to compare with the summary',
    );
  });

  it('a task with no eval.scored event leaves the trial rules judged on the other tasks only', () => {
    const list = gapsAfter(GATED, gatedObservation(), (d) => {
      d.events = d.events.filter(
        (e) =>
          !(e.type === 'eval.scored' && (e.payload as { taskId?: string }).taskId === 'right-path'),
      );
    });
    expect(rules(list)).toEqual(['trial.score-unchanged', 'trial.passed', 'trial.flags', ...WIRE]);
    expect(reasonOf(list, 'trial.passed')).toBe(
      'trial.passed judged 2 of the 3 tasks it applies to: the others had no eval.scored event with a trial in range',
    );
  });

  it('a summary without gatedAggregateScore leaves its value unchecked where it is required', () => {
    const list = gapsAfter(GATED, gatedObservation(), (d) => {
      delete summaryOf(d).gatedAggregateScore;
    });
    expect(rules(list)).toEqual(['suite.gated-aggregate-value', ...WIRE]);
    expect(reasonOf(list, 'suite.gated-aggregate-value')).toBe(
      'the summary carried no gatedAggregateScore, so suite.gated-aggregate-value had no value to check',
    );
  });

  it('an error answer whose body was too large to keep is seen but not judged, and says so', () => {
    const observation: RunObservation = {
      ...asObservation(gatedObservation()),
      errors: {
        kinds: [{ call: 'summary', status: 409, count: 1, samples: [{ bytes: 9_999 }] }],
        omitted: 0,
      },
    };
    expect(reasonOf(gaps(GATED, observation), 'wire.error-body')).toBe(
      'every error body seen was larger than the suite keeps, so wire.error-body had nothing to judge',
    );
    const judged: RunObservation = {
      ...observation,
      errors: {
        kinds: [
          {
            call: 'summary',
            status: 409,
            count: 1,
            samples: [{ json: { error: 'run_state_conflict', message: 'wait' } }],
          },
        ],
        omitted: 0,
      },
    };
    expect(rules(gaps(GATED, judged))).not.toContain('wire.error-body');
  });

  it('lists nothing a run exercised, in catalogue order, whatever order the findings came in', () => {
    const observation = asObservation(gatedObservation());
    const findings = [...judgeEvalRun(GATED, observation)].reverse();
    expect(rules(unexercisedRules(GATED, observation, findings))).toEqual(WIRE);
    expect(rules(unexercisedRules(GATED, observation, []))).toContain('task.passed');
  });
});

describe('bindingGaps', () => {
  const gap = (rule: string): UnexercisedRule => ({ rule, reason: `${rule} saw nothing` });
  const observation = asObservation(gatedObservation());

  it('keeps the MUST rules and drops the SHOULD ones', () => {
    const list = [gap('completed.consistent'), gap('wire.error-body'), gap('trial.flags')];
    expect(bindingGaps(list, observation)).toEqual([gap('completed.consistent')]);
  });

  it('holds events.cursor against a leg only once the observation carries cursor replays', () => {
    expect(bindingGaps([gap('events.cursor')], observation)).toEqual([]);
    expect(bindingGaps([gap('events.cursor')], undefined)).toEqual([]);
    const replayed = { ...observation, replays: [] };
    expect(bindingGaps([gap('events.cursor')], replayed)).toEqual([gap('events.cursor')]);
  });

  it('drops a rule the catalogue does not know', () => {
    expect(bindingGaps([gap('no.such-rule')], observation)).toEqual([]);
  });
});

describe('every reason, pinned', () => {
  // With no finding at all, every rule the gated fixture owes is listed, each with its reason: the
  // reasons are what a host engineer reads, so each one's words are held here.
  it('lists each rule a run owes, in catalogue order, with the reason a host engineer reads', () => {
    const list = unexercisedRules(GATED, asObservation(gatedObservation()), []);
    expect(list.map((u) => [u.rule, u.reason])).toEqual([
      ['run.completed-status', 'the run status was never read'],
      ['events.envelope', 'no event log was recorded'],
      ['events.run-id', 'no event log was recorded'],
      ['events.sequence-ascending', 'no event log was recorded'],
      [
        'events.cursor',
        'every event came on the first page and no cursor replay was made, so events.cursor never saw a poll resume from afterSequence',
      ],
      ['events.last-sequence', 'no poll page was recorded'],
      ['events.started-first', 'no eval.* event order was judged'],
      ['events.completed-once', 'no eval.* event order was judged'],
      ['events.run-completed', 'no event log was recorded'],
      [
        'events.payload-schema',
        'events.payload-schema judged 0 of the 3 eval.* types the run logged',
      ],
      ['events.scored-count', 'the eval.scored events were not counted'],
      [
        'events.started-consistent',
        'no eval.started event was seen, so events.started-consistent had no payload to compare with the suite',
      ],
      [
        'events.started-trials',
        'no eval.started event was seen, so events.started-trials had no payload to compare with the suite',
      ],
      [
        'content-free',
        'the eval.* payloads and the summary were not both searched for content keys',
      ],
      ['summary.schema', 'no summary was validated'],
      ['summary.identity', 'no summary was read'],
      [
        'trial.score-unchanged',
        'trial.score-unchanged judged 0 of the 3 tasks it applies to: the others had no eval.scored event with a trial in range',
      ],
      [
        'trial.passed',
        'trial.passed judged 0 of the 3 tasks it applies to: the others had no eval.scored event with a trial in range',
      ],
      [
        'trial.flags',
        'trial.flags judged 0 of the 3 tasks it applies to: the others had no eval.scored event with a trial in range',
      ],
      [
        'task.score-unchanged',
        'task.score-unchanged judged 0 of the 3 tasks it applies to: the summary was not judged for the others',
      ],
      [
        'task.mean-score',
        'task.mean-score judged 0 of the 3 tasks it applies to: the summary was not judged for the others',
      ],
      [
        'task.trial-stats',
        'task.trial-stats judged 0 of the 3 tasks it applies to: the summary carried no trials object on the others',
      ],
      [
        'task.gated-score-present',
        'task.gated-score-present judged 0 of the 2 tasks it applies to: the summary was not judged for the others',
      ],
      [
        'task.gated-score-value',
        'task.gated-score-value judged 0 of the 2 tasks it applies to: the summary carried no gatedScore on the others',
      ],
      [
        'task.gated-score-absent',
        'task.gated-score-absent judged 0 of the 1 task it applies to: the summary was not judged for the others',
      ],
      [
        'task.passed',
        'task.passed judged 0 of the 3 tasks it applies to: the summary was not judged for the others',
      ],
      ['suite.aggregate-unchanged', 'no summary was read'],
      ['suite.gated-aggregate-present', 'no summary was read'],
      [
        'suite.gated-aggregate-value',
        'the summary carried no gatedAggregateScore, so suite.gated-aggregate-value had no value to check',
      ],
      ['suite.passed', 'no summary was read'],
      ['suite.counts', 'no summary was read'],
      [
        'completed.consistent',
        'no eval.completed event was seen, so completed.consistent had nothing to compare with the summary',
      ],
      [
        'wire.create-answer',
        'the observation holds no POST /runs answer (it was recorded without the wire record), so wire.create-answer had nothing to judge',
      ],
      [
        'wire.poll-page',
        'no poll page was recorded with its members, so wire.poll-page had nothing to judge',
      ],
      [
        'wire.event-envelope',
        'no event envelope was recorded, so wire.event-envelope had nothing to judge',
      ],
      ['wire.error-body', 'no error answer was seen, so wire.error-body had nothing to judge'],
      [
        'wire.version-header',
        'no response header was recorded, so wire.version-header had nothing to judge',
      ],
      [
        'wire.summary-task-order',
        'the summary listed fewer than two of the suite tasks, so it showed no order',
      ],
    ]);
  });

  it('the limits rule is owed only where the script states a figure, and says what it lacked', () => {
    const stated = limited({ maxCostUsd: 1 });
    const withFigures = unexercisedRules(stated, asObservation(ungatedObservation()), []);
    expect(reasonOf(withFigures, 'limits.figures')).toBe(
      'the host reported none of the cost and latency figures the script states, so limits.figures had nothing to compare',
    );
    const without = unexercisedRules(UNGATED, asObservation(ungatedObservation()), []);
    expect(rules(without)).not.toContain('limits.figures');
  });

  it('one figure stated for one trial of one task is enough to owe the limits rule', () => {
    // Only the second trial of wrong-path states a figure, and only one of the two; right-path and
    // plain state none.
    const stating = (figure: { costUsd?: number; latencyMs?: number }): Fixture => ({
      ...GATED,
      script: {
        ...GATED.script,
        'wrong-path': GATED.script['wrong-path']!.map((e, i) =>
          i === 1 ? { ...e, ...figure } : e,
        ),
      },
    });
    for (const figure of [{ costUsd: 0.01 }, { latencyMs: 120 }]) {
      const list = unexercisedRules(stating(figure), asObservation(gatedObservation()), []);
      expect(rules(list), JSON.stringify(figure)).toContain('limits.figures');
    }
  });

  it('names every eval.* type the log lacked, and reads a log it cannot list as holding none', () => {
    const expected =
      'no eval.scored or eval.completed event was seen, so events.payload-schema had no payload of that type to validate';
    const list = gapsAfter(GATED, gatedObservation(), (d) => {
      d.events = d.events.filter((e) => e.type === 'eval.started');
    });
    expect(reasonOf(list, 'events.payload-schema')).toBe(expected);
    for (const events of ['none', null]) {
      const none = { ...asObservation(gatedObservation()), events } as unknown as RunObservation;
      expect(reasonOf(unexercisedRules(GATED, none, []), 'events.payload-schema')).toBe(
        'no eval.started or eval.scored or eval.completed event was seen, so events.payload-schema had no payload of that type to validate',
      );
    }
  });

  it('an event whose type is not a string is no type at all', () => {
    const draft = asObservation(gatedObservation());
    const events = draft.events.map((e) => (e.type === 'eval.completed' ? { ...e, type: 7 } : e));
    const odd = { ...draft, events } as unknown as RunObservation;
    expect(reasonOf(unexercisedRules(GATED, odd, []), 'events.payload-schema')).toBe(
      'no eval.completed event was seen, so events.payload-schema had no payload of that type to validate',
    );
  });

  it('a suite with no trajectory owes the absence of every gated field, and says so when unjudged', () => {
    const list = unexercisedRules(UNGATED, asObservation(ungatedObservation()), []);
    const gated = list.filter((u) => u.rule.includes('gated'));
    expect(gated.map((u) => [u.rule, u.reason])).toEqual([
      [
        'task.gated-score-absent',
        'task.gated-score-absent judged 0 of the 2 tasks it applies to: the summary was not judged for the others',
      ],
      ['suite.gated-aggregate-absent', 'no summary was read'],
    ]);
  });

  it('the host-check rules are never owed by a leg', () => {
    const list = unexercisedRules(GATED, asObservation(gatedObservation()), []);
    expect(rules(list).filter((r) => /^wire\.(discovery|unauthenticated|unknown)/.test(r))).toEqual(
      [],
    );
  });
});
