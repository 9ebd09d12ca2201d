// Discovery: `GET /.well-known/openwop`, fetched once per base URL, and the few readers the gates
// need. Only the members named in contract §2 are read; everything else is ignored, never rejected.

import { createHash } from 'node:crypto';
import type { HostClient } from './host-client.ts';
import { TransportError } from './errors.ts';
import type { TransportErrorCode } from './errors.ts';

export type DiscoveryResult =
  | {
      readonly ok: true;
      readonly document: unknown;
      readonly sha256: string;
      readonly text: string;
      /** The answer's `OpenWOP-Version` header, null when absent (judged by wire.version-header). */
      readonly versionHeader: string | null;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /** True when no answer came at all (a TransportError), not an answer the suite refused. */
      readonly unanswered?: true;
      /** With `unanswered`: what stopped the request. */
      readonly transportCode?: TransportErrorCode;
    };

export const DISCOVERY_PATH = '/.well-known/openwop';

/**
 * One read of discovery. A run reads it once, before any leg (cli/preflight.ts), and hands that
 * read to every leg through its target, so every leg, the host checks and the report see one
 * document; a verifier reads it afresh, to see the host as it is now.
 */
export async function readDiscovery(client: HostClient): Promise<DiscoveryResult> {
  let answer;
  try {
    answer = await client.get(DISCOVERY_PATH, { auth: false });
  } catch (error) {
    if (error instanceof TransportError) {
      return { ok: false, reason: error.message, unanswered: true, transportCode: error.code };
    }
    throw error;
  }
  const where = `GET ${DISCOVERY_PATH}`;
  if (answer.status !== 200) return { ok: false, reason: `${where} answered ${answer.status}` };
  if (answer.jsonError !== undefined) {
    return { ok: false, reason: `${where} body is not JSON (${answer.jsonError})` };
  }
  if (!isRecord(answer.json)) {
    return { ok: false, reason: `${where} body is JSON but not an object` };
  }
  const sha256 = createHash('sha256').update(answer.text).digest('hex');
  const versionHeader = answer.headers['openwop-version'] ?? null;
  return { ok: true, document: answer.json, sha256, text: answer.text, versionHeader };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A capability is advertised when its record is present (an object: `{}` advertises it) and every
 * ancestor record is too (contract §2). A v1-style `supported: false` still withdraws it;
 * `supported: true` is tolerated though v2 defines no such member. So
 * `agents.evalSuite.trajectory` needs `agents`, `agents.evalSuite` and the trajectory record.
 */
export function isAdvertised(document: unknown, path: string): boolean {
  let current: unknown = document;
  for (const member of path.split('.')) {
    if (!isRecord(current)) return false;
    current = current[member];
    if (!isRecord(current) || current.supported === false) return false;
  }
  return true;
}

/** `golden` listed in `agents.evalSuite.modes`, on an advertised evalSuite. */
export function advertisesGolden(document: unknown): boolean {
  if (!isAdvertised(document, 'agents.evalSuite')) return false;
  const modes = recordAt(document, ['agents', 'evalSuite'])?.modes;
  return Array.isArray(modes) && modes.includes('golden');
}

/** The fixture ids the host says it has seeded; non-string entries are ignored. */
export function listedFixtures(document: unknown): readonly string[] {
  const fixtures = isRecord(document) ? document.fixtures : undefined;
  if (!Array.isArray(fixtures)) return [];
  return fixtures.filter((f): f is string => typeof f === 'string');
}

/** The host's self-description, when it gives a string name. */
export function advertisedImplementation(
  document: unknown,
): { readonly name: string; readonly version?: string } | undefined {
  const impl = recordAt(document, ['implementation']);
  if (impl === undefined || typeof impl.name !== 'string') return undefined;
  return typeof impl.version === 'string'
    ? { name: impl.name, version: impl.version }
    : { name: impl.name };
}

function recordAt(
  document: unknown,
  path: readonly string[],
): Readonly<Record<string, unknown>> | undefined {
  let current: unknown = document;
  for (const member of path) {
    if (!isRecord(current)) return undefined;
    current = current[member];
  }
  return isRecord(current) ? current : undefined;
}

/** A `2.x` protocol version: the major the legs speak. */
const MAJOR_TWO = /^2\.(0|[1-9][0-9]*)$/;

/**
 * Why the document does not serve major 2, or undefined when `protocolVersions` lists a `2.x`
 * (contract §2). A v1 root carries only `protocolVersion`, and says so in the reason.
 */
export function majorTwoMissing(document: unknown): string | undefined {
  const versions = isRecord(document) ? document.protocolVersions : undefined;
  if (Array.isArray(versions)) {
    if (versions.some((v) => typeof v === 'string' && MAJOR_TWO.test(v))) return undefined;
    const listed = versions.map((v) => JSON.stringify(v)).join(', ');
    return `host does not serve OpenWOP major 2: protocolVersions lists no 2.x (it lists [${listed}])`;
  }
  const v1 = isRecord(document) ? document.protocolVersion : undefined;
  if (v1 !== undefined) {
    return `host does not serve OpenWOP major 2: discovery is a v1 document (protocolVersion ${JSON.stringify(v1)}, no protocolVersions)`;
  }
  return 'host does not serve OpenWOP major 2: discovery has no protocolVersions listing a 2.x';
}

/**
 * The limits the host advertises on `agents.evalSuite` (contract §2). A member that is absent,
 * or not of its type, limits nothing and is left out.
 */
export interface AdvertisedLimits {
  readonly maxTasksPerSuite?: number;
  readonly trialsMaxCount?: number;
  readonly passRules?: readonly unknown[];
  readonly matchModes?: readonly unknown[];
}

export function advertisedLimits(document: unknown): AdvertisedLimits {
  const suite = recordAt(document, ['agents', 'evalSuite']);
  const trials = recordAt(document, ['agents', 'evalSuite', 'trials']);
  const trajectory = recordAt(document, ['agents', 'evalSuite', 'trajectory']);
  const number = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  const list = (v: unknown): readonly unknown[] | undefined => (Array.isArray(v) ? v : undefined);
  const limits: {
    maxTasksPerSuite?: number;
    trialsMaxCount?: number;
    passRules?: readonly unknown[];
    matchModes?: readonly unknown[];
  } = {};
  const maxTasks = number(suite?.maxTasksPerSuite);
  if (maxTasks !== undefined) limits.maxTasksPerSuite = maxTasks;
  const maxCount = number(trials?.maxCount);
  if (maxCount !== undefined) limits.trialsMaxCount = maxCount;
  const passRules = list(trials?.passRules);
  if (passRules !== undefined) limits.passRules = passRules;
  const matchModes = list(trajectory?.matchModes);
  if (matchModes !== undefined) limits.matchModes = matchModes;
  return limits;
}
