// The eval.* event rules (lib/witness/events.ts) in words: each test changes one thing in a
// correct log, names every rule that must then fail, and pins the counts and positions the
// failing message must carry, so a report says what the host did, not just that it was wrong.

import { describe, expect, it } from 'vitest';
import { eventOf, GATED, scoredPayload, UNGATED, type Draft } from './build.ts';
import { judgedBy, type JudgedBy } from './mutate.ts';

const gated = (mutate: (d: Draft) => void): JudgedBy => judgedBy('events.', GATED, mutate);
const ungated = (mutate: (d: Draft) => void): JudgedBy => judgedBy('events.', UNGATED, mutate);

function startedPayload(d: Draft): Record<string, unknown> {
  return eventOf(d, 'eval.started').payload as Record<string, unknown>;
}

/** Swaps type and payload of two events, keeping their sequences and positions. */
function swap(a: Draft['events'][number], b: Draft['events'][number]): void {
  [a.type, a.payload, b.type, b.payload] = [b.type, b.payload, a.type, a.payload];
}

describe('a correct log, rule by rule in words', () => {
  it('the gated run: one started and completed, three payload types counted, 3 × 2 scored', () => {
    expect(gated(() => undefined).own.slice(5)).toEqual([
      'exactly one eval.started, first among eval.* events',
      'exactly one eval.completed, after every eval.scored',
      'exactly one run.completed, the last event, after eval.completed',
      'every eval.started payload validates (1 seen)',
      'every eval.scored payload validates (6 seen)',
      'every eval.completed payload validates (1 seen)',
      '3 × 2 = 6 eval.scored events, one per (task, trial)',
      'eval.started names witness.evals.gated@2.1.0, 3 tasks',
      'eval.started.trials is {count 2, passRule mean}',
    ]);
  });

  it('the ungated run: 2 × 1 scored and no trials block to compare', () => {
    const { failing, own: events } = ungated(() => undefined);
    expect(failing).toEqual([]);
    expect(events.slice(9)).toEqual([
      'every eval.scored payload validates (2 seen)',
      'every eval.completed payload validates (1 seen)',
      '2 × 1 = 2 eval.scored events, one per (task, trial)',
      'eval.started names witness.evals.ungated@1.0.0, 2 tasks',
      'eval.started carries no trials block',
    ]);
  });
});

describe('events.started-first and events.completed-once count and place their event', () => {
  it('two eval.started fail events.started-first, saying 2', () => {
    const { failing, said } = gated((d) => {
      const second = d.events[1] as Draft['events'][number];
      second.type = 'eval.started';
      second.payload = structuredClone(startedPayload(d));
    });
    expect(failing).toEqual(['events.started-first']);
    expect(said).toEqual([
      'exactly one eval.started MUST come before every other eval.* event; saw 2 eval.started events',
    ]);
  });

  it('no eval.started fails events.started-first, saying 0, and judges no started payload', () => {
    const {
      failing,
      said,
      own: events,
    } = gated((d) => (eventOf(d, 'eval.started').type = 'x.note'));
    expect(failing).toEqual(['events.started-first']);
    expect(said).toEqual([
      'exactly one eval.started MUST come before every other eval.* event; saw 0 eval.started events',
    ]);
    expect(events.some((m) => m.startsWith('eval.started names'))).toBe(false);
  });

  it('an eval.started after an eval.scored names both events by sequence', () => {
    const { failing, said } = gated((d) => swap(d.events[0] as never, d.events[2] as never));
    expect(failing).toEqual(['events.started-first']);
    expect(said).toEqual([
      'exactly one eval.started MUST come before every other eval.* event; eval.started is at sequence 3, after eval.scored at sequence 1',
    ]);
  });

  it('no eval.completed fails events.completed-once, saying 0', () => {
    const { failing, said } = gated((d) => (eventOf(d, 'eval.completed').type = 'x.note'));
    expect(failing).toEqual(['events.completed-once']);
    expect(said).toEqual([
      'exactly one eval.completed MUST follow every eval.scored; saw 0 eval.completed events',
    ]);
  });

  it('an eval.completed before the last eval.scored names both events by sequence', () => {
    const { failing, said } = gated((d) =>
      swap(eventOf(d, 'eval.completed'), eventOf(d, 'eval.scored', 5)),
    );
    expect(failing).toEqual(['events.completed-once']);
    expect(said).toEqual([
      'exactly one eval.completed MUST follow every eval.scored; eval.completed is at sequence 13, before an eval.scored at sequence 14',
    ]);
  });
});

describe('events.payload-schema counts the invalid payloads of each type', () => {
  it('two bad eval.scored payloads of six: 2 of 6, with the first one named', () => {
    const { failing, said } = gated((d) => {
      scoredPayload(d, 'plain', 1).note = 'a';
      scoredPayload(d, 'plain', 2).trial = 2.5;
    });
    expect(failing).toEqual(['events.payload-schema', 'events.scored-count']);
    expect(said[0]).toMatch(
      /^every eval\.scored payload MUST validate; 2 of 6 do not \(the event at sequence 11: eval-scored# additionalProperties: must NOT have additional properties \(note\)\)$/,
    );
  });
});

describe('events.scored-count names the first fault of each kind', () => {
  it('two eval.scored naming unknown tasks: the first is named, the lost trial is missing', () => {
    const { failing, said } = gated((d) => {
      scoredPayload(d, 'plain', 1).taskId = 'ghost';
      scoredPayload(d, 'plain', 2).taskId = 'ghost-2';
    });
    expect(failing).toEqual(['events.scored-count']);
    expect(said).toEqual([
      'eval.scored MUST number taskCount × n = 3 × 2 = 6, one per (task, trial); saw 6 (an eval.scored names task the string "ghost"; task "plain" trial 1 is missing)',
    ]);
  });

  it('a trial scored twice: the count of that trial, and the trial it displaced is missing', () => {
    const { failing, said } = gated((d) => {
      scoredPayload(d, 'right-path', 2).trial = 1;
      scoredPayload(d, 'plain', 2).trial = 1;
    });
    expect(failing).toEqual(['events.scored-count', 'trial.passed', 'trial.score-unchanged']);
    expect(said[0]).toBe(
      'eval.scored MUST number taskCount × n = 3 × 2 = 6, one per (task, trial); saw 6 (task "right-path" trial 1 is scored 2 times; task "right-path" trial 2 is missing)',
    );
  });

  it('trial numbers outside 1..n: the first is named', () => {
    const { said } = gated((d) => {
      scoredPayload(d, 'right-path', 2).trial = 3;
      scoredPayload(d, 'plain', 2).trial = 0;
    });
    expect(said).toContain(
      'eval.scored MUST number taskCount × n = 3 × 2 = 6, one per (task, trial); saw 6 (task "right-path" has trial 3; task "right-path" trial 2 is missing)',
    );
  });

  it('an extra eval.scored is counted in what was seen (the run.completed it replaced is missed too)', () => {
    const { failing, said } = gated((d) => {
      const last = eventOf(d, 'run.completed');
      last.type = 'eval.scored';
      last.payload = { ...scoredPayload(d, 'plain', 2), taskId: 'ghost' };
      const completed = eventOf(d, 'eval.completed');
      swap(completed, last);
    });
    expect(failing).toEqual(['events.run-completed', 'events.scored-count']);
    expect(said).toContain(
      'eval.scored MUST number taskCount × n = 3 × 2 = 6, one per (task, trial); saw 7 (an eval.scored names task the string "ghost")',
    );
  });

  it('trial 1 on a suite without a trials block is the one trial', () => {
    expect(ungated((d) => (scoredPayload(d, 'alpha').trial = 1)).failing).toEqual([]);
  });
});

describe('events.started-consistent and events.started-trials compare with the suite', () => {
  it('each wrong member is listed with what it must be', () => {
    const { failing, said } = gated((d) => {
      startedPayload(d).suiteId = 'x';
      startedPayload(d).taskCount = '3';
    });
    expect(failing).toEqual(['events.payload-schema', 'events.started-consistent']);
    expect(said[1]).toBe(
      'eval.started MUST describe the suite run; suiteId MUST be the string "witness.evals.gated", host reported the string "x"; taskCount MUST be 3, host reported the string "3"',
    );
  });

  it('modes that are not an array fail the payload schema only', () => {
    const { failing } = gated((d) => (startedPayload(d).modes = 'golden'));
    expect(failing).toEqual(['events.payload-schema']);
  });

  // The published payload: "The evaluation modes in use; may be empty". No shipped document ties
  // them to the suite's modes, so no value the schema admits is a failure.
  it.each([
    ['empty', []],
    ['one mode too many', ['golden', 'rubric']],
    ['another mode', ['rubric']],
  ])('modes %s, as the published schema allows, fail nothing', (_, modes) => {
    const { failing, said } = gated((d) => (startedPayload(d).modes = modes));
    expect(failing).toEqual([]);
    expect(said).toEqual([]);
  });

  it('a trials block on a suite without one: SHOULD be absent, with what was reported', () => {
    const { failing, said } = ungated(
      (d) => (startedPayload(d).trials = { count: 2, passRule: 'mean' }),
    );
    expect(failing).toEqual(['events.started-trials']);
    expect(said).toEqual([
      'eval.started.trials SHOULD be absent; host reported count 2, passRule the string "mean"',
    ]);
  });

  it('another pass rule fails events.started-trials', () => {
    const { failing, said } = gated(
      (d) => ((startedPayload(d).trials as Record<string, unknown>).passRule = 'all'),
    );
    expect(failing).toEqual(['events.started-trials']);
    expect(said).toEqual([
      'eval.started.trials SHOULD be {count 2, passRule mean}; host reported count 2, passRule the string "all"',
    ]);
  });

  // The finding's verdict and its message say the same thing: a missing block is a failed SHOULD
  // on a suite with a trials block, and a held one on a suite without.
  it('an absent block fails events.started-trials on a suite with a trials block', () => {
    const { failing, said } = gated((d) => delete startedPayload(d).trials);
    expect(failing).toEqual(['events.started-trials']);
    expect(said).toEqual([
      'eval.started.trials SHOULD be {count 2, passRule mean}; eval.started carries no trials block',
    ]);
  });

  it('an absent block holds on a suite without a trials block', () => {
    const { failing, own } = ungated(() => undefined);
    expect(failing).toEqual([]);
    expect(own).toContain('eval.started carries no trials block');
  });
});
