// The discovery document (contract §2,
// openwop/openwop schemas/v2/capabilities.schema.json): the v2 root members the suite reads, with the
// `agents` capability record whose `evalSuite` facet is present exactly when the host serves eval
// runs. v2 has no `supported` key: the presence of a facet is the claim.

import type { HasDefect } from './defects.ts';
import type { JsonValue } from './fixtures.ts';
import { preferredVersion, protocolVersions } from './wire.ts';

export const HOST_NAME = 'openwop-reference-host';
export const HOST_VERSION = '0.2.0';

export interface DiscoveryInput {
  readonly has: HasDefect;
  readonly varied: boolean;
  readonly fixtureIds: readonly string[];
  /** Published as `signingKeys`, so a report signed with a private half can be certified. */
  readonly signingKey?: PublishedSigningKey | readonly PublishedSigningKey[];
}

/** The public half of the host's report-signing key: ed25519, 32 bytes base64url. */
export interface PublishedSigningKey {
  readonly keyId: string;
  readonly publicKey: string;
  /** A rotated-out key stays listed with the time it stopped vouching. */
  readonly retiredAt?: string;
}

type Doc = { [k: string]: JsonValue };

/** Limits far above what the shipped fixtures need (at most 2 tasks and 4 trials). */
const MAX_TASKS_PER_SUITE = 200;
const MAX_TRIALS = 100;
const MAX_COST_USD_PER_SUITE = 5;

function evalSuiteFacet(has: HasDefect): Doc {
  const facet: Doc = {
    modes: ['golden'],
    maxTasksPerSuite: MAX_TASKS_PER_SUITE,
    maxCostUsdPerSuite: MAX_COST_USD_PER_SUITE,
  };
  if (!has('withhold-trajectory')) {
    facet['trajectory'] = { matchModes: ['exact', 'in-order', 'any-order'] };
  }
  if (!has('withhold-trials')) {
    facet['trials'] = {
      maxCount: has('trials-max-count-1') ? 1 : MAX_TRIALS,
      passRules: ['all', 'any', 'mean'],
    };
  }
  return facet;
}

/** Whether discovery carries agents.evalSuite; the operations it gates follow the same answer. */
export function advertisesEvalSuite(has: HasDefect): boolean {
  return !has('withhold-eval-suite') && !has('unadvertised-summary-refused');
}

/** The `agents` capability record: without its witness, or with a v1 flag, under a defect. */
function agentsRecord(has: HasDefect): Doc {
  const agents: Doc = { status: 'stable', since: '2.0' };
  if (!has('discovery-no-witness')) agents['witness'] = 'witnessable-gated';
  if (advertisesEvalSuite(has)) {
    const facet = evalSuiteFacet(has);
    agents['evalSuite'] = has('discovery-v1-flag') ? { supported: true, ...facet } : facet;
  }
  return agents;
}

export function discoveryDocument(input: DiscoveryInput): JsonValue {
  const { has, varied, fixtureIds, signingKey } = input;
  const agents = agentsRecord(has);
  const doc: Doc = {
    protocolVersions: [...protocolVersions(has)],
    preferredVersion: preferredVersion(has),
    implementation: { name: HOST_NAME, version: HOST_VERSION },
    agents,
    fixtures: has('withhold-fixtures') ? [] : [...fixtureIds],
  };
  if (signingKey !== undefined) {
    const keys: readonly PublishedSigningKey[] = Array.isArray(signingKey)
      ? signingKey
      : [signingKey as PublishedSigningKey];
    doc['signingKeys'] = keys.map((k) => ({ ...k, alg: 'ed25519', use: 'certification-bundle' }));
  }
  if (!varied) return doc;
  // Members the published root defines and the suite does not read: a client must ignore them.
  return {
    ...doc,
    implementation: { name: HOST_NAME, version: HOST_VERSION, vendor: 'openwop-conformance' },
    eventLogSchemaVersion: 3,
    extensions: { 'ref-host.build': { variant: 'varied' } },
  };
}
