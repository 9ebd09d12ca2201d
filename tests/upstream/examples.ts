// Documents written out from the published files and the wire contract, for tests that need an
// upstream-valid instance of each structure. Each call returns a fresh copy a test may mutate.

type Doc = Record<string, unknown>;

export const RUN_ID = 'tenant-a/run-0123456789abcdef';
export const ANON_RUN_ID = 'anon:visitor-7/run-0123456789abcdef';
export const EVENT_ID = 'evt-0123456789abcdef';

/** The contract §3 example suite: published AgentEvalSuite v2 plus the RFC 0244 keys of §5. */
export function contractSuite(): Doc {
  return {
    suiteId: 'core.conformance.evals.trajectory-gate-mean',
    version: '1.0.0',
    modes: ['golden'],
    thresholds: { passScore: 0.6 },
    trials: { count: 2, passRule: 'mean' },
    tasks: [
      {
        taskId: 'forbidden-in-every-trial',
        input: { request: 'look up customer 42' },
        expected: {
          kind: 'golden',
          match: { strategy: 'exact', value: 'customer 42: active' },
          trajectory: {
            match: 'in-order',
            calls: [{ tool: 'crm:lookup-customer' }],
            forbidden: ['crm:delete-customer'],
          },
        },
        fixtures: {
          toolResponses: [{ tool: 'crm:lookup-customer', response: { id: 42, status: 'active' } }],
        },
      },
    ],
  };
}

/** A suite using every published optional member, with no RFC 0244 key. */
export function fullPublishedSuite(): Doc {
  return {
    suiteId: 'acme.support.evals.triage',
    version: '2.10.0',
    targetAgentId: 'acme:triage-agent.v2',
    modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'],
    allowedModels: ['reasoning', 'general'],
    thresholds: { passScore: 0.8, maxCostUsd: 1.5, maxP95LatencyMs: 2000 },
    tasks: [
      {
        taskId: 'a',
        input: 'a bare string input',
        expected: { kind: 'rubric', rubric: [{ criterion: 'polite', weight: 1 }] },
      },
      { taskId: 'x-', input: null, expected: { kind: 'golden' } },
      {
        taskId: 'with-fixtures',
        input: 42,
        expected: {
          kind: 'golden',
          match: { strategy: 'json-match', value: { ok: true } },
          rubric: [{ criterion: 'terse', weight: 0.5 }],
        },
        fixtures: {
          toolResponses: [{ tool: 'crm:lookup' }, { tool: 'crm:lookup', response: [1, 2] }],
          memorySeed: [{ key: 'tier', value: 'gold', anything: { nested: true } }],
        },
      },
      { taskId: 'empty-fixtures', input: {}, expected: { kind: 'rubric' }, fixtures: {} },
    ],
  };
}

/** A fixture around a suite, with a script entry for each of its tasks. */
export function fixtureOf(suite: Doc): Doc {
  const tasks = suite.tasks as readonly { taskId: string }[];
  return {
    id: 'conformance-eval-trajectory-gate-mean',
    requirement: 'openwop.requirement.0246.mean-gated',
    agentId: 'core.conformance.eval-scripted-agent',
    suite,
    script: Object.fromEntries(
      tasks.map((t) => [
        t.taskId,
        [{ calls: [{ tool: 'crm:lookup-customer', args: {} }], output: 'customer 42: active' }],
      ]),
    ),
  };
}

/** A summary using every published optional member, plus the RFC 0246 and 0244 keys. */
export function fullSummary(): Doc {
  return {
    suiteId: 'acme.support.evals.triage',
    suiteVersion: '2.10.0',
    evaluatedModelClass: 'reasoning',
    aggregateScore: 0.75,
    gatedAggregateScore: 0.5,
    passed: false,
    taskCount: 2,
    passedCount: 1,
    totalCostUsd: 0.42,
    pinnedNodeIds: ['triage-node', 'acme:router'],
    regression: { baselineRunId: ANON_RUN_ID, scoreDelta: -0.25, diffRef: 'diff/123' },
    tasks: [
      {
        taskId: 'a',
        score: 1,
        gatedScore: 1,
        passed: true,
        costUsd: 0.2,
        latencyMs: 1200,
        schemaValid: true,
        safetyFindings: [{ kind: 'pii-echo', severity: 'low' }],
      },
      {
        taskId: 'x-',
        score: 0.5,
        gatedScore: 0,
        passed: false,
        trials: {
          count: 2,
          passRule: 'mean',
          meanScore: 0.5,
          passAtK: 0,
          passHatK: 0,
          trialStats: { passed: 0, trajectoryFailed: 2, failedClosed: 0, minScore: 0, maxScore: 1 },
        },
      },
    ],
  };
}

/** A RunEventDoc with every optional envelope member. */
export function fullEvent(): Doc {
  return {
    eventId: EVENT_ID,
    runId: ANON_RUN_ID,
    type: 'eval.scored',
    payload: { taskId: 'a', score: 1, passed: true },
    timestamp: '2026-10-16T09:00:00.123Z',
    sequence: 0,
    schemaVersion: 1,
    nodeId: 'eval:node-1',
    engineVersion: 3,
    causationId: 'evt-fedcba9876543210',
  };
}

/** A v2 discovery root with the members the suite reads, and one family it does not. */
export function fullDiscovery(): Doc {
  return {
    protocolVersions: ['1.11', '2.0'],
    preferredVersion: '1.11',
    implementation: {
      name: 'acme-host',
      version: '3.2.0',
      vendor: 'Acme',
      url: 'https://acme.example/host',
    },
    agents: {
      status: 'stable',
      since: '2.0',
      witness: 'witnessable-gated',
      modelClasses: ['chat', 'code'],
      evalSuite: {
        modes: ['golden'],
        maxTasksPerSuite: 200,
        maxCostUsdPerSuite: 5,
        trajectory: { matchModes: ['exact', 'in-order', 'any-order'] },
        trials: { maxCount: 10, passRules: ['all', 'any', 'mean'] },
      },
    },
    fixtures: ['conformance-eval-trajectory-gate', 'conformance-eval-trajectory-gate-mean'],
    signingKeys: [
      { keyId: 'key-2026', alg: 'ed25519', publicKey: 'A'.repeat(43), use: 'certification-bundle' },
    ],
    memory: { status: 'experimental', since: '2.0', until: '2027-01-01', witness: 'claims-check' },
  };
}
