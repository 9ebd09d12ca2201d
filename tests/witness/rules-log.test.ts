// One defect at a time in the run or its log: each test changes one thing in a correct
// observation and names every rule that must then fail, no more and no fewer.

import { describe, expect, it } from 'vitest';
import {
  GATED,
  asObservation,
  eventOf,
  gatedObservation,
  scoredPayload,
  summaryOf,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';
import { judgeEvalRun, mustFailures, RULES } from '../../lib/eval-gate-witness.ts';
import { gated } from './mutate.ts';

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

describe('the rule catalogue', () => {
  it('has unique ids, and only rules resting on RFC 0244 assumptions are SHOULD', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const should = RULES.filter((r) => r.severity === 'SHOULD');
    expect(should.map((r) => r.id).sort()).toEqual([
      'events.started-trials',
      'task.trial-stats',
      'trial.flags',
    ]);
    for (const r of should) expect(r.ref).toContain('[0244-assumed]');
  });
});
