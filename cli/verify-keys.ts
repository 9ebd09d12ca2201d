// Which key a report's signature is checked with, and what the check came to: a key file given
// with --key, else the key the signature names in the discovery the report captured. The verdict
// on the signature is one of three: verified, integrity only (no usable key), or failed.

import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EvalGateReport } from '../lib/report/report.ts';
import { publishedKeyFor } from '../lib/report/published-key.ts';
import { certificationClause, runVerdict } from '../lib/report/run-verdict.ts';
import type { Verification } from './verify.ts';
import { reportShapeProblem, verifyReport } from './verify.ts';

export interface KeyedVerification extends Verification {
  /** One clause for the summary line: what the signature check came to. */
  readonly signature: string;
  /** Whether a usable key verified the signature; false when none was checked or it failed. */
  readonly signatureVerified: boolean;
  /** Whether the report carries a signature at all. */
  readonly signed: boolean;
  /** The certification clause the verified report renders; `not certified` when it failed. */
  readonly verdict: string;
}

/**
 * The first words of verify's summary line, so that a reader who stops there knows which of the
 * three outcomes holds: the signature verified, only the digests and verdicts held, or it failed.
 */
export function verifyHeadline(result: KeyedVerification): string {
  if (result.problems.length > 0) return 'FAILED';
  if (result.signatureVerified) return 'signature verified';
  return result.signed
    ? 'integrity only, signature not checked'
    : 'unsigned: integrity only, nobody vouches for it';
}

/** Reads and parses a report file. Throws when it cannot be read or is not JSON. */
export async function readReportFile(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

async function verifyOnly(
  parsed: unknown,
  given: KeyObject | undefined,
): Promise<Omit<KeyedVerification, 'verdict'>> {
  const shape = reportShapeProblem(parsed);
  if (shape !== undefined) {
    return {
      problems: [shape],
      signatureProblems: [],
      recomputed: 0,
      consistencyOnly: 0,
      signature: 'signature not checked',
      signatureVerified: false,
      signed: false,
    };
  }
  // The schema has accepted it, so it has the report's shape.
  const report = parsed as EvalGateReport;
  const signed = report.signature !== undefined;
  if (given !== undefined) {
    const result = await verifyReport(report, { key: given, name: 'the given public key' });
    return {
      ...result,
      signed,
      signatureVerified: signed && result.signatureProblems.length === 0,
      signature:
        result.signatureProblems.length === 0
          ? 'signature verified with the --key given'
          : 'signature FAILED with the --key given',
    };
  }
  const published = publishedKeyFor(report);
  if (!published.usable) {
    return {
      ...(await verifyReport(report)),
      signed,
      signatureVerified: false,
      signature: `integrity only, no usable key: ${published.why}`,
    };
  }
  const name = `key ${published.keyId} as the captured discovery publishes it`;
  const result = await verifyReport(report, { key: published.key, name });
  return {
    ...result,
    signed,
    signatureVerified: result.signatureProblems.length === 0,
    signature:
      result.signatureProblems.length === 0
        ? `signature verified against the host's published key ${published.keyId} (from the discovery this report captured)`
        : `signature FAILED against the host's published key ${published.keyId}`,
  };
}

/**
 * Verifies a report and renders its certification. An edited certification is one of the
 * problems (cli/verify-run-record.ts rebuilds it), so a report that fails is never certified.
 */
export async function verifyWithKeys(
  parsed: unknown,
  given: KeyObject | undefined,
): Promise<KeyedVerification> {
  const result = await verifyOnly(parsed, given);
  const verdict =
    result.problems.length > 0
      ? 'not certified: the report does not verify'
      : certificationClause(runVerdict(parsed as EvalGateReport));
  return { ...result, verdict };
}
