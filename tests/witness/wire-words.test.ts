// The wire rules' verdicts and words, pinned whole: which findings an observation yields, which
// fail, and the counts, members and calls each message names. wire.test.ts shows each rule failing
// on its defect; this file pins what the report then says, and the inputs the rules must not judge.

import { describe, expect, it } from 'vitest';
import type {
  ObservedBody,
  ObservedErrorKind,
  ObservedEvent,
  RunObservation,
} from '../../lib/types.ts';
import { judgeWire } from '../../lib/witness/wire.ts';
import { BARE, envelopeEvent, page, RUN_ID } from './wire-build.ts';

/** Every finding as [rule, ok, message], in the order the witness reports them. */
const said = (observation: Partial<RunObservation>): [string, boolean, string][] =>
  judgeWire({ ...BARE, ...observation }).map((f) => [f.rule, f.ok, f.message]);

const GOOD_PAGE = { runId: RUN_ID, status: 'completed' };

const kind = (status: number, count: number, ...samples: ObservedBody[]): ObservedErrorKind => ({
  call: 'status',
  status,
  count,
  samples,
});

describe('wire.create-answer words', () => {
  it('says what the 201 answer holds', () => {
    const created = { runId: RUN_ID, status: 'pending', eventsUrl: '/runs/x/events' };
    expect(said({ created })).toEqual([
      [
        'wire.create-answer',
        true,
        'the 201 answer of POST /runs is {runId, status, eventsUrl, statusUrl?}',
      ],
    ]);
  });

  it('is judged when the answer is recorded as absent, and fails', () => {
    const [f] = said({ created: undefined });
    expect(f?.slice(0, 2)).toEqual(['wire.create-answer', false]);
    expect(f?.[2]).toMatch(
      /^the 201 answer of POST \/runs SHOULD be \{runId, status, eventsUrl, statusUrl\?\}; create-run-answer# type: /,
    );
  });
});

describe('wire.poll-page words', () => {
  it('counts the pages it judged, leaving out pages recorded without members', () => {
    const pages = [page(GOOD_PAGE), page(undefined, 1), page(GOOD_PAGE, 1)];
    expect(said({ pages })).toEqual([
      [
        'wire.poll-page',
        true,
        'all 2 pages are exactly {runId, events, lastSequence, status, isTerminal}',
      ],
    ]);
    expect(said({ pages: [page(undefined)] })).toEqual([]);
  });

  it('says "1 page" for one', () => {
    expect(said({ pages: [page(GOOD_PAGE)] })[0]?.[2]).toBe(
      'the 1 page is exactly {runId, events, lastSequence, status, isTerminal}',
    );
  });

  it('counts every failing page, names the first by its place in the log', () => {
    const pages = [
      page(GOOD_PAGE),
      page(undefined, 0),
      page({ ...GOOD_PAGE, cursor: 1 }, 1),
      page({ runId: RUN_ID }, 1),
    ];
    const [f] = said({ pages });
    expect(f?.slice(0, 2)).toEqual(['wire.poll-page', false]);
    expect(f?.[2]).toBe(
      'every poll page SHOULD be exactly {runId, events, lastSequence, status, isTerminal}; ' +
        '2 of 3 pages are not (page 3: poll-response# additionalProperties: must NOT have additional properties (cursor))',
    );
  });

  it('judges lastSequence and isTerminal as the page sent them', () => {
    const withString = [page(GOOD_PAGE, null, { lastSequence: 'one' })];
    expect(said({ pages: withString })[0]?.[2]).toContain('poll-response#/lastSequence type');
    const withoutFlag = [page(GOOD_PAGE, null, { isTerminal: undefined })];
    expect(said({ pages: withoutFlag })[0]?.[2]).toContain(
      "page 1: poll-response# required: must have required property 'isTerminal'",
    );
  });
});

describe('wire.event-envelope words', () => {
  const fromStart = [page(GOOD_PAGE)];

  it('says the log starts at 0 only when it was read from its start', () => {
    expect(said({ pages: fromStart, events: [envelopeEvent(0), envelopeEvent(1)] })).toEqual([
      [
        'wire.poll-page',
        true,
        'the 1 page is exactly {runId, events, lastSequence, status, isTerminal}',
      ],
      [
        'wire.event-envelope',
        true,
        'all 2 events are closed RunEventDoc envelopes, the log starting at sequence 0',
      ],
    ]);
    expect(said({ pages: [page(GOOD_PAGE, 4)], events: [envelopeEvent(5)] })).toEqual([
      [
        'wire.poll-page',
        true,
        'the 1 page is exactly {runId, events, lastSequence, status, isTerminal}',
      ],
      ['wire.event-envelope', true, 'the 1 event is a closed RunEventDoc envelope'],
    ]);
  });

  it('does not ask where a log starts when it holds no pages', () => {
    expect(said({ events: [envelopeEvent(3)] })).toEqual([
      ['wire.event-envelope', true, 'the 1 event is a closed RunEventDoc envelope'],
    ]);
  });

  it('lists a failing envelope and a wrong start together', () => {
    const [, f] = said({
      pages: fromStart,
      events: [envelopeEvent(2, { eventId: 'e1' }), envelopeEvent(3)],
    });
    expect(f?.slice(0, 2)).toEqual(['wire.event-envelope', false]);
    expect(f?.[2]).toMatch(
      /^every event SHOULD be a closed RunEventDoc \{eventId, runId, type, payload, timestamp, sequence, schemaVersion, \.\.\.\} with sequence from 0; 1 of 2 events does not validate; the event at sequence 2: run-event#\/eventId "e1" is not a match for \^\[A-Za-z0-9\._~-\]\{16,128\}\$; the log starts at sequence 2, not 0$/,
    );
  });

  it('names only the first failing envelope, and a wrong start alone without a count', () => {
    const [, f] = said({
      pages: fromStart,
      events: [
        envelopeEvent(0),
        envelopeEvent(1, { eventId: 'e1' }),
        envelopeEvent(2, { timestamp: 'soon' }),
      ],
    });
    expect(f?.[2]).toMatch(
      /; 2 of 3 events do not validate; the event at sequence 1: run-event#\/eventId "e1" is not a match for [^;]*$/,
    );
    expect(said({ pages: fromStart, events: [envelopeEvent(2), envelopeEvent(3)] })[1]).toEqual([
      'wire.event-envelope',
      false,
      'every event SHOULD be a closed RunEventDoc {eventId, runId, type, payload, timestamp, sequence, schemaVersion, ...} with sequence from 0; the log starts at sequence 2, not 0',
    ]);
  });

  it('joins the schema errors of one envelope with semicolons', () => {
    const [f] = said({ events: [envelopeEvent(0, { eventId: 'e1', tenantId: 'acme' })] });
    expect(f?.[2]).toMatch(/the event at sequence 0: run-event#\S* \w+: [^;]*; run-event#/);
  });

  it('names a start that is no number', () => {
    const [, f] = said({ pages: fromStart, events: [envelopeEvent('0')] });
    expect(f?.[2]).toContain('the log starts at sequence the string "0", not 0');
  });

  it('fails a sequence that is not an integer, though the rest of the envelope is shared', () => {
    const [f] = said({ events: [envelopeEvent(4), envelopeEvent(4.5)] });
    expect(f?.slice(0, 2)).toEqual(['wire.event-envelope', false]);
    expect(f?.[2]).toContain(
      '1 of 2 events does not validate; the event at log position 2 (sequence 4.5): run-event#/sequence type: must be integer, host sent 4.5',
    );
  });

  it('fails an eventId that is no string, naming it', () => {
    const [f] = said({ events: [envelopeEvent(0, { eventId: 1234567890123456 })] });
    expect(f?.[2]).toContain(
      '1 of 1 event does not validate; the event at sequence 0: run-event#/eventId type: must be string, host sent 1234567890120000',
    );
  });

  it('judges the payload by its JSON type: present, absent, or not an object', () => {
    const withPayload = (payload: unknown): ObservedEvent => ({ ...envelopeEvent(0), payload });
    expect(said({ events: [withPayload({ score: 1 })] })[0]?.[1]).toBe(true);
    expect(said({ events: [withPayload([1, 2])] })[0]?.[1]).toBe(true);
    expect(said({ events: [withPayload('text')] })[0]?.[1]).toBe(true);
    expect(said({ events: [withPayload(null)] })[0]?.[1]).toBe(true);
    const recorded = (
      payload: 'array' | 'string' | 'number' | 'boolean' | 'null',
    ): ObservedEvent => {
      const e = envelopeEvent(0);
      return { ...e, envelope: { json: 'object', members: e.envelope?.members ?? {}, payload } };
    };
    for (const type of ['array', 'string', 'number', 'boolean', 'null'] as const) {
      expect(said({ events: [recorded(type)] })[0]?.[1], type).toBe(true);
    }
  });

  it('fails an event that is not a JSON object, naming its type', () => {
    for (const json of ['array', 'string', 'number', 'boolean', 'null'] as const) {
      const e: ObservedEvent = { ...envelopeEvent(0), envelope: { json, members: {} } };
      const [f] = said({ events: [e] });
      expect(f?.slice(0, 2), json).toEqual(['wire.event-envelope', false]);
      expect(f?.[2], json).toContain(
        '1 of 1 event does not validate; the event at sequence 0: run-event# type: must be object, host sent ',
      );
    }
  });

  it('judges nothing of events recorded without an envelope, or with one of an unknown kind', () => {
    const bare: ObservedEvent = { sequence: 0, type: 'agent.decided', runId: RUN_ID };
    const odd = {
      ...envelopeEvent(0),
      envelope: { json: 'date', members: {} },
    } as unknown as ObservedEvent;
    const noKind = { ...envelopeEvent(0), envelope: { members: {} } } as unknown as ObservedEvent;
    const nullKind = {
      ...envelopeEvent(0),
      envelope: { json: null, members: {} },
    } as unknown as ObservedEvent;
    expect(said({ pages: fromStart, events: [bare, odd, noKind, nullKind] })).toEqual([
      [
        'wire.poll-page',
        true,
        'the 1 page is exactly {runId, events, lastSequence, status, isTerminal}',
      ],
    ]);
  });

  it('fills in sequence, type and runId from the event, leaving out what it lacks', () => {
    const lacking: ObservedEvent = { ...envelopeEvent(0), type: undefined, runId: undefined };
    const [f] = said({ events: [lacking] });
    expect(f?.[2]).toContain(
      '1 of 1 event does not validate; the event at sequence 0: run-event# required: must have required properties (runId, type)',
    );
    const wrongType: ObservedEvent = { ...envelopeEvent(0), type: 7 };
    expect(said({ events: [wrongType] })[0]?.[2]).toContain(
      'run-event#/type 7 is not a registered v2 type, nor a vendor type',
    );
    const wrongRun: ObservedEvent = { ...envelopeEvent(0), runId: 'no-tenant' };
    expect(said({ events: [wrongRun] })[0]?.[2]).toContain('run-event#/runId');
  });
});

describe('wire.error-body words', () => {
  const good: ObservedBody = { json: { error: 'not_found', message: 'no such run' } };

  it('names the call, the status, how often it came and how many bodies were judged', () => {
    expect(
      said({ errors: { kinds: [kind(404, 5, good, { bytes: 9_000 }, good)], omitted: 0 } }),
    ).toEqual([
      [
        'wire.error-body',
        true,
        'GET /runs/{runId} answered 404 (5 times, 2 judged): each body is the v2 error envelope with its registered status',
      ],
    ]);
  });

  it('counts the failing bodies and quotes the first', () => {
    const bad1: ObservedBody = { notJson: 'truncated' };
    const bad2: ObservedBody = { json: { error: 'not_found', message: 'gone' } };
    const [f] = said({ errors: { kinds: [kind(410, 1, good, bad1, bad2)], omitted: 0 } });
    expect(f).toEqual([
      'wire.error-body',
      false,
      'GET /runs/{runId} answered 410 (1 time, 3 judged): the body SHOULD be the v2 error envelope ' +
        '{error: "<registered code>", message, details?} at the code\'s registered status; 3 of 3 are not ' +
        '(error "not_found" is registered at 404 in openwop/openwop spec/v2/errors.json, answered with 410)',
    ]);
    const [g] = said({ errors: { kinds: [kind(410, 2, bad1, good)], omitted: 0 } });
    expect(g?.[2]).toContain('; 2 of 2 are not (the body is not JSON (truncated))');
    const [h] = said({ errors: { kinds: [kind(404, 2, good, bad1)], omitted: 0 } });
    expect(h?.[2]).toMatch(/; 1 of 2 is not \(the body is not JSON \(truncated\)\)$/);
  });

  it('accepts at any status a vendor code, and a registry code the suite knows no status for', () => {
    const vendor: ObservedBody = { json: { error: 'acme.over_quota', message: 'over quota' } };
    const unmapped: ObservedBody = {
      json: { error: 'idempotency_key_invalid', message: 'reused' },
    };
    expect(said({ errors: { kinds: [kind(503, 2, vendor, unmapped)], omitted: 0 } })).toEqual([
      [
        'wire.error-body',
        true,
        'GET /runs/{runId} answered 503 (2 times, 2 judged): each body is the v2 error envelope with its registered status',
      ],
    ]);
  });

  it('holds each registered code to its registered status alone', () => {
    const registered: [string, number[]][] = [
      ['validation_error', [400]],
      ['unauthenticated', [401]],
      ['forbidden', [403]],
      ['not_found', [404]],
      ['protocol_version_unsupported', [406]],
      ['run_state_conflict', [409]],
      ['run_terminal', [409]],
      ['capability_not_provided', [422]],
      ['rate_limited', [429]],
    ];
    for (const [code, statuses] of registered) {
      const body: ObservedBody = { json: { error: code, message: 'refused' } };
      for (const status of statuses) {
        expect(said({ errors: { kinds: [kind(status, 1, body)], omitted: 0 } })[0]?.[1], code).toBe(
          true,
        );
      }
      expect(said({ errors: { kinds: [kind(418, 1, body)], omitted: 0 } })[0]?.[2], code).toContain(
        `(error "${code}" is registered at ${statuses.join(' or ')} in openwop/openwop spec/v2/errors.json, answered with 418)`,
      );
    }
  });

  it('judges each kind on its own, and a call the suite does not know by its name', () => {
    const stray = { ...kind(500, 1, good), call: 'metrics' } as unknown as ObservedErrorKind;
    expect(
      said({ errors: { kinds: [kind(404, 1, good), stray], omitted: 0 } }).map((f) =>
        f.slice(0, 2),
      ),
    ).toEqual([
      ['wire.error-body', true],
      ['wire.error-body', false],
    ]);
    expect(said({ errors: { kinds: [stray], omitted: 0 } })[0]?.[2]).toMatch(
      /^metrics answered 500 \(1 time, 1 judged\)/,
    );
  });
});

describe('wire.version-header words', () => {
  it('totals the responses of a call across its values, and says how many went unrecorded', () => {
    const versions = {
      kinds: [
        { call: 'events' as const, value: '2.0', count: 2 },
        { call: 'events' as const, value: '2.1', count: 3 },
      ],
      omitted: 4,
    };
    expect(said({ versions })).toEqual([
      [
        'wire.version-header',
        true,
        'GET /runs/{runId}/events/poll: all 5 responses carry OpenWOP-Version 2.<minor>; 4 further responses not recorded',
      ],
    ]);
    expect(said({ versions: { ...versions, omitted: 1 } })[0]?.[2]).toMatch(
      /; 1 further response not recorded$/,
    );
  });

  it('counts only the bad values, each with its count, and says 1 response', () => {
    const versions = {
      kinds: [
        { call: 'summary' as const, value: '2.0', count: 1 },
        { call: 'summary' as const, value: '3.0', count: 2 },
        { call: 'summary' as const, value: null, count: 1 },
        { call: 'status' as const, value: '2.0', count: 1 },
        { call: 'discovery' as const, value: '2.0', count: 1 },
      ],
      omitted: 0,
    };
    expect(said({ versions })).toEqual([
      [
        'wire.version-header',
        false,
        'GET /runs/{runId}/eval-summary: every response SHOULD carry OpenWOP-Version: 2.<minor>; 3 of 4 carry "3.0" ×2, none ×1',
      ],
      [
        'wire.version-header',
        true,
        'GET /runs/{runId}: the 1 response carries OpenWOP-Version 2.<minor>',
      ],
      [
        'wire.version-header',
        true,
        'GET /.well-known/openwop: the 1 response carries OpenWOP-Version 2.<minor>',
      ],
    ]);
  });

  it('accepts 2.<minor> only: no leading zero, no other major, nothing around it', () => {
    const header = (value: string) =>
      said({ versions: { kinds: [{ call: 'discovery', value, count: 1 }], omitted: 0 } })[0]?.[1];
    expect(['2.0', '2.10', '2.9'].map(header)).toEqual([true, true, true]);
    expect(['2.01', '2', '20.0', ' 2.0', '2.0 ', '2.0.1', '12.0'].map(header)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
