// `verify REPORT --host URL --recheck [--recheck-sample N]`: the report, once it verifies, held to
// what the live host at URL answers now (lib/report/verify/rewitness.ts drives, lib/report/verify/recheck.ts
// compares). The API key is read from the environment and .env as `run` reads it, so the probes
// that need it are sent; the address is the certifier's (--host), never the report's.

import { randomInt } from 'node:crypto';
import { resolveConfig, type RawSettings } from '../lib/env.ts';
import { openTarget } from '../lib/decide/target.ts';
import type { RecheckOutcome } from '../lib/report/verify/recheck.ts';
import { recheckReason } from '../lib/report/verify/recheck.ts';
import { sidecarReader } from '../lib/report/generated-sidecar.ts';
import { MAX_RECHECK_SAMPLE, RECHECK_SAMPLE, rewitness } from '../lib/report/verify/rewitness.ts';
import { runVerdict } from '../lib/report/verdict/run-verdict.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { UsageError } from './args.ts';
import { recordedFixtureLoader } from './fixture-set.ts';
import type { AnchoredVerification } from './verify-keys.ts';

export interface RecheckOptions {
  readonly host: string;
  readonly sampleSize: number;
}

/** The recheck the flags ask for, undefined without --recheck; a usage error when it cannot run. */
export function recheckOptionsOf(
  options: Readonly<Record<string, string>>,
): RecheckOptions | undefined {
  const sample = options['recheck-sample'];
  if (options.recheck === undefined) {
    if (sample !== undefined) throw new UsageError('--recheck-sample goes with --recheck');
    return undefined;
  }
  const host = options.host;
  if (host === undefined) {
    throw new UsageError(
      '--recheck drives the live host again: give --host URL, the address you know the host at',
    );
  }
  let sampleSize = RECHECK_SAMPLE;
  if (sample !== undefined) {
    sampleSize = Number(sample);
    if (!/^\d+$/.test(sample) || sampleSize > MAX_RECHECK_SAMPLE) {
      throw new UsageError(
        `--recheck-sample takes how many generated cases to drive again, 0 to ${MAX_RECHECK_SAMPLE}, such as --recheck-sample ${RECHECK_SAMPLE}`,
      );
    }
  }
  return { host, sampleSize };
}

export interface Rechecked {
  readonly result: AnchoredVerification;
  readonly outcome: RecheckOutcome;
  readonly sampled: readonly string[];
}

/**
 * Drives the host at `options.host` again for a report that verifies, and withholds the
 * certification when it answers otherwise or cannot be seen. The configuration is checked first, so
 * a key that would travel unencrypted is one line and exit 2, never a request.
 */
export async function recheckVerified(
  result: Extract<AnchoredVerification, { kind: 'report' }>,
  options: RecheckOptions,
  raw: RawSettings,
  reportDir: string,
): Promise<Rechecked> {
  const config = resolveConfig({ ...raw, OPENWOP_BASE_URL: options.host });
  const target = await openTarget(config);
  // openTarget makes a target whenever a base URL is given, and one is.
  if (target === undefined) throw new UsageError('--recheck needs --host URL');
  try {
    const { report } = result;
    const { outcome, sampled } = await rewitness(report, {
      target: { client: target.client, discovery: target.discovery, bounds: config.bounds },
      url: options.host.replace(/\/+$/, ''),
      keyConfigured: config.apiKey !== undefined,
      loadFixture: recordedFixtureLoader(report.digests.fixtures),
      openSidecar: sidecarReader(reportDir),
      sampleSize: options.sampleSize,
      sampleSeed: randomInt(0x7fffffff),
    });
    const reason = recheckReason(outcome);
    if (reason === undefined) return { result, outcome, sampled };
    const before = result.anchored.certification;
    const certification = { ...before, certified: false, reasons: [...before.reasons, reason] };
    return {
      result: {
        ...result,
        anchored: { ...result.anchored, certification },
        verdict: runVerdict(report, certification),
      },
      outcome,
      sampled,
    };
  } finally {
    await target.client.close();
  }
}

/** verify's exit code under --recheck: a difference fails, an answer not seen now is blocked. */
export function recheckExit(outcome: RecheckOutcome, verified: number): number {
  if (verified !== EXIT.ok) return verified;
  if (outcome.kind === 'differs') return EXIT.failed;
  if (outcome.kind === 'unwitnessed') return EXIT.blocked;
  return EXIT.ok;
}
