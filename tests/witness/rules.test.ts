// One defect at a time: each test changes one thing in a correct observation and names every
// rule that must then fail, no more and no fewer. A rule never seen to fail is not a witness.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun, mustFailures, RULES } from '../../lib/eval-gate-witness.ts';
import type { Fixture } from '../../lib/types.ts';
import {
  asObservation,
  eventOf,
  GATED,
  gatedObservation,
  scoredPayload,
  summaryOf,
  summaryTask,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';

function failing(fixture: Fixture, draft: Draft): string[] {
  const ids = judgeEvalRun(fixture, asObservation(draft))
    .filter((f) => !f.ok)
    .map((f) => f.rule);
  return [...new Set(ids)].sort();
}

function gated(mutate: (d: Draft) => void): string[] {
  const draft = gatedObservation();
  mutate(draft);
  return failing(GATED, draft);
}

function ungated(mutate: (d: Draft) => void): string[] {
  const draft = ungatedObservation();
  mutate(draft);
  return failing(UNGATED, draft);
}

describe('a correct host', () => {
  it('passes every finding on the gated run and checks every rule that applies to it', () => {
    const findings = judgeEvalRun(GATED, asObservation(gatedObservation()));
    expect(findings.filter((f) => !f.ok)).toEqual([]);
    const checked = new Set(findings.map((f) => f.rule));
    const notApplicable = ['suite.gated-aggregate-absent'];
    const applicable = RULES.map((r) => r.id).filter((id) => !notApplicable.includes(id));
    expect([...checked].sort()).toEqual([...applicable].sort());
  });

  it('passes every finding on the ungated run, judging the absence of both gated fields', () => {
    const findings = judgeEvalRun(UNGATED, asObservation(ungatedObservation()));
    expect(mustFailures(findings)).toEqual([]);
    expect(findings.filter((f) => !f.ok)).toEqual([]);
    const rules = findings.map((f) => f.rule);
    expect(rules).toContain('suite.gated-aggregate-absent');
    expect(rules.filter((r) => r === 'task.gated-score-absent')).toHaveLength(2);
    expect(rules).not.toContain('task.mean-score');
  });
});

describe('one defect in the run or the log fails exactly its rule', () => {
  it('a run status other than completed fails run.completed-status', () => {
    expect(gated((d) => (d.runStatus = 'failed'))).toEqual(['run.completed-status']);
  });

  it('an event without a string type fails events.envelope', () => {
    expect(gated((d) => (eventOf(d, 'run.completed').type = 7))).toEqual(['events.envelope']);
  });

  it('an event naming another run fails events.run-id', () => {
    expect(gated((d) => (eventOf(d, 'run.completed').runId = 'tenant-b/run-7'))).toEqual([
      'events.run-id',
    ]);
  });

  it('a repeated sequence fails events.sequence-ascending', () => {
    expect(gated((d) => (eventOf(d, 'agent.invocation-completed', 0).sequence = 1))).toEqual([
      'events.sequence-ascending',
    ]);
  });

  it('a last page that is not terminal fails events.cursor', () => {
    expect(gated((d) => ((d.pages[1] as Draft['pages'][number]).isTerminal = false))).toEqual([
      'events.cursor',
    ]);
  });

  it('a page holding an event at or before its afterSequence fails events.cursor', () => {
    expect(gated((d) => ((d.pages[1] as Draft['pages'][number]).afterSequence = 4))).toEqual([
      'events.cursor',
    ]);
  });

  it('a lastSequence that goes backwards fails events.cursor', () => {
    expect(gated((d) => ((d.pages[1] as Draft['pages'][number]).lastSequence = 2))).toEqual([
      'events.cursor',
    ]);
  });

  it('an eval.scored before eval.started fails events.started-first', () => {
    expect(
      gated((d) => {
        const [first, second] = [d.events[0], d.events[2]] as [
          Draft['events'][number],
          Draft['events'][number],
        ];
        [first.type, first.payload, second.type, second.payload] = [
          second.type,
          second.payload,
          first.type,
          first.payload,
        ];
      }),
    ).toEqual(['events.started-first']);
  });

  it('a second eval.completed fails events.completed-once', () => {
    expect(
      gated((d) => {
        const last = eventOf(d, 'run.completed');
        last.type = 'eval.completed';
        last.payload = structuredClone(eventOf(d, 'eval.completed').payload);
      }),
    ).toEqual(['events.completed-once']);
  });

  it('an undeclared payload member fails events.payload-schema', () => {
    expect(gated((d) => (scoredPayload(d, 'plain', 1).note = 'fine'))).toEqual([
      'events.payload-schema',
    ]);
  });

  it('a missing eval.scored fails events.scored-count', () => {
    expect(
      gated((d) => {
        const event = eventOf(d, 'eval.scored', 5);
        event.type = 'agent.decided';
        delete event.payload;
      }),
    ).toEqual(['events.scored-count']);
  });

  it('a trial number beyond the count fails events.scored-count', () => {
    expect(gated((d) => (scoredPayload(d, 'plain', 2).trial = 3))).toEqual(['events.scored-count']);
  });

  it('eval.started with the wrong task count fails events.started-consistent', () => {
    expect(
      gated((d) => ((eventOf(d, 'eval.started').payload as Record<string, unknown>).taskCount = 4)),
    ).toEqual(['events.started-consistent']);
  });

  it('eval.started with the wrong trials block fails events.started-trials', () => {
    expect(
      gated(
        (d) =>
          ((eventOf(d, 'eval.started').payload as Record<string, unknown>).trials = {
            count: 3,
            passRule: 'mean',
          }),
      ),
    ).toEqual(['events.started-trials']);
  });

  it('a prompt under a vendor key of the summary fails content-free', () => {
    expect(gated((d) => (summaryOf(d)['x-debug'] = { echo: { prompt: 'refund O-9' } }))).toEqual([
      'content-free',
    ]);
  });

  it('a completion under a vendor key of an eval.scored fails content-free', () => {
    expect(
      gated((d) => (scoredPayload(d, 'plain', 1)['x-trace'] = [{ completion: 'O-3 shipped' }])),
    ).toEqual(['content-free']);
  });
});

describe('one defect in the grades fails exactly the rules it implies', () => {
  it('zeroing the score of the forbidden trial fails trial.score-unchanged', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).score = 0))).toEqual([
      'trial.score-unchanged',
    ]);
  });

  it('passing the forbidden trial fails trial.passed', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).passed = true))).toEqual([
      'trial.passed',
    ]);
  });

  it('flagging the forbidden trial as matched warns on trial.flags', () => {
    expect(gated((d) => (scoredPayload(d, 'wrong-path', 2).trajectoryMatched = true))).toEqual([
      'trial.flags',
    ]);
  });

  it('a zeroed task score fails task.score-unchanged', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').score = 0))).toEqual([
      'task.score-unchanged',
    ]);
  });

  it('a meanScore that reads the gate fails task.mean-score', () => {
    expect(
      gated(
        (d) => ((summaryTask(d, 'wrong-path').trials as Record<string, unknown>).meanScore = 0.5),
      ),
    ).toEqual(['task.mean-score']);
  });

  it('a trialStats that forgets the forbidden trial warns on task.trial-stats', () => {
    expect(
      gated((d) => {
        const trials = summaryTask(d, 'wrong-path').trials as {
          trialStats: Record<string, unknown>;
        };
        trials.trialStats.trajectoryFailed = 0;
      }),
    ).toEqual(['task.trial-stats']);
  });

  it('a trajectory task without gatedScore fails task.gated-score-present', () => {
    expect(gated((d) => delete summaryTask(d, 'wrong-path').gatedScore)).toEqual([
      'task.gated-score-present',
    ]);
  });

  it('an ungated gatedScore on the wrong-path task fails task.gated-score-value', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').gatedScore = 1))).toEqual([
      'task.gated-score-value',
    ]);
  });

  it('a gatedScore on a task without trajectory or miss fails task.gated-score-absent', () => {
    expect(gated((d) => (summaryTask(d, 'plain').gatedScore = 0.5))).toEqual([
      'task.gated-score-absent',
    ]);
    expect(ungated((d) => (summaryTask(d, 'alpha').gatedScore = 1))).toEqual([
      'task.gated-score-absent',
    ]);
  });

  it('passing the gated-out task fails task.passed and, through passedCount, suite.counts', () => {
    expect(gated((d) => (summaryTask(d, 'wrong-path').passed = true))).toEqual([
      'suite.counts',
      'task.passed',
    ]);
  });

  it('a task listed twice fails summary.identity', () => {
    expect(
      gated((d) => {
        const tasks = summaryOf(d).tasks as unknown[];
        tasks.push(structuredClone(tasks[2]));
      }),
    ).toEqual(['summary.identity']);
  });

  it('another suite version fails summary.identity', () => {
    expect(gated((d) => (summaryOf(d).suiteVersion = '2.2.0'))).toEqual(['summary.identity']);
  });

  it('a summary member of the wrong type fails summary.schema', () => {
    expect(gated((d) => (summaryOf(d).regression = 'none'))).toEqual(['summary.schema']);
  });
});

describe('one defect in the suite verdict fails exactly the rules it implies', () => {
  it('an aggregate that reads the gate fails suite.aggregate-unchanged and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).aggregateScore = 2 / 3))).toEqual([
      'completed.consistent',
      'suite.aggregate-unchanged',
    ]);
  });

  it('a trajectory suite without gatedAggregateScore fails suite.gated-aggregate-present', () => {
    expect(gated((d) => delete summaryOf(d).gatedAggregateScore)).toEqual([
      'suite.gated-aggregate-present',
    ]);
  });

  it('an ungated gatedAggregateScore fails suite.gated-aggregate-value', () => {
    expect(gated((d) => (summaryOf(d).gatedAggregateScore = 2.5 / 3))).toEqual([
      'suite.gated-aggregate-value',
    ]);
  });

  it('a gatedAggregateScore on a suite without trajectory or miss fails suite.gated-aggregate-absent', () => {
    expect(ungated((d) => (summaryOf(d).gatedAggregateScore = 1))).toEqual([
      'suite.gated-aggregate-absent',
    ]);
  });

  it('a suite verdict against the gate fails suite.passed and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).passed = false))).toEqual([
      'completed.consistent',
      'suite.passed',
    ]);
  });

  it('a wrong taskCount fails suite.counts and completed.consistent', () => {
    expect(gated((d) => (summaryOf(d).taskCount = 4))).toEqual([
      'completed.consistent',
      'suite.counts',
    ]);
  });

  it('an eval.completed that disagrees with the summary fails completed.consistent', () => {
    expect(
      gated(
        (d) => ((eventOf(d, 'eval.completed').payload as Record<string, unknown>).passed = false),
      ),
    ).toEqual(['completed.consistent']);
  });
});

describe('findings speak in numbers and carry their clause', () => {
  it('names the MUST and what the host reported for a wrong gatedScore', () => {
    const draft = gatedObservation();
    summaryTask(draft, 'wrong-path').gatedScore = 1;
    const [f] = mustFailures(judgeEvalRun(GATED, asObservation(draft)));
    expect(f).toEqual({
      rule: 'task.gated-score-value',
      ok: false,
      severity: 'MUST',
      ref: 'RFC 0246 §A',
      message:
        'task "wrong-path": gatedScore MUST be 0.5 (trajectory failed in 1 of 2 trials); host reported 1',
    });
  });

  it('reports SHOULD rules as warnings that mustFailures leaves out', () => {
    const draft = gatedObservation();
    scoredPayload(draft, 'wrong-path', 2).trajectoryMatched = true;
    const findings = judgeEvalRun(GATED, asObservation(draft));
    expect(findings.filter((f) => !f.ok).map((f) => f.severity)).toEqual(['SHOULD']);
    expect(mustFailures(findings)).toEqual([]);
  });
});
