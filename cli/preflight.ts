// What must hold before any leg runs, so that a configuration error ends the run in one line with
// exit 2 instead of coming back as a column of `blocked` rows: the report directory and the CI's
// step files can be written, and a remote host has a key, answers discovery, publishes the public
// half of the --sign key under the --key-id the report will be signed under, advertises none of the
// capabilities a strict run opts out of, and accepts the key on one authenticated request. Each failure names the URL or the directory, never the key.

import { appendFile } from 'node:fs/promises';
import { Refusal } from '../lib/refusal.ts';
import type { KeyObject } from 'node:crypto';
import type { SuiteConfig } from '../lib/env.ts';
import { unwritableReason } from '../lib/make-directory.ts';
import { DISCOVERY_PATH, readDiscovery } from '../lib/observe/discovery.ts';
import type { DiscoveryResult } from '../lib/observe/discovery.ts';
import { TransportError } from '../lib/observe/errors.ts';
import type { TransportErrorCode } from '../lib/observe/errors.ts';
import { speaksTls } from '../lib/observe/scheme-probe.ts';
import type { HostClient } from '../lib/observe/host-client.ts';
import { createHostClient, encodeRunId } from '../lib/observe/host-client.ts';
import { advertisedOptOuts, gateList } from '../lib/report/verify/advertised-opt-outs.ts';
import { lookUpKey, rawPublicKey, signingKeysOf } from '../lib/report/verify/signature.ts';

/** A run that cannot start; the CLI prints its message as one line and exits 2. */
export class PreflightError extends Refusal {
  override readonly name: string = 'PreflightError';
}

/** How long to wait between discovery attempts under --wait-for-host. */
const RETRY_MS = 500;

export interface PreflightOptions {
  /** Wait up to this many seconds for discovery to answer; absent: ask once. */
  readonly waitForHostS?: number;
  /** The --key-id the report will be signed under: discovery must publish it. */
  readonly keyId?: string;
  /** The --sign key: discovery must publish its public half under keyId. */
  readonly signingKey?: KeyObject;
  readonly log: (line: string) => void;
}

/**
 * GITHUB_STEP_SUMMARY and GITHUB_OUTPUT, when set, take an append before any leg: the run writes
 * to them only at its end, and a file it cannot write there would throw the run's work away.
 */
export async function checkStepFiles(
  files: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  for (const [name, path] of Object.entries(files)) {
    if (path === undefined) continue;
    try {
      await appendFile(path, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new PreflightError(
        `${name} names ${path}, which cannot be written (${code}); point it at a writable file, or unset it`,
      );
    }
  }
}

export async function checkReportDir(dir: string): Promise<void> {
  const code = await unwritableReason(dir);
  if (code !== undefined) {
    throw new PreflightError(
      `the report directory ${dir} cannot be written (${code}); give OPENWOP_REPORT_DIR a writable directory`,
    );
  }
}

/**
 * Checks a remote host before the legs, and returns the discovery it read, which the run hands to
 * every leg; the embedded host (no base URL) needs none of this.
 */
export async function checkHost(
  config: SuiteConfig,
  options: PreflightOptions,
): Promise<DiscoveryResult | undefined> {
  const url = config.baseUrl;
  if (url === undefined) return undefined;
  if (config.apiKey === undefined) {
    throw new PreflightError(
      `no API key for ${url}: set OPENWOP_API_KEY (the runs the legs create are authenticated)`,
    );
  }
  // The run's own request deadline (10 s by default): discovery read here is the one the legs
  // use, so a slow but working host must not be refused for a shorter one.
  const client = createHostClient({
    baseUrl: url,
    apiKey: config.apiKey,
    requestTimeoutMs: config.bounds.requestTimeoutMs,
    maxBodyBytes: config.bounds.maxBodyBytes,
  });
  try {
    // The key probe goes out beside the first read of discovery, a round trip sooner. Under
    // --wait-for-host it follows discovery instead: a host still starting answers neither.
    const early = options.waitForHostS === undefined ? probeKey(client) : undefined;
    const discovery = await discoveryAnswers(client, url, options);
    // An unreadable discovery is the legs' to report; only a read one can lack the key.
    if (options.keyId !== undefined && options.signingKey !== undefined && discovery.ok) {
      const missing = unpublishedKey(discovery.document, options.keyId, options.signingKey);
      if (missing !== undefined)
        throw new PreflightError(
          `--key-id ${options.keyId}: ${missing} at ${url}${DISCOVERY_PATH}; publish the public half of --sign there under that id first, or sign with a key it publishes, so the report can verify as the host's`,
        );
    }
    if (discovery.ok) refuseAdvertisedOptOuts(config, url, discovery.document);
    keyAccepted(url, await (early ?? probeKey(client)));
    return discovery;
  } finally {
    await client.close();
  }
}

/**
 * Reads discovery, which the run that follows reuses. Under --wait-for-host an unanswered read is
 * asked again until the deadline.
 */
async function discoveryAnswers(
  client: HostClient,
  url: string,
  options: PreflightOptions,
): Promise<DiscoveryResult> {
  const waitMs = (options.waitForHostS ?? 0) * 1000;
  const deadline = Date.now() + waitMs;
  if (waitMs > 0) {
    options.log(`waiting up to ${options.waitForHostS} s for ${url}${DISCOVERY_PATH} to answer`);
  }
  for (;;) {
    const discovery = await readDiscovery(client);
    if (discovery.ok || discovery.unanswered !== true) return discovery;
    const mismatch = await schemeMismatch(url, discovery.transportCode);
    if (mismatch !== undefined) {
      throw new PreflightError(
        `the host at ${url} did not answer discovery (${discovery.reason}); ${mismatch}`,
      );
    }
    if (Date.now() + RETRY_MS >= deadline) {
      const waited = waitMs > 0 ? ` within ${options.waitForHostS} s` : '';
      throw new PreflightError(
        `the host at ${url} did not answer discovery${waited} (${discovery.reason}); check the URL and its scheme (http or https), or give --wait-for-host SECONDS`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * A strict run that opts out of a capability the host advertises would skip the legs that test
 * it and still be certifiable; lib/report/verify/advertised-opt-outs.ts says why that is refused.
 */
function refuseAdvertisedOptOuts(
  config: Pick<SuiteConfig, 'requireBehavior' | 'optedOut'>,
  url: string,
  document: unknown,
): void {
  if (!config.requireBehavior) return;
  const advertised = advertisedOptOuts(document, config.optedOut);
  if (advertised.length === 0) return;
  throw new PreflightError(
    `--opt-out ${gateList(advertised)}: the host at ${url}${DISCOVERY_PATH} advertises ${advertised.length === 1 ? 'that capability' : 'those capabilities'}, and an opt-out excuses only a capability the host lacks; run without ${advertised.length === 1 ? 'that opt-out' : 'those opt-outs'}, or stop advertising what the host does not do`,
  );
}

/** How long the one TLS handshake that tells an https port from a starting host may take. */
const TLS_PROBE_MS = 3000;

/**
 * Why waiting longer cannot help: the host is up but speaks another protocol than the URL's
 * scheme asks for, or refuses TLS. Undefined for anything a starting host also does.
 */
async function schemeMismatch(
  url: string,
  code: TransportErrorCode | undefined,
): Promise<string | undefined> {
  switch (code) {
    case 'tls-mismatch':
      return `if it serves plain HTTP, give ${url.replace(/^https:/, 'http:')}`;
    case 'tls-refused':
      return 'the host is up, but the TLS handshake failed; for an untrusted certificate, give NODE_EXTRA_CA_CERTS the CA that signed it';
    case 'not-http':
    case 'connection-reset':
      if (url.startsWith('http:') && (await speaksTls(url, TLS_PROBE_MS))) {
        return `TLS mismatch: the port speaks TLS; give ${url.replace(/^http:/, 'https:')}`;
      }
      return code === 'not-http' ? 'check the port: it answers, but not in HTTP' : undefined;
    default:
      return undefined;
  }
}

const KEY_PROBE_PATH = `/runs/${encodeRunId('openwop-eval-gate-preflight')}/eval-summary`;

/** One authenticated read of a run nobody made: its status, or what stopped it. Never rejects. */
async function probeKey(client: HostClient): Promise<{ status: number } | { error: unknown }> {
  try {
    return { status: (await client.get(KEY_PROBE_PATH)).status };
  } catch (error) {
    return { error };
  }
}

/** Any answer to the key probe but 401 means the key was accepted. */
function keyAccepted(url: string, probe: { status: number } | { error: unknown }): void {
  if ('error' in probe) {
    if (!(probe.error instanceof TransportError)) throw probe.error;
    throw new PreflightError(`the host at ${url} did not answer ${probe.error.message}`);
  }
  if (probe.status === 401) {
    throw new PreflightError(
      `the host at ${url} refused the API key (401 on GET ${KEY_PROBE_PATH}); check OPENWOP_API_KEY`,
    );
  }
}

/**
 * Why discovery does not vouch for reports signed with `key` under `keyId`, or undefined when it
 * does: the id must be listed, usable for certification, not retired, and hold the public half of
 * `key`. A run signed otherwise could never verify as the host's.
 */
export function unpublishedKey(
  document: unknown,
  keyId: string,
  key: KeyObject,
  now: string = new Date().toISOString(),
): string | undefined {
  const found = lookUpKey(signingKeysOf(document), keyId, now, 'discovery');
  if (!found.found) return found.why;
  if (found.publicKey !== rawPublicKey(key)) {
    return `discovery publishes another public key under ${keyId} than the public half of --sign`;
  }
  return undefined;
}
