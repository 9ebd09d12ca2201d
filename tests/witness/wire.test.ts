// The wire rules on literal observations: each rule held, and each failing with the member at
// fault named. Wire findings are SHOULD, so a run whose only faults are on the wire still passes.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun, mustFailures } from '../../lib/eval-gate-witness.ts';
import { decide } from '../../lib/decide/decide.ts';
import type {
  Finding,
  ObservedErrorKind,
  ObservedEvent,
  ObservedVersion,
  RunObservation,
} from '../../lib/types.ts';
import { judgeWire } from '../../lib/witness/wire.ts';
import { asObservation, GATED, gatedObservation } from './build.ts';
import { BARE, envelopeEvent, page, RUN_ID } from './wire-build.ts';

function only(findings: readonly Finding[], rule: string): Finding {
  const mine = findings.filter((f) => f.rule === rule);
  expect(mine, `${rule} in ${JSON.stringify(findings)}`).toHaveLength(1);
  const [one] = mine;
  if (one === undefined) throw new Error('unreachable');
  expect(one.severity).toBe('SHOULD');
  return one;
}

const errorKind = (
  status: number,
  ...samples: ObservedErrorKind['samples']
): ObservedErrorKind => ({ call: 'summary', status, count: samples.length, samples });

const versions = (...kinds: ObservedVersion[]) => ({ versions: { kinds, omitted: 0 } });

describe('wire.create-answer', () => {
  it('holds for {runId, status, eventsUrl}', () => {
    const created = {
      runId: RUN_ID,
      status: 'pending',
      eventsUrl: `/runs/acme~2F0123456789abcdef/events`,
    };
    expect(only(judgeWire({ ...BARE, created }), 'wire.create-answer').ok).toBe(true);
  });

  it('fails naming eventsUrl when the 201 lacks it', () => {
    const f = only(
      judgeWire({ ...BARE, created: { runId: RUN_ID, status: 'running' } }),
      'wire.create-answer',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toMatch(/create-run-answer#.* required: .*eventsUrl/);
  });
});

describe('wire.poll-page', () => {
  it('holds for exactly {runId, events, lastSequence, status, isTerminal}', () => {
    const pages = [page({ runId: RUN_ID, status: 'completed' })];
    expect(only(judgeWire({ ...BARE, pages }), 'wire.poll-page').ok).toBe(true);
  });

  it('fails naming an extra member and the page it is on', () => {
    const pages = [
      page({ runId: RUN_ID, status: 'running' }),
      page({ runId: RUN_ID, status: 'completed', cursor: 7 }, 1),
    ];
    const f = only(judgeWire({ ...BARE, pages }), 'wire.poll-page');
    expect(f.ok).toBe(false);
    expect(f.message).toContain('1 of 2 pages is not (page 2: poll-response#');
    expect(f.message).toMatch(/additionalProperties.*cursor/);
  });

  it('fails naming status when a page lacks it', () => {
    const f = only(judgeWire({ ...BARE, pages: [page({ runId: RUN_ID })] }), 'wire.poll-page');
    expect(f.ok).toBe(false);
    expect(f.message).toMatch(/required.*status/);
  });
});

describe('wire.event-envelope', () => {
  it('holds for closed RunEventDoc envelopes starting at sequence 0, tenant runIds included', () => {
    const events = [envelopeEvent(0), envelopeEvent(1, { nodeId: 'n1', engineVersion: 3 })];
    const pages = [page({ runId: RUN_ID, status: 'completed' })];
    const f = only(judgeWire({ ...BARE, pages, events }), 'wire.event-envelope');
    expect(f.ok, f.message).toBe(true);
    const anon = events.map((e) => ({ ...e, runId: 'anon:acme/0123456789abcdef' }));
    expect(only(judgeWire({ ...BARE, pages, events: anon }), 'wire.event-envelope').ok).toBe(true);
  });

  it('fails naming eventId when it is shorter than 16 characters', () => {
    const events = [envelopeEvent(0), envelopeEvent(1, { eventId: 'e1' })];
    const f = only(judgeWire({ ...BARE, events }), 'wire.event-envelope');
    expect(f.ok).toBe(false);
    expect(f.message).toContain(
      '1 of 2 events does not validate; the event at sequence 1: run-event#/eventId "e1" is not a match for ^[A-Za-z0-9._~-]{16,128}$',
    );
  });

  it('fails naming schemaVersion when it is missing, and an extra root key', () => {
    const event = envelopeEvent(0);
    const members: Record<string, unknown> = { ...event.envelope?.members, tenantId: 'acme' };
    delete members.schemaVersion;
    const events = [
      { ...event, envelope: { json: 'object' as const, members, payload: 'object' as const } },
    ];
    const f = only(judgeWire({ ...BARE, events }), 'wire.event-envelope');
    expect(f.ok).toBe(false);
    // The rule's own text names every envelope member, so only the schema's words show the fault.
    expect(f.message).toContain("required: must have required property 'schemaVersion'");
    expect(f.message).toContain(
      'additionalProperties: must NOT have additional properties (tenantId)',
    );
  });

  it('fails naming payload when an event carries none', () => {
    const event = envelopeEvent(0);
    const events = [
      {
        ...event,
        envelope: { ...event.envelope, json: 'object' as const, payload: 'absent' as const },
      },
    ];
    const f = only(judgeWire({ ...BARE, events }), 'wire.event-envelope');
    expect(f.ok).toBe(false);
    expect(f.message).toMatch(/required.*payload/);
  });

  it('fails naming payload on an eval.* event without one, in the run and in its report alike', () => {
    // The driver keeps an eval.* payload as the observation's own `payload` member, undefined
    // when the event has none, and that member is gone once the report is written as JSON.
    const event: ObservedEvent = {
      ...envelopeEvent(0),
      type: 'eval.started',
      payload: undefined,
      envelope: { ...envelopeEvent(0).envelope, json: 'object', payload: 'absent' },
    };
    const live = only(judgeWire({ ...BARE, events: [event] }), 'wire.event-envelope');
    const reread = JSON.parse(JSON.stringify({ ...BARE, events: [event] })) as RunObservation;
    expect(live.ok).toBe(false);
    expect(live.message).toMatch(/required.*payload/);
    expect(only(judgeWire(reread), 'wire.event-envelope')).toEqual(live);
  });

  it('judges each envelope though many share everything but eventId, sequence and payload', () => {
    const events = [
      ...Array.from({ length: 5 }, (_, i) => envelopeEvent(i)),
      envelopeEvent(5, { eventId: 'short' }),
      { ...envelopeEvent(6), sequence: -1 },
      envelopeEvent(7, { timestamp: 'yesterday' }),
      envelopeEvent(8, { timestamp: 'yesterday' }),
    ];
    const f = only(judgeWire({ ...BARE, events }), 'wire.event-envelope');
    expect(f.message).toContain(
      '4 of 9 events do not validate; the event at sequence 5: run-event#/eventId "short" is not a match for',
    );
  });

  it('judges an own "__proto__" member of a parsed envelope as the extra member it is', () => {
    const members = JSON.parse(
      '{"eventId": "evt-0000000000000001", "timestamp": "2026-10-16T12:00:00.000Z", "schemaVersion": 1, "__proto__": {"runId": "x"}}',
    ) as Record<string, unknown>;
    const f = only(
      judgeWire({
        ...BARE,
        events: [{ ...envelopeEvent(0), envelope: { json: 'object', members, payload: 'object' } }],
      }),
      'wire.event-envelope',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toContain('additionalProperties');
    expect(f.message).toContain('__proto__');
  });

  it('judges an object envelope recorded without its members as missing every one of them', () => {
    const envelope = { json: 'object', payload: 'object' } as const;
    const event: ObservedEvent = { ...envelopeEvent(0), envelope };
    const f = only(judgeWire({ ...BARE, events: [event] }), 'wire.event-envelope');
    expect(f.ok).toBe(false);
    expect(f.message).toMatch(/required.*eventId/);
  });

  it('fails when a log read from its start begins at sequence 1', () => {
    const pages = [page({ runId: RUN_ID, status: 'completed' })];
    const f = only(
      judgeWire({ ...BARE, pages, events: [envelopeEvent(1)] }),
      'wire.event-envelope',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toContain('the log starts at sequence 1, not 0');
  });
});

describe('wire.error-body', () => {
  const conflict = {
    json: {
      error: 'run_state_conflict',
      message: 'still running',
      details: { runStatus: 'running' },
    },
  };

  it('holds for the v2 envelope at its registered status', () => {
    const errors = { kinds: [errorKind(409, conflict, conflict)], omitted: 0 };
    const f = only(judgeWire({ ...BARE, errors }), 'wire.error-body');
    expect(f.ok, f.message).toBe(true);
    expect(f.message).toContain('GET /runs/{runId}/eval-summary answered 409');
  });

  it('fails naming error when the body is the {error: {code, message}} dialect', () => {
    const dialect = { json: { error: { code: 'run_not_terminal', message: 'wait' } } };
    const f = only(
      judgeWire({ ...BARE, errors: { kinds: [errorKind(409, dialect)], omitted: 0 } }),
      'wire.error-body',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toMatch(/error-envelope#\/error /);
  });

  it('fails when a registered code comes with another status', () => {
    const notFound = { json: { error: 'not_found', message: 'no such run' } };
    const f = only(
      judgeWire({ ...BARE, errors: { kinds: [errorKind(409, notFound)], omitted: 0 } }),
      'wire.error-body',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toContain(
      'error "not_found" is registered at 404 in openwop/openwop spec/v2/errors.json, answered with 409',
    );
  });

  it('accepts capability_not_provided at 422 alone, and warns on 501 naming where it came from', () => {
    const refusal = { json: { error: 'capability_not_provided', message: 'no evals here' } };
    const at = (status: number) =>
      only(
        judgeWire({
          ...BARE,
          errors: { kinds: [{ ...errorKind(status, refusal), call: 'create' }], omitted: 0 },
        }),
        'wire.error-body',
      );
    expect(at(422).ok).toBe(true);
    expect(at(501).ok).toBe(false);
    expect(at(501).severity).toBe('SHOULD');
    expect(at(501).message).toContain(
      'error "capability_not_provided" is registered at 422 in openwop/openwop spec/v2/errors.json, answered with 501: 501 is RFC 0081\'s v1 status; the v2 registry keeps 422',
    );
    expect(at(400).ok).toBe(false);
    expect(at(400).message).toContain(
      'registered at 422 in openwop/openwop spec/v2/errors.json, answered with 400)',
    );
  });

  it('fails a body that is not JSON, and judges nothing of a body too large to keep', () => {
    const f = only(
      judgeWire({
        ...BARE,
        errors: { kinds: [errorKind(503, { notJson: 'not valid JSON' })], omitted: 0 },
      }),
      'wire.error-body',
    );
    expect(f.ok).toBe(false);
    expect(f.message).toContain('the body is not JSON (not valid JSON)');
    const big = judgeWire({
      ...BARE,
      errors: { kinds: [errorKind(503, { bytes: 9_000 })], omitted: 0 },
    });
    expect(big.filter((x) => x.rule === 'wire.error-body')).toEqual([]);
  });
});

describe('wire.version-header', () => {
  it('holds per call when every response carries 2.<minor>', () => {
    const found = judgeWire({
      ...BARE,
      ...versions(
        { call: 'discovery', value: '2.0', count: 1 },
        { call: 'events', value: '2.13', count: 4 },
      ),
    });
    expect(found.map((f) => [f.rule, f.ok])).toEqual([
      ['wire.version-header', true],
      ['wire.version-header', true],
    ]);
  });

  it('fails naming the call and what its responses carried', () => {
    const found = judgeWire({
      ...BARE,
      ...versions(
        { call: 'events', value: '2.0', count: 2 },
        { call: 'events', value: null, count: 3 },
        { call: 'create', value: '1.11', count: 1 },
      ),
    });
    const events = found.find((f) => f.message.startsWith('GET /runs/{runId}/events/poll'));
    expect(events).toMatchObject({ ok: false, severity: 'SHOULD' });
    expect(events?.message).toContain('3 of 5 carry none ×3');
    const create = found.find((f) => f.message.startsWith('POST /runs'));
    expect(create?.message).toContain('1 of 1 carry "1.11" ×1');
  });
});

describe('the wire rules and the legs', () => {
  it('judge nothing of an observation recorded without a wire record', () => {
    expect(judgeWire(BARE)).toEqual([]);
  });

  it('fail no leg on their own: a correct run spoken in a dialect still passes', () => {
    const draft = asObservation(gatedObservation());
    const dialect: RunObservation = {
      ...draft,
      created: { runId: draft.runId },
      errors: { kinds: [errorKind(409, { json: { error: { code: 'x' } } })], omitted: 0 },
      versions: { kinds: [{ call: 'events', value: null, count: 2 }], omitted: 0 },
    };
    const findings = judgeEvalRun(GATED, dialect);
    const wire = findings.filter((f) => f.rule.startsWith('wire.') && !f.ok);
    expect(wire.map((f) => f.rule)).toEqual([
      'wire.create-answer',
      'wire.error-body',
      'wire.version-header',
    ]);
    expect(mustFailures(findings)).toEqual([]);
    expect(decide(findings, dialect).disposition).toBe('executed-pass');
  });
});

describe('the MUST envelope rules on a correct v2 log', () => {
  it('hold for a log from sequence 0 whose run id carries a tenant with anon:', () => {
    const draft = gatedObservation();
    const runId = 'anon:acme/0123456789abcdef';
    draft.runId = runId;
    draft.events = draft.events.map((e, i) => ({ ...e, sequence: i, runId }));
    const split = draft.pages[0]?.eventCount ?? 0;
    draft.pages = [
      { afterSequence: null, lastSequence: split - 1, isTerminal: false, eventCount: split },
      {
        afterSequence: split - 1,
        lastSequence: draft.events.length - 1,
        isTerminal: true,
        eventCount: draft.events.length - split,
      },
    ];
    const findings = judgeEvalRun(GATED, asObservation(draft));
    for (const rule of [
      'events.envelope',
      'events.run-id',
      'events.sequence-ascending',
      'events.cursor',
    ]) {
      expect(
        findings.find((f) => f.rule === rule),
        rule,
      ).toMatchObject({ ok: true });
    }
    expect(mustFailures(findings)).toEqual([]);
  });
});
