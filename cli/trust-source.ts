// Reads the source a verifier anchors a report's signature in (lib/report/verify/anchor.ts): a key file
// (--key), a pinned keyring (--trusted-keys), or a live discovery read with the suite's bounded
// client: at --host URL, an address the certifier gives, or else at the report's own target URL,
// which the report's author chose and which therefore proves integrity only
// (lib/report/verify/voucher.ts). --offline reads nothing outside the report. A source that cannot be
// used as given is a usage error (exit 2); a host that does not answer is an outcome, not an error.

import { readFile } from 'node:fs/promises';
import { DEFAULT_BOUNDS } from '../lib/env.ts';
import { readDiscovery } from '../lib/observe/discovery.ts';
import { createHostClient } from '../lib/observe/host-client.ts';
import type { TrustSource } from '../lib/report/verify/anchor.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import { readVerifyingKey } from '../lib/report/verify/signature.ts';
import { UsageError } from './args.ts';

/** The flags of verify, badge, diff and matrix that choose where a key may come from. */
export interface TrustOptions {
  readonly key?: string;
  readonly trustedKeys?: string;
  readonly host?: string;
  readonly offline?: boolean;
  /** `--max-age DAYS`: an older report is stale and certifies nothing. */
  readonly maxAgeDays?: number;
}

/** The longest --max-age: a century, so the number stays a date's arithmetic. */
const MAX_AGE_DAYS = 36_500;

export function trustOptionsOf(options: Readonly<Record<string, string>>): TrustOptions {
  const { key, host } = options;
  const trustedKeys = options['trusted-keys'];
  const offline = options.offline !== undefined;
  if (key !== undefined && trustedKeys !== undefined) {
    throw new UsageError('give --key or --trusted-keys, not both');
  }
  if (host !== undefined && (offline || key !== undefined || trustedKeys !== undefined)) {
    throw new UsageError(
      '--host names the live host to read the key from; it goes with neither --offline, --key nor --trusted-keys',
    );
  }
  if (host !== undefined && !/^https?:\/\/[^/]/i.test(host)) {
    throw new UsageError(`--host takes an http(s) URL, such as --host https://host.example`);
  }
  const maxAge = options['max-age'];
  let maxAgeDays: number | undefined;
  if (maxAge !== undefined) {
    maxAgeDays = Number(maxAge);
    if (!/^\d+$/.test(maxAge) || maxAgeDays < 1 || maxAgeDays > MAX_AGE_DAYS) {
      throw new UsageError(
        `--max-age takes whole days from 1 to ${MAX_AGE_DAYS}, such as --max-age 30; got "${maxAge}"`,
      );
    }
  }
  return {
    ...(maxAgeDays === undefined ? {} : { maxAgeDays }),
    ...(key === undefined ? {} : { key }),
    ...(trustedKeys === undefined ? {} : { trustedKeys }),
    ...(host === undefined ? {} : { host }),
    ...(offline ? { offline } : {}),
  };
}

/** A source read once per command: each file is read once, each live host asked once. */
export class TrustSources {
  readonly #options: TrustOptions;
  readonly #live = new Map<string, Promise<TrustSource>>();
  #fixed: Promise<TrustSource | undefined> | undefined;

  /** The verifier's clock, injectable so a test of a report's age never reads the wall clock. */
  readonly now: () => number;

  constructor(options: TrustOptions, now: () => number = Date.now) {
    this.#options = options;
    this.now = now;
  }

  /** `--max-age`, for the verdict's clock. */
  get maxAgeDays(): number | undefined {
    return this.#options.maxAgeDays;
  }

  /** The source for `report`: the file given, or the live discovery of its host. */
  async for(report: EvalGateReport): Promise<TrustSource> {
    this.#fixed ??= fixedSource(this.#options);
    const fixed = await this.#fixed;
    if (fixed !== undefined) return fixed;
    if (this.#options.offline === true) {
      return { kind: 'none', name: 'no source outside the report (--offline)' };
    }
    if (report.target.embedded && this.#options.host === undefined) {
      return {
        kind: 'none',
        name: 'no live host (the report is of the embedded reference host, which publishes no key of its own)',
      };
    }
    const url = (this.#options.host ?? report.target.baseUrl).replace(/\/+$/, '');
    let pending = this.#live.get(url);
    if (pending === undefined) {
      pending = liveSource(
        url,
        this.#options.host === undefined ? undefined : report.target.baseUrl,
      );
      this.#live.set(url, pending);
    }
    return pending;
  }
}

async function fixedSource(options: TrustOptions): Promise<TrustSource | undefined> {
  if (options.key !== undefined) {
    return {
      kind: 'key-file',
      name: `the key file ${options.key}`,
      key: await readVerifyingKey(options.key),
    };
  }
  if (options.trustedKeys !== undefined) {
    return {
      kind: 'keyring',
      name: `the keyring ${options.trustedKeys}`,
      keys: await readKeyring(options.trustedKeys),
    };
  }
  return undefined;
}

/**
 * A keyring: JSON, either a `signingKeys[]` list or an object holding one, each entry `keyId`,
 * `alg`, `publicKey`, optional `use`, `retiredAt` and `implementation` (the one implementation
 * name the key may vouch for). Entries are checked when a report names them.
 */
export async function readKeyring(path: string): Promise<readonly unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw new UsageError(`the keyring ${path} could not be read (${code})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`the keyring ${path} is not JSON`);
  }
  const list: unknown =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>).signingKeys
      : parsed;
  if (!Array.isArray(list)) {
    throw new UsageError(
      `the keyring ${path} holds no signingKeys list; give [{"keyId", "alg", "publicKey"}, ...] or {"signingKeys": [...]}`,
    );
  }
  const bad = list.findIndex(
    (entry: unknown) =>
      typeof entry !== 'object' ||
      entry === null ||
      typeof (entry as Record<string, unknown>).keyId !== 'string',
  );
  if (bad !== -1) throw new UsageError(`the keyring ${path}: entry ${bad} has no keyId`);
  return list as readonly unknown[];
}

/**
 * Reads `url`'s discovery afresh (never the process's memo of it), without credentials; no answer
 * is an outcome of its own.
 */
async function liveSource(url: string, aboutUrl: string | undefined): Promise<TrustSource> {
  const namedBy: 'report' | 'certifier' = aboutUrl === undefined ? 'report' : 'certifier';
  const name =
    aboutUrl === undefined
      ? `the live discovery at ${url}`
      : `the live discovery at ${url} (given with --host for the report's ${aboutUrl})`;
  let client;
  try {
    client = createHostClient({
      baseUrl: url,
      requestTimeoutMs: DEFAULT_BOUNDS.requestTimeoutMs,
      maxBodyBytes: DEFAULT_BOUNDS.maxBodyBytes,
    });
  } catch {
    return {
      kind: 'live',
      name,
      url,
      namedBy,
      read: { ok: false, why: 'the URL is not one the client can reach' },
    };
  }
  try {
    const read = await readDiscovery(client);
    return {
      kind: 'live',
      name,
      url,
      namedBy,
      read: read.ok ? { ok: true, document: read.document } : { ok: false, why: read.reason },
    };
  } finally {
    await client.close();
  }
}
