// The host checks of one suite run (contract §1, §2, §6): provoke the refusals once, then judge
// them and discovery with the pure witness. The probes are sent only to a host whose discovery was
// read and serves major 2, because the refusals they provoke are v2 answers; otherwise each probe
// is recorded as not sent, with the reason, and its rule is reported unexercised. Whether the host
// advertises agents.evalSuite is read from the same discovery the gates read.

import type { DiscoveryResult } from '../observe/discovery.ts';
import { isAdvertised, majorTwoMissing } from '../observe/discovery.ts';
import type { HostClient } from '../observe/host-client.ts';
import { provokeRefusals } from '../observe/probes.ts';
import { PROBE_NAMES } from '../host-probes.ts';
import type { HostChecks, ObservedProbe } from '../types.ts';
import { judgeHostChecks, type DiscoveryRead } from '../eval-gate-witness.ts';

export interface HostCheckTarget {
  readonly client: HostClient;
  readonly discovery: DiscoveryResult;
  readonly keyConfigured: boolean;
  /** A run id the host returned this run, or undefined when it returned none. */
  readonly knownRunId: string | undefined;
  readonly timeoutMs: number;
}

export async function checkHost(target: HostCheckTarget): Promise<HostChecks> {
  const probes = await observeProbes(target);
  return { probes, ...judgeHostChecks(discoveryRead(target.discovery), probes) };
}

/** What the witness reads of discovery: the parsed document, or why none was read. */
export function discoveryRead(discovery: DiscoveryResult): DiscoveryRead {
  return discovery.ok
    ? { ok: true, document: discovery.document }
    : { ok: false, reason: discovery.reason };
}

function observeProbes(target: HostCheckTarget): Promise<readonly ObservedProbe[]> {
  const { discovery } = target;
  if (!discovery.ok) {
    return notSent(
      `discovery unreadable (${discovery.reason}), so whether the host speaks v2 is unknown`,
    );
  }
  const major = majorTwoMissing(discovery.document);
  if (major !== undefined) return notSent(major);
  return provokeRefusals(target.client, {
    keyConfigured: target.keyConfigured,
    knownRunId: target.knownRunId,
    evalSuiteAdvertised: isAdvertised(discovery.document, 'agents.evalSuite'),
    timeoutMs: target.timeoutMs,
  });
}

function notSent(reason: string): Promise<readonly ObservedProbe[]> {
  return Promise.resolve(PROBE_NAMES.map((probe) => ({ probe, outcome: 'not-made', reason })));
}
