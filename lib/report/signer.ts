// Who vouches for a report: nobody (unsigned), a signature no published key verifies, or the key
// the host publishes in its discovery `signingKeys`. The certification verdict reads this, and
// `verify` rebuilds it the same way, so a report cannot claim a signer it does not have.

import type { KeyObject } from 'node:crypto';
import { withCertification } from './certification.ts';
import type { EvalGateReport, Signer } from './report.ts';
import { publishedKeyFor } from './published-key.ts';
import { checkSignature, signReport } from './signing.ts';

export const UNSIGNED: Signer = { state: 'unsigned' };

/** What the report's signature comes to against the key its captured discovery publishes. */
export function signerOf(report: EvalGateReport): Signer {
  if (report.signature === undefined) return UNSIGNED;
  const published = publishedKeyFor(report);
  if (!published.usable) return { state: 'unverified', why: published.why };
  const problems = checkSignature(report, published.key, `published key ${published.keyId}`);
  if (problems.length > 0) return { state: 'unverified', why: problems.join('; ') };
  return { state: 'verified', keyId: published.keyId };
}

/**
 * The report with its certification, signed when a key is given. The signature covers the
 * certification, so the report is signed as verified first; when the host's published key does
 * not bear that out, it is signed again with the reason recorded.
 */
export function certifiedReport(
  unsigned: EvalGateReport,
  key: KeyObject | undefined,
  keyId?: string,
): EvalGateReport {
  if (key === undefined) return withCertification(unsigned, UNSIGNED);
  const hoped = signReport(
    withCertification(unsigned, { state: 'verified', keyId: keyId ?? '' }),
    key,
    keyId,
  );
  const signer = signerOf(hoped);
  if (signer.state === 'verified') return hoped;
  return signReport(withCertification(unsigned, signer), key, keyId);
}
