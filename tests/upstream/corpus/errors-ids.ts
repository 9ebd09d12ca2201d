// Upstream corpus rows for the error envelope (107 registered codes, the dotted vendor branch and
// the per-code details rules of openwop/openwop schemas/v2/error-envelope.schema.json) and the
// identifier grammars (openwop/openwop schemas/v2/ids.schema.json, newer, with `anon:`).

import { ANON_RUN_ID, EVENT_ID } from '../examples.ts';
import type { Accepted, Doc, Rejected } from './types.ts';

const error = (): Doc => ({ error: 'validation_error', message: 'mode golden is not advertised' });

export const ERRORS_IDS_ACCEPTED: readonly Accepted[] = [
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

export const ERRORS_IDS_REJECTED: readonly Rejected[] = [
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
