// Upstream corpus rows for the wire: the poll page and the 201 answer (inline responses
// of openwop/openwop api/v2/openapi.yaml) and the discovery members the suite reads
// (openwop/openwop schemas/v2/capabilities.schema.json).

import { ANON_RUN_ID, fullDiscovery, fullEvent, RUN_ID } from '../examples.ts';
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
  {
    schema: 'discovery',
    what: 'an agents record carrying every published facet',
    instance: () =>
      agentsOf(
        record({
          profile: 'openwop-agents-full',
          orchestratorPattern: 'delegate',
          orchestrator: true,
          dispatch: true,
          dispatchMapping: false,
          subRunAttestation: false,
          modelClasses: ['tool-using', 'retrieval'],
          memoryBackends: ['long-term'],
          memoryConsolidation: { schedule: 'on-demand' },
          commitments: { fireConditions: ['time', 'predicate'] },
          manifestRuntime: { handoffValidation: true, installScope: 'tenant' },
          liveRuntime: {
            structuredOutput: true,
            confidenceEscalation: false,
            sources: ['run-api'],
          },
          evalSuite: { modes: ['golden', 'live-shadow'] },
          deployment: {
            channels: ['stable'],
            canary: false,
            rollback: true,
            states: ['draft', 'active'],
          },
          roster: { installScope: 'tenant', portfolioTriggerSources: ['schedule'] },
          orgChart: { installScope: 'tenant', departmentNesting: true, responsibilityView: false },
          reasoning: { verbosity: 'summary', tokenLimit: 512, streaming: true },
          proposals: {
            artifactKinds: ['automation'],
            activation: 'direct-rbac',
            duplicationDetection: true,
          },
          goals: { judge: 'host', continuation: ['manual'], requiresBounds: true },
        }),
      ),
  },
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
];

export const WIRE_REJECTED: readonly Rejected[] = [
  {
    schema: 'discovery',
    what: 'a proposals facet without activation',
    instance: () => agentsOf(record({ proposals: { artifactKinds: ['automation'] } })),
    keyword: 'required',
    at: '/agents/proposals',
    member: 'activation',
  },
  {
    schema: 'discovery',
    what: 'an unknown deployment state',
    instance: () => agentsOf(record({ deployment: { states: ['live'] } })),
    keyword: 'enum',
    at: '/agents/deployment/states/0',
  },
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
];
