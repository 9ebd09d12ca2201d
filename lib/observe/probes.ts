// The refusals the suite provokes once per run (contract §1, §6): a create without credentials,
// one with a bearer token that is not the key, three with tokens that miss the key by a little
// (its last character changed, a character appended, its case flipped), the summary of a run the host never made, a
// create naming a suite the host does not have, and, on a host that does not advertise
// agents.evalSuite, the summary that capability gates. Each is one bounded request through the
// host client, so the key goes only to the target origin and never with the two credential
// probes. It judges nothing: an answer is recorded as it came, a lost one is `unobserved`, a
// probe without grounds is `not-made` with the reason, and one a host fact rules out is
// `inapplicable` with that fact.

import { randomBytes } from 'node:crypto';
import type { ObservedProbe, ProbeName } from '../types.ts';
import type { HostClient, HostResponse } from './host-client.ts';
import { encodeRunId } from './host-client.ts';
import { describeError, TransportError } from './errors.ts';
import { bodyOf } from './wire-record.ts';
import type { NearMissKind } from './near-miss-keys.ts';
import { NEAR_MISS_KINDS, NoNearMissToken } from './near-miss-keys.ts';

/** The probe that sends each near-miss token. */
export const NEAR_MISS_PROBES: Readonly<Record<NearMissKind, ProbeName>> = {
  'last-character': 'near-miss-last-character',
  extended: 'near-miss-extended',
  'case-flipped': 'near-miss-case-flipped',
};

export interface ProbeGrounds {
  /** Whether a key is configured: without one, a missing key proves nothing. */
  readonly keyConfigured: boolean;
  /** A run id the host returned this run; its tenant is where the unknown run is looked up. */
  readonly knownRunId: string | undefined;
  /** Whether discovery advertises agents.evalSuite: then no operation it gates is unadvertised. */
  readonly evalSuiteAdvertised: boolean;
  /** Each probe's deadline. */
  readonly timeoutMs: number;
}

/** Why the unadvertised-summary probe asks nothing of a host that advertises the capability. */
export const EVAL_SUITE_ADVERTISED =
  'the host advertises agents.evalSuite, so GET /runs/{runId}/eval-summary is not an unadvertised gated operation there';

/**
 * The token the wrong-key probe sends: it says what it is, so a host that echoes it shows a
 * reader nothing that could be taken for the key, and it holds a fresh nonce, so it is never the key.
 */
export function wrongKey(nonce: string): string {
  return `openwop-eval-gate.not-the-key.${nonce}`;
}

/** The suite id no host has: the published grammar, with a part nobody seeds. */
export function unknownSuiteRef(nonce: string): string {
  return `openwop-eval-gate.evals.no-such-suite-${nonce}@0.0.0`;
}

/**
 * An id in the known run's tenant whose opaque part the host never minted. A known id with no
 * tenant segment (a host minting bare ids) gets a bare unknown id, which the v1 overlap resolves
 * under the caller's tenant.
 */
export function unknownRunId(knownRunId: string, nonce: string): string {
  const cut = knownRunId.indexOf('/');
  const opaque = `probe-${nonce}`;
  return cut === -1 ? opaque : `${knownRunId.slice(0, cut)}/${opaque}`;
}

/**
 * The run id the unadvertised-summary probe asks about: in the known run's tenant when the host
 * minted one, else bare, which a host resolves under the caller's tenant. Either way no tenant
 * check stands between the request and the missing operation.
 */
export function madeUpRunId(knownRunId: string | undefined, nonce: string): string {
  return unknownRunId(knownRunId ?? '', nonce);
}

/** Sends the probes at once; never throws for anything the host or the network does. */
export async function provokeRefusals(
  client: HostClient,
  grounds: ProbeGrounds,
  nonce: string = randomBytes(8).toString('hex'),
): Promise<readonly ObservedProbe[]> {
  const create = { mode: 'eval', evalSuiteRef: unknownSuiteRef(nonce), agentId: 'no-such-agent' };
  const timeoutMs = grounds.timeoutMs;
  const noCredentials: Promise<ObservedProbe> = grounds.keyConfigured
    ? ask('no-credentials', 'POST /runs', () =>
        client.post('/runs', create, { auth: false, timeoutMs }),
      )
    : Promise.resolve(
        notMade(
          'no-credentials',
          'no API key is configured, so a request without one shows nothing',
        ),
      );
  const wrongCredentials: Promise<ObservedProbe> = grounds.keyConfigured
    ? ask('wrong-credentials', 'POST /runs', () =>
        client.post('/runs', create, { wrongBearer: wrongKey(nonce), timeoutMs }),
      )
    : Promise.resolve(
        notMade(
          'wrong-credentials',
          'no API key is configured, so the host is not expected to check one',
        ),
      );
  // The client makes each token from the key it holds; this module never sees either.
  const nearMisses: Promise<ObservedProbe>[] = NEAR_MISS_KINDS.map((kind) =>
    grounds.keyConfigured
      ? ask(NEAR_MISS_PROBES[kind], 'POST /runs', () =>
          client.post('/runs', create, { nearMissKey: kind, timeoutMs }),
        )
      : Promise.resolve(
          notMade(
            NEAR_MISS_PROBES[kind],
            'no API key is configured, so there is no key to miss narrowly',
          ),
        ),
  );
  const unknownRunPath =
    grounds.knownRunId === undefined
      ? undefined
      : `/runs/${encodeRunId(unknownRunId(grounds.knownRunId, nonce))}/eval-summary`;
  const unknownRun: Promise<ObservedProbe> =
    unknownRunPath === undefined
      ? Promise.resolve(
          notMade('unknown-run', 'the host returned no run id this run, so its tenant is unknown'),
        )
      : ask('unknown-run', `GET ${unknownRunPath}`, () =>
          client.get(unknownRunPath, { timeoutMs }),
        );
  const unknownSuite = ask('unknown-suite', 'POST /runs', () =>
    client.post('/runs', create, { timeoutMs }),
  );
  const unadvertisedPath = `/runs/${encodeRunId(madeUpRunId(grounds.knownRunId, nonce))}/eval-summary`;
  const unadvertisedSummary: Promise<ObservedProbe> = grounds.evalSuiteAdvertised
    ? Promise.resolve({
        probe: 'unadvertised-summary',
        outcome: 'inapplicable',
        reason: EVAL_SUITE_ADVERTISED,
      })
    : ask('unadvertised-summary', `GET ${unadvertisedPath}`, () =>
        client.get(unadvertisedPath, { timeoutMs }),
      );
  return Promise.all([
    noCredentials,
    wrongCredentials,
    ...nearMisses,
    unknownRun,
    unknownSuite,
    unadvertisedSummary,
  ]);
}

function notMade(probe: ProbeName, reason: string): ObservedProbe {
  return { probe, outcome: 'not-made', reason };
}

async function ask(
  probe: ProbeName,
  request: string,
  send: () => Promise<HostResponse>,
): Promise<ObservedProbe> {
  try {
    const answer = await send();
    return { probe, outcome: 'answered', request, status: answer.status, body: bodyOf(answer) };
  } catch (error) {
    if (error instanceof NoNearMissToken) return notMade(probe, error.message);
    if (error instanceof TransportError) {
      return { probe, outcome: 'unobserved', request, reason: error.message };
    }
    // A fault in the suite itself is no observation either; it is said, not thrown, so the legs'
    // report is still written.
    return {
      probe,
      outcome: 'unobserved',
      request,
      reason: `the suite failed to send it (${describeError(error)})`,
    };
  }
}
