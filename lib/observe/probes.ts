// The refusals the suite provokes once per run (contract §1, §6), each the `request` of a probe
// of lib/host-probes.ts: creates naming a suite no host has, without credentials, with a bearer
// token that is not the key, with tokens that miss the key by a little, and with the key; the
// summary of a run the host never made; and, on a host that does not advertise agents.evalSuite,
// the summary that capability gates. Each is one bounded request through the host client, so the
// key goes only to the target origin and never with the credential probes. It judges nothing (the
// table's `checks` are the witness's): an answer is recorded as it came, a lost one is
// `unobserved`, a probe without grounds is `not-made` with the reason, and one a host fact rules
// out is `inapplicable` with that fact.

import { randomBytes } from 'node:crypto';
import type { ObservedProbe, ProbeName } from '../types.ts';
import type { HostClient, HostResponse } from './host-client.ts';
import { encodeRunId } from './host-client.ts';
import { describeError, TransportError } from './errors.ts';
import { bodyOf } from './wire-record.ts';
import { NoNearMissToken } from './near-miss-keys.ts';
import { HOST_PROBES, type ProbeRequest } from '../host-probes.ts';

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

/**
 * Sends every probe of the table at once, each as its `request` says; never throws for anything
 * the host or the network does. The answers are recorded in the table's order.
 */
export async function provokeRefusals(
  client: HostClient,
  grounds: ProbeGrounds,
  nonce: string = randomBytes(8).toString('hex'),
): Promise<readonly ObservedProbe[]> {
  return Promise.all(HOST_PROBES.map((p) => send(client, grounds, nonce, p.name, p.request)));
}

function send(
  client: HostClient,
  grounds: ProbeGrounds,
  nonce: string,
  probe: ProbeName,
  request: ProbeRequest,
): Promise<ObservedProbe> {
  const timeoutMs = grounds.timeoutMs;
  switch (request.send) {
    case 'create': {
      const create = {
        mode: 'eval',
        evalSuiteRef: unknownSuiteRef(nonce),
        agentId: 'no-such-agent',
      };
      const credential = request.credential;
      if (credential.send === 'key') {
        return ask(probe, 'POST /runs', () => client.post('/runs', create, { timeoutMs }));
      }
      if (!grounds.keyConfigured) return Promise.resolve(notMade(probe, credential.withoutKey));
      // The client makes each token from the key it holds; this module never sees either.
      const auth =
        credential.send === 'none'
          ? { auth: false }
          : credential.send === 'wrong-key'
            ? { wrongBearer: wrongKey(nonce) }
            : { nearMissKey: credential.kind };
      return ask(probe, 'POST /runs', () => client.post('/runs', create, { ...auth, timeoutMs }));
    }
    case 'unknown-run-summary': {
      if (grounds.knownRunId === undefined) {
        return Promise.resolve(
          notMade(probe, 'the host returned no run id this run, so its tenant is unknown'),
        );
      }
      const path = `/runs/${encodeRunId(unknownRunId(grounds.knownRunId, nonce))}/eval-summary`;
      return ask(probe, `GET ${path}`, () => client.get(path, { timeoutMs }));
    }
    case 'unadvertised-summary': {
      if (grounds.evalSuiteAdvertised) {
        return Promise.resolve({ probe, outcome: 'inapplicable', reason: EVAL_SUITE_ADVERTISED });
      }
      const path = `/runs/${encodeRunId(madeUpRunId(grounds.knownRunId, nonce))}/eval-summary`;
      return ask(probe, `GET ${path}`, () => client.get(path, { timeoutMs }));
    }
  }
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
