// Literal observations for the wire rules (lib/witness/wire.ts): a bare run that records nothing
// on the wire, and builders for the envelopes and poll pages a test adds to it.

import type { ObservedEvent, ObservedPage, RunObservation } from '../../lib/types.ts';

export const RUN_ID = 'acme/0123456789abcdef';

/** A completed run with no wire record: no 201 answer, no pages, no events, no errors. */
export const BARE: RunObservation = {
  runId: RUN_ID,
  evalSuiteRef: 'conformance.evals.gate@1.0.0',
  agentId: 'core.conformance.agent',
  pages: [],
  events: [],
  runStatus: 'completed',
  summary: {},
};

/** An `agent.decided` event whose envelope is a valid RunEventDoc, changed by `members`. */
export function envelopeEvent(
  sequence: unknown,
  members: Record<string, unknown> = {},
): ObservedEvent {
  return {
    sequence,
    type: 'agent.decided',
    runId: RUN_ID,
    envelope: {
      json: 'object',
      members: {
        eventId: 'evt-0000000000000001',
        timestamp: '2026-10-16T12:00:00.000Z',
        schemaVersion: 1,
        ...members,
      },
      payload: 'object',
    },
  };
}

/** A terminal poll page of two events with the given top-level members (none when undefined). */
export const page = (
  members: Record<string, unknown> | undefined,
  afterSequence: number | null = null,
  rest: Partial<ObservedPage> = {},
): ObservedPage => ({
  afterSequence,
  lastSequence: 1,
  isTerminal: true,
  eventCount: 2,
  ...(members === undefined ? {} : { members }),
  ...rest,
});
