// Upstream corpus rows for the agent.* and run.completed payload defs
// (openwop/openwop schemas/v2/run-event-payloads.schema.json): required members, closure with the hatch, and the mock-agent names that do not project.

import { ANON_RUN_ID, fullSummary } from '../examples.ts';
import { HATCH_KEYS } from './types.ts';
import type { Accepted, Doc, Rejected } from './types.ts';

const toolCalled = (): Doc => ({
  agentId: 'core.conformance.mock-agent',
  toolName: 'crm:lookup-customer',
  callId: 'call-1',
});
const toolReturned = (): Doc => ({ ...toolCalled() });
const invStarted = (): Doc => ({
  invocationId: 'inv-1',
  agentId: 'agent:a',
  source: 'workflow-node',
});
const invCompleted = (): Doc => ({
  invocationId: 'inv-1',
  agentId: 'agent:a',
  outcome: 'completed',
});

export const AGENTS_ACCEPTED: readonly Accepted[] = [
  // agent.* and run.completed payloads
  {
    schema: 'agent-tool-called',
    what: 'every optional member and vendor-hatch keys',
    instance: () => ({
      ...toolCalled(),
      inputs: 'anything',
      argsHash: 'h',
      principal: 'user-1',
      transport: 'mcp',
      causationHostId: 'x',
      ...HATCH_KEYS,
    }),
  },
  {
    schema: 'agent-tool-returned',
    what: 'an error object, status and duration',
    instance: () => ({
      ...toolReturned(),
      outcome: null,
      error: { code: 'anything-goes', message: 'boom', retryable: true, details: {} },
      status: 'rate_limited',
      durationMs: 0,
      causationHostId: 'host-b',
    }),
  },
  {
    schema: 'agent-invocation-started',
    what: 'every optional member',
    instance: () => ({
      ...invStarted(),
      modelClass: 'chat',
      resolvedModel: 'm',
      resolvedProvider: 'p',
      resolvedAgentVersion: '1',
      resolvedChannel: 'stable',
      toolSurfaceCount: 3,
      memoryBound: false,
      ...HATCH_KEYS,
    }),
  },
  {
    schema: 'agent-invocation-completed',
    what: 'confidence, schemaValidated and an enqueued run',
    instance: () => ({
      ...invCompleted(),
      outcome: 'handed-off',
      schemaValidated: true,
      confidence: 0,
      enqueuedRunId: ANON_RUN_ID,
    }),
  },
  {
    schema: 'agent-decided',
    what: 'a decision of any JSON type',
    instance: () => ({ agentId: 'a', decision: [1, { two: 2 }], confidence: 1, ...HATCH_KEYS }),
  },
  { schema: 'run-completed', what: 'empty outputs', instance: () => ({ outputs: {} }) },
  {
    schema: 'run-completed',
    what: 'outputs holding a summary, a duration and a vendor key',
    instance: () => ({ outputs: { summary: fullSummary() }, durationMs: 12, 'x-acme': 1 }),
  },
];

export const AGENTS_REJECTED: readonly Rejected[] = [
  {
    schema: 'agent-tool-returned',
    what: 'an empty causationHostId',
    instance: toolReturned,
    set: '/causationHostId',
    to: '',
    keyword: 'minLength',
  },
  {
    schema: 'agent-tool-called',
    what: 'a principal that is not a string',
    instance: toolCalled,
    set: '/principal',
    to: { sub: 'u' },
    keyword: 'type',
  },
  // agent.* and run.completed payloads
  {
    schema: 'agent-tool-called',
    what: 'the mock-agent config name toolId instead of toolName',
    instance: () => ({ agentId: 'a', toolId: 'crm:x', callId: 'c' }),
    keyword: 'required',
    at: '',
    member: 'toolName',
  },
  {
    schema: 'agent-tool-called',
    what: 'arguments instead of inputs',
    instance: toolCalled,
    set: '/arguments',
    to: {},
    keyword: 'additionalProperties',
    at: '',
    member: 'arguments',
  },
  {
    schema: 'agent-tool-called',
    what: 'an unknown transport',
    instance: toolCalled,
    set: '/transport',
    to: 'grpc',
    keyword: 'enum',
  },
  {
    schema: 'agent-tool-returned',
    what: 'result instead of outcome',
    instance: toolReturned,
    set: '/result',
    to: 1,
    keyword: 'additionalProperties',
    at: '',
    member: 'result',
  },
  {
    schema: 'agent-tool-returned',
    what: 'an error object without message',
    instance: toolReturned,
    set: '/error',
    to: { code: 'x' },
    keyword: 'required',
    at: '/error',
    member: 'message',
  },
  {
    schema: 'agent-invocation-started',
    what: 'no invocationId',
    instance: invStarted,
    set: '/invocationId',
    keyword: 'required',
    at: '',
    member: 'invocationId',
  },
  {
    schema: 'agent-invocation-completed',
    what: 'an unknown outcome',
    instance: invCompleted,
    set: '/outcome',
    to: 'done',
    keyword: 'enum',
  },
  {
    schema: 'agent-invocation-completed',
    what: 'confidence above 1',
    instance: invCompleted,
    set: '/confidence',
    to: 2,
    keyword: 'maximum',
  },
  {
    schema: 'agent-decided',
    what: 'no decision',
    instance: () => ({ agentId: 'a' }),
    keyword: 'required',
    at: '',
    member: 'decision',
  },
  {
    schema: 'agent-decided',
    what: 'the mock-agent decision reasoning',
    instance: () => ({ agentId: 'a', decision: 1, reasoning: 'because' }),
    keyword: 'additionalProperties',
    at: '',
    member: 'reasoning',
  },
  {
    schema: 'run-completed',
    what: 'outputs missing',
    instance: () => ({}),
    keyword: 'required',
    at: '',
    member: 'outputs',
  },
  {
    schema: 'run-completed',
    what: 'the singular output',
    instance: () => ({ outputs: {}, output: 'x' }),
    keyword: 'additionalProperties',
    at: '',
    member: 'output',
  },
];
