// Upstream corpus rows for the wire: poll page and 201 answer (openapi), the error envelope
// (107 codes, per-code details), discovery and the identifier grammars (facts §4, §5, §7, §11
// items 15-25).

import { ANON_RUN_ID, EVENT_ID, fullDiscovery, fullEvent, RUN_ID } from '../examples.ts';
import type { Accepted, Doc, Rejected } from './types.ts';

const poll = (): Doc => ({
  runId: RUN_ID,
  events: [fullEvent()],
  lastSequence: 0,
  status: 'running',
  isTerminal: false,
});
const answer = (): Doc => ({
  runId: RUN_ID,
  status: 'pending',
  eventsUrl: '/runs/tenant-a~2Frun-0123456789abcdef/events',
});
const error = (): Doc => ({ error: 'validation_error', message: 'mode golden is not advertised' });
const agentsOf = (agents: Doc): Doc => ({
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents,
});
const record = (extra: Doc = {}): Doc => ({
  status: 'stable',
  since: '2.0',
  witness: 'witnessable-gated',
  ...extra,
});

export const WIRE_ACCEPTED: readonly Accepted[] = [
  // Poll and 201
  {
    schema: 'poll-response',
    what: 'an empty log, lastSequence −1',
    instance: () => ({ ...poll(), events: [], lastSequence: -1, status: 'pending' }),
  },
  {
    schema: 'poll-response',
    what: 'a terminal page of one event with an anon: run',
    instance: () => ({ ...poll(), runId: ANON_RUN_ID, status: 'completed', isTerminal: true }),
  },
  {
    schema: 'create-run-answer',
    what: 'with statusUrl and a member beyond the published ones (the answer is open)',
    instance: () => ({ ...answer(), statusUrl: 'https://h.example/runs/x', location: 'x' }),
  },
  ...['pending', 'running', 'waiting-approval', 'waiting-input', 'waiting-external'].map(
    (status): Accepted => ({
      schema: 'create-run-answer',
      what: `status ${status}`,
      instance: () => ({ ...answer(), status }),
    }),
  ),
  // Error envelope
  { schema: 'error-envelope', what: 'a registered code with no details', instance: error },
  {
    schema: 'error-envelope',
    what: 'capability_not_provided with open details',
    instance: () => ({
      error: 'capability_not_provided',
      message: 'no eval runs here',
      details: { capability: 'agents.evalSuite', correlationId: 'c-1' },
    }),
  },
  {
    schema: 'error-envelope',
    what: 'run_state_conflict with details.runStatus',
    instance: () => ({
      error: 'run_state_conflict',
      message: 'still running',
      details: { runStatus: 'running' },
    }),
  },
  {
    schema: 'error-envelope',
    what: 'a dotted vendor code',
    instance: () => ({ error: 'acme.eval_gate_unmet', message: 'gate unmet' }),
  },
  {
    schema: 'error-envelope',
    what: 'unsupported_stream_mode listing served modes',
    instance: () => ({
      error: 'unsupported_stream_mode',
      message: 'no debug',
      details: { supported: ['updates'] },
    }),
  },
  // Discovery
  {
    schema: 'discovery',
    what: 'the contract §2 members plus a family the suite does not read',
    instance: fullDiscovery,
  },
  {
    schema: 'discovery',
    what: 'an empty evalSuite facet (presence is the claim)',
    instance: () => agentsOf(record({ evalSuite: {} })),
  },
  {
    schema: 'discovery',
    what: 'an experimental agents record with an until',
    instance: () => agentsOf(record({ status: 'deprecated', until: '2.5', evalSuite: {} })),
  },
  {
    schema: 'discovery',
    what: 'a v1 protocolVersion beside the v2 list',
    instance: () => ({ ...agentsOf(record()), protocolVersion: '1.11' }),
  },
  // Identifiers
  { schema: 'run-id', what: 'an anon: tenant', instance: () => ANON_RUN_ID },
  {
    schema: 'run-id',
    what: 'the shortest opaque part (16)',
    instance: () => `t/${'a'.repeat(16)}`,
  },
  {
    schema: 'run-id',
    what: 'the longest tenant and opaque parts (128 each)',
    instance: () => `${'t'.repeat(128)}/${'o'.repeat(128)}`,
  },
  { schema: 'event-id', what: '16 unreserved characters', instance: () => 'a.b_c~d-e0123456' },
  { schema: 'event-id', what: 'the suite example event id', instance: () => EVENT_ID },
  {
    schema: 'agent-id',
    what: 'colons, dots and tildes',
    instance: () => 'core:conformance.eval~agent',
  },
  { schema: 'node-id', what: 'one character', instance: () => 'n' },
];

export const WIRE_REJECTED: readonly Rejected[] = [
  // Poll and 201
  {
    schema: 'poll-response',
    what: 'a page with an extra key',
    instance: poll,
    set: '/nextCursor',
    to: 'x',
    keyword: 'additionalProperties',
    at: '',
    member: 'nextCursor',
  },
  {
    schema: 'poll-response',
    what: 'a page without isTerminal',
    instance: poll,
    set: '/isTerminal',
    keyword: 'required',
    at: '',
    member: 'isTerminal',
  },
  {
    schema: 'poll-response',
    what: 'an event with a v1-style short id',
    instance: poll,
    set: '/events/0/eventId',
    to: 'e1',
    keyword: 'pattern',
  },
  {
    schema: 'create-run-answer',
    what: 'an answer without eventsUrl',
    instance: answer,
    set: '/eventsUrl',
    keyword: 'required',
    at: '',
    member: 'eventsUrl',
  },
  {
    schema: 'create-run-answer',
    what: 'a run id without a tenant',
    instance: answer,
    set: '/runId',
    to: 'run_123',
    keyword: 'pattern',
  },
  // Error envelope
  {
    schema: 'error-envelope',
    what: 'an error that is an object',
    instance: error,
    set: '/error',
    to: { code: 'not_found', message: 'x' },
    keyword: 'type',
    at: '/error',
  },
  {
    schema: 'error-envelope',
    what: 'an unregistered bare code',
    instance: error,
    set: '/error',
    to: 'eval_gate_unmet',
    keyword: 'oneOf',
  },
  {
    schema: 'error-envelope',
    what: 'host_capability_missing',
    instance: error,
    set: '/error',
    to: 'host_capability_missing',
    keyword: 'oneOf',
  },
  {
    schema: 'error-envelope',
    what: 'a vendor code under openwop.',
    instance: error,
    set: '/error',
    to: 'openwop.custom',
    keyword: 'oneOf',
  },
  {
    schema: 'error-envelope',
    what: 'a code at the top level beside error',
    instance: error,
    set: '/code',
    to: 400,
    keyword: 'additionalProperties',
    at: '',
    member: 'code',
  },
  {
    schema: 'error-envelope',
    what: 'no message',
    instance: error,
    set: '/message',
    keyword: 'required',
    at: '',
    member: 'message',
  },
  {
    schema: 'error-envelope',
    what: 'run_state_conflict details without runStatus',
    instance: () => ({ error: 'run_state_conflict', message: 'running', details: {} }),
    keyword: 'required',
    at: '/details',
    member: 'runStatus',
  },
  {
    schema: 'error-envelope',
    what: 'payload_unprojectable details with an extra key',
    instance: () => ({
      error: 'payload_unprojectable',
      message: 'm',
      details: { type: 'a.b', keys: ['k'], extra: 1 },
    }),
    keyword: 'additionalProperties',
    at: '/details',
    member: 'extra',
  },
  // Discovery
  {
    schema: 'discovery',
    what: 'supported: true inside agents.evalSuite',
    instance: fullDiscovery,
    set: '/agents/evalSuite/supported',
    to: true,
    keyword: 'additionalProperties',
    at: '/agents/evalSuite',
    member: 'supported',
  },
  {
    schema: 'discovery',
    what: 'no preferredVersion',
    instance: fullDiscovery,
    set: '/preferredVersion',
    keyword: 'required',
    at: '',
    member: 'preferredVersion',
  },
  {
    schema: 'discovery',
    what: 'an empty protocolVersions',
    instance: fullDiscovery,
    set: '/protocolVersions',
    to: [],
    keyword: 'minItems',
  },
  {
    schema: 'discovery',
    what: 'an agents record without witness',
    instance: fullDiscovery,
    set: '/agents/witness',
    keyword: 'required',
    at: '/agents',
    member: 'witness',
  },
  {
    schema: 'discovery',
    what: 'a stable agents record with an until',
    instance: fullDiscovery,
    set: '/agents/until',
    to: '3.0',
    keyword: 'false schema',
    at: '/agents/until',
  },
  {
    schema: 'discovery',
    what: 'an experimental agents record without until',
    instance: fullDiscovery,
    set: '/agents/status',
    to: 'experimental',
    keyword: 'required',
    at: '/agents',
    member: 'until',
  },
  {
    schema: 'discovery',
    what: 'an unknown agents facet',
    instance: fullDiscovery,
    set: '/agents/supported',
    to: true,
    keyword: 'additionalProperties',
    at: '/agents',
    member: 'supported',
  },
  {
    schema: 'discovery',
    what: 'maxTasksPerSuite 0',
    instance: fullDiscovery,
    set: '/agents/evalSuite/maxTasksPerSuite',
    to: 0,
    keyword: 'minimum',
  },
  {
    schema: 'discovery',
    what: 'an unknown evalSuite mode',
    instance: fullDiscovery,
    set: '/agents/evalSuite/modes/0',
    to: 'smoke',
    keyword: 'enum',
  },
  {
    schema: 'discovery',
    what: 'a fixture listed twice',
    instance: fullDiscovery,
    set: '/fixtures/1',
    to: 'conformance-eval-trajectory-gate',
    keyword: 'uniqueItems',
    at: '/fixtures',
  },
  {
    schema: 'discovery',
    what: 'a signing key of another algorithm',
    instance: fullDiscovery,
    set: '/signingKeys/0/alg',
    to: 'rsa',
    keyword: 'const',
  },
  {
    schema: 'discovery',
    what: 'an implementation with an unknown member',
    instance: fullDiscovery,
    set: '/implementation/build',
    to: '7',
    keyword: 'additionalProperties',
    at: '/implementation',
    member: 'build',
  },
  // Identifiers
  {
    schema: 'run-id',
    what: 'run_123, with no tenant',
    instance: () => 'run_123',
    keyword: 'pattern',
    at: '',
  },
  {
    schema: 'run-id',
    what: 'an opaque part of 15 characters',
    instance: () => `t/${'a'.repeat(15)}`,
    keyword: 'pattern',
    at: '',
  },
  {
    schema: 'run-id',
    what: 'an anon: prefix on the opaque part',
    instance: () => `t/anon:${'a'.repeat(16)}`,
    keyword: 'pattern',
    at: '',
  },
  {
    schema: 'event-id',
    what: '8 characters',
    instance: () => 'ev-12345',
    keyword: 'pattern',
    at: '',
  },
  {
    schema: 'event-id',
    what: '129 characters',
    instance: () => 'e'.repeat(129),
    keyword: 'pattern',
    at: '',
  },
  { schema: 'agent-id', what: 'a space', instance: () => 'my agent', keyword: 'pattern', at: '' },
  { schema: 'node-id', what: 'an empty string', instance: () => '', keyword: 'pattern', at: '' },
];
