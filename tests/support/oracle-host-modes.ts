// The choices the published v2 structures leave to a host, as modes of the oracle host. Each mode
// turns on one family of upstream-optional behaviour (contract §5–§7), so a test can
// show that the suite passes a host whichever of them it makes: the suite must never fail a host
// for a member the published schema allows, a vendor key where the schema has a hatch, an
// `anon:` tenant, a page of one event or a poll held for its whole window.

import type { EvalSummary, Json } from '../../lib/types.ts';

export const ORACLE_MODES = [
  /** Every optional published member on the summary, its tasks, the payloads and the envelope. */
  'optional-members',
  /** Vendor keys wherever the published structure has the escape hatch, and only there. */
  'vendor-keys',
  /** Run ids minted under an `anon:` tenant (ids.schema.json, newer version). */
  'anon-tenant',
  /** Every poll page carries exactly one event. */
  'one-event-pages',
  /** A poll is held for its whole `timeout` window, or until the run ends, never cut at an append. */
  'held-poll',
] as const;
export type OracleMode = (typeof ORACLE_MODES)[number];

export type JsonObject = { readonly [k: string]: Json };

/** The node the scripted agent runs as; `pinnedNodeIds` and the envelope `nodeId` name it. */
export const AGENT_NODE = 'acme:eval-agent-node';
export const ENGINE_VERSION = 4;
export const EVENT_SCHEMA_VERSION = 3;

/** The discovery root: the members the suite reads, then what each mode adds. */
export function discoveryOf(
  modes: ReadonlySet<OracleMode>,
  fixtureIds: readonly string[],
): JsonObject {
  const optional = modes.has('optional-members');
  const evalSuite: JsonObject = {
    modes: ['rubric', 'golden'],
    ...(optional ? { maxTasksPerSuite: 200, maxCostUsdPerSuite: 5 } : {}),
    trials: { passRules: ['mean', 'any', 'all'], maxCount: 100 },
    trajectory: { matchModes: ['any-order', 'in-order', 'exact'] },
  };
  return {
    // A v1 minor listed first: the suite must look for a 2.x member, not read the first one.
    protocolVersions: ['1.11', '2.0'],
    preferredVersion: '2.0',
    implementation: {
      name: 'acme-oracle-host',
      version: '7.3.0-rc.2',
      ...(optional ? { vendor: 'Acme', url: 'https://acme.invalid/oracle' } : {}),
    },
    ...(optional ? { engineVersion: ENGINE_VERSION, eventLogSchemaVersion: 3 } : {}),
    agents: {
      status: 'stable',
      since: '2.0',
      witness: 'witnessable-gated',
      ...(optional
        ? {
            profile: 'acme-scripted',
            modelClasses: ['reasoning', 'tool-using'],
            liveRuntime: { structuredOutput: true, sources: ['run-api'] },
          }
        : {}),
      evalSuite,
    },
    ...(modes.has('vendor-keys')
      ? { extensions: { 'acme.limits': { runsPerMinute: 600, 'x-acme-burst': 20 } } }
      : {}),
    ...(optional ? { conformance: { mockAgent: false } } : {}),
    fixtures: [...fixtureIds].reverse(),
  };
}

/** The opaque part of a fake baseline run, so `baselineRunId` is a tenant-bound run id. */
export const baselineOf = (tenant: string): string => `${tenant}/baseline-0000000000000001`;

export interface TaskCosts {
  readonly costUsd: number;
  readonly latencyMs: number;
}

/** Deterministic per-task figures: small enough that no threshold could trip on them. */
export function costsOf(index: number, trials: number): TaskCosts {
  return { costUsd: 0.0005 * (index + 1) * trials, latencyMs: 30 + 7 * index };
}

/** The summary as served: with every optional published member when the mode asks for it. */
export function presentSummary(
  summary: EvalSummary,
  modes: ReadonlySet<OracleMode>,
  tenant: string,
  trialsPerTask: number,
): JsonObject {
  if (!modes.has('optional-members')) return summary as unknown as JsonObject;
  // The figures a script states, already on the task, win over the host's own.
  const tasks = summary.tasks.map((task, i) => ({
    ...costsOf(i, trialsPerTask),
    ...task,
    schemaValid: true,
    safetyFindings: [{ kind: 'pii-echo', severity: 'low' }],
  }));
  const totalCostUsd = summary.totalCostUsd ?? tasks.reduce((sum, t) => sum + t.costUsd, 0);
  return {
    ...summary,
    evaluatedModelClass: 'general',
    totalCostUsd,
    tasks,
    pinnedNodeIds: [AGENT_NODE],
    regression: {
      baselineRunId: baselineOf(tenant),
      scoreDelta: 0,
      diffRef: 'acme://eval-diffs/0001',
    },
  } as unknown as JsonObject;
}

/** What the modes add to one payload whose published def has the vendor hatch. */
export function hatchKeys(modes: ReadonlySet<OracleMode>, type: string): JsonObject {
  if (!modes.has('vendor-keys')) return {};
  if (type.startsWith('eval.')) {
    return { 'x-acme-wall-ms': 3, 'vendor.acme.judge': { engine: 'exact-v3' } };
  }
  return { 'openwop-acme-shard': 2, 'x-acme-span': 'a1b2' };
}
