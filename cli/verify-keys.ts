// Which key a report's signature is checked with, and what the check came to: a key file given
// with --key, else the key the signature names in the discovery the report captured. The verdict
// on the signature is one of three: verified, integrity only (no usable key), or failed.

import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EvalGateReport } from '../lib/report/report.ts';
import { publishedKeyFor } from './published-key.ts';
import { checkSignature } from '../lib/report/signing.ts';
import type { Verification } from './verify.ts';
import { verifyReport } from './verify.ts';

export interface KeyedVerification extends Verification {
  /** One clause for the summary line: what the signature check came to. */
  readonly signature: string;
  readonly signatureVerdict: 'verified' | 'integrity-only' | 'failed';
}

/** Reads and parses a report file. Throws when it cannot be read or is not JSON. */
export async function readReportFile(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

export async function verifyWithKeys(
  parsed: unknown,
  given: KeyObject | undefined,
): Promise<KeyedVerification> {
  const base = await verifyReport(parsed, given);
  const signatureProblems = base.problems.filter((p) => p.startsWith('signature'));
  if (given !== undefined) {
    return signatureProblems.length === 0
      ? {
          ...base,
          signatureVerdict: 'verified',
          signature: 'signature verified with the --key given',
        }
      : { ...base, signatureVerdict: 'failed', signature: 'signature FAILED with the --key given' };
  }
  // The schema accepted the report before any row was checked; otherwise say nothing of keys.
  if (base.recomputed + base.consistencyOnly === 0 && base.problems.length > 0) {
    return { ...base, signatureVerdict: 'failed', signature: 'signature not checked' };
  }
  const report = parsed as EvalGateReport;
  const published = publishedKeyFor(report);
  if (!published.usable) {
    return {
      ...base,
      signatureVerdict: signatureProblems.length === 0 ? 'integrity-only' : 'failed',
      signature: `integrity only, no usable key: ${published.why}`,
    };
  }
  const name = `key ${published.keyId} as the captured discovery publishes it`;
  const problems = checkSignature(report, published.key, name);
  // verifyReport already compared reportDigest; keep that problem once.
  const fresh = problems.filter((p) => !base.problems.includes(p));
  return problems.length === 0
    ? {
        ...base,
        signatureVerdict: 'verified',
        signature: `signature verified against the host's published key ${published.keyId} (from the discovery this report captured)`,
      }
    : {
        ...base,
        problems: [...base.problems, ...fresh],
        signatureVerdict: 'failed',
        signature: `signature FAILED against the host's published key ${published.keyId}`,
      };
}
