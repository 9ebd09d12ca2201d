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
import { HOST_CHECK_RULES } from '../../lib/witness/host-checks.ts';
import { failing, gated, ungated } from './mutate.ts';

const payloadOf = (d: Draft, type: string): Record<string, unknown> =>
  eventOf(d, type).payload as Record<string, unknown>;

describe('a correct host', () => {
  it('passes every finding on the gated run and checks every rule that applies to it', () => {
    const findings = judgeEvalRun(GATED, asObservation(gatedObservation()));
    expect(findings.filter((f) => !f.ok)).toEqual([]);
    const checked = new Set(findings.map((f) => f.rule));
    // The gated fixture states no cost or latency, so no figure is compared (limits.test.ts).
    const notApplicable = ['suite.gated-aggregate-absent', 'limits.figures'];
    // The draft carries no wire record, so the wire rules (tests/witness/wire.test.ts) judge none
    // but the task order, which reads the summary; the host checks are judged once per run, on
    // no leg (tests/witness/host-checks.test.ts).
    const fromRecord = (id: string): boolean =>
      id.startsWith('wire.') && id !== 'wire.summary-task-order';
    const applicable = RULES.map((r) => r.id).filter(
      (id) => !notApplicable.includes(id) && !fromRecord(id) && !HOST_CHECK_RULES.has(id),
    );
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

  it.each([-1, 0.5])('a first event with sequence %d fails events.envelope', (sequence) => {
    // Sequences still ascend (the next is 2) and page 1 has no afterSequence to be below.
    expect(gated((d) => (eventOf(d, 'eval.started').sequence = sequence))).toEqual([
      'events.envelope',
    ]);
  });

  it('an event without a string type fails events.envelope', () => {
    expect(gated((d) => (eventOf(d, 'agent.invocation-completed', 0).type = 7))).toEqual([
      'events.envelope',
    ]);
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

  it('a page saying isTerminal false after an earlier terminal page fails events.cursor', () => {
    const draft = gatedObservation();
    // Three pages whose last is terminal, so only the earlier true flag can fail the cursor.
    draft.pages = [
      { afterSequence: null, lastSequence: 3, isTerminal: true, eventCount: 3 },
      { afterSequence: 3, lastSequence: 9, isTerminal: false, eventCount: 6 },
      { afterSequence: 9, lastSequence: 15, isTerminal: true, eventCount: 6 },
    ];
    expect(draft.events).toHaveLength(15);
    expect(failing(GATED, draft)).toEqual(['events.cursor']);
    const cursor = judgeEvalRun(GATED, asObservation(draft)).find(
      (f) => f.rule === 'events.cursor',
    );
    expect(cursor?.message).toContain('page 2 says isTerminal false after page 1 said true');
  });

  it('a page holding an event at or before its afterSequence fails events.cursor', () => {
    expect(gated((d) => ((d.pages[1] as Draft['pages'][number]).afterSequence = 4))).toEqual([
      'events.cursor',
    ]);
  });

  it('a lastSequence that goes backwards fails events.cursor, and events.last-sequence as well', () => {
    expect(gated((d) => ((d.pages[1] as Draft['pages'][number]).lastSequence = 2))).toEqual([
      'events.cursor',
      'events.last-sequence',
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

  it('run.completed made a second eval.completed fails events.completed-once and events.run-completed', () => {
    expect(
      gated((d) => {
        const last = eventOf(d, 'run.completed');
        last.type = 'eval.completed';
        last.payload = structuredClone(eventOf(d, 'eval.completed').payload);
      }),
    ).toEqual(['events.completed-once', 'events.run-completed']);
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

  it.each([
    ['suiteId', 'witness.evals.other'],
    ['suiteVersion', '2.2.0'],
    ['taskCount', 4],
  ])('eval.started with the wrong %s fails events.started-consistent', (key, value) => {
    expect(gated((d) => (payloadOf(d, 'eval.started')[key] = value))).toEqual([
      'events.started-consistent',
    ]);
  });

  it('a trial number on a suite without a trials block fails events.scored-count', () => {
    expect(ungated((d) => (scoredPayload(d, 'alpha').trial = 2))).toEqual(['events.scored-count']);
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
});

describe('content-free: a deny-listed key anywhere in the published documents', () => {
  const DENY_LIST = [
    'taskOutput',
    'output',
    'rubric',
    'completion',
    'prompt',
    'body',
    'secret',
    'credentials',
    'token',
    'apiKey',
  ];

  // The summary is closed with no vendor hatch, so a key smuggled into it breaks its schema too;
  // content-free must still name the leak, whatever the schema says about the same member.
  const SUMMARY_LEAK = ['content-free', 'summary.schema'];

  it.each(DENY_LIST)('%s on a summary task fails content-free as well as the schema', (key) => {
    expect(
      gated((d) => ((summaryOf(d).tasks as Record<string, unknown>[])[0]![key] = 'v')),
    ).toEqual(SUMMARY_LEAK);
  });

  it('a prompt nested under an unknown member of the summary fails content-free', () => {
    expect(gated((d) => (summaryOf(d)['debug'] = { echo: { prompt: 'refund O-9' } }))).toEqual(
      SUMMARY_LEAK,
    );
  });

  it('a completion under a vendor key of an eval.scored fails content-free', () => {
    expect(
      gated((d) => (scoredPayload(d, 'plain', 1)['x-trace'] = [{ completion: 'O-3 shipped' }])),
    ).toEqual(['content-free']);
  });

  // The eval.* payloads admit vendor members, so there a leak fails content-free alone.
  it.each(['eval.started', 'eval.completed'])(
    'a prompt under a vendor key of the %s payload fails content-free',
    (type) => {
      expect(gated((d) => (payloadOf(d, type)['x-debug'] = { prompt: 'p' }))).toEqual([
        'content-free',
      ]);
    },
  );

  it.each([
    'x-taskOutput',
    'X-Prompt',
    'openwop-secret',
    'vendor.completion',
    'vendor.acme.completion',
    'Credentials',
    'APIKEY',
  ])('%s counts as a deny-listed key, whatever its case or vendor prefix', (key) => {
    expect(gated((d) => (payloadOf(d, 'eval.completed')['x-debug'] = { [key]: 'v' }))).toEqual([
      'content-free',
    ]);
    expect(gated((d) => (payloadOf(d, 'eval.started')[key] = 'v'))).toEqual(
      key.startsWith('x-') || key.startsWith('openwop-') || key.startsWith('vendor.')
        ? ['content-free']
        : ['content-free', 'events.payload-schema'],
    );
  });

  it.each([
    'outputFormat',
    'tokenCount',
    'bodyHash',
    'promptId',
    'x-tokenCount',
    'vendor.acme.outputs',
    'vendor.prompt.id',
  ])('%s is not a deny-listed key: only the whole name counts', (key) => {
    expect(gated((d) => (payloadOf(d, 'eval.completed')['x-debug'] = { [key]: 'v' }))).toEqual([]);
    expect(gated((d) => (summaryOf(d)['debug'] = { [key]: 'v' }))).toEqual(['summary.schema']);
  });
});

describe('the rule catalogue', () => {
  it('has unique ids, and only rules resting on RFC 0244 assumptions are SHOULD', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const should = RULES.filter((r) => r.severity === 'SHOULD');
    // Every wire rule, the host checks' among them, is SHOULD; beyond them only these three.
    expect(
      RULES.filter((r) => r.id.startsWith('wire.')).every((r) => r.severity === 'SHOULD'),
    ).toBe(true);
    expect(
      should
        .map((r) => r.id)
        .filter((id) => !id.startsWith('wire.'))
        .sort(),
    ).toEqual(['events.started-trials', 'task.trial-stats', 'trial.flags']);
    // The wire rules are SHOULD by contract §1 and §6, not by an assumption.
    for (const r of should.filter((s) => !s.id.startsWith('wire.')))
      expect(r.ref).toContain('[0244-assumed]');
  });
});
