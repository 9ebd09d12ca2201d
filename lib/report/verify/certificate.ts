// The certificate as a verifier states it: who vouches, for which address or binding, what it
// certifies, as of when. One function builds it, so every clause a verifier learns to state (what
// the evidence is: the host's own record, or re-witnessed at an address) is added in one place
// and reaches verify, badge, diff and matrix alike.

import type { RunVerdict } from '../verdict/run-verdict.ts';
import { implementationLabel } from '../verdict/certification.ts';
import { optOutClauses } from '../verdict/run-verdict.ts';
import type { Voucher } from './voucher.ts';

/** What a certificate rests on besides the verdict: its voucher and its date. */
export interface CertificateBasis {
  readonly voucher?: Voucher;
  /** `as of 2026-12-07T01:02:03.000Z, 3 days old` (lib/report/verify/report-time.ts). */
  readonly asOf: string;
}

/**
 * `certified: https://host advertising acme-host 1.2.0 (signed by key K; opted out: …), as of …`,
 * `certified: acme-host 1.2.0 under key K of the keyring F, bound to acme-host (…), as of …`, or
 * `not certified: A, B, as of …`. Certified only when the verdict is and a voucher names what.
 */
export function certificateClause(verdict: RunVerdict, basis: CertificateBasis): string {
  const c = verdict.certification;
  const { voucher } = basis;
  if (!c.certified || voucher?.certifies !== true) {
    const shorts = c.reasons.map((r) => r.short).join(', ');
    return `not certified: ${shorts === '' ? 'no key outside the report vouches for it' : shorts}, ${basis.asOf}`;
  }
  const label =
    verdict.implementation === undefined
      ? 'an unnamed implementation'
      : implementationLabel(verdict.implementation);
  const who =
    voucher.kind === 'address'
      ? `${voucher.url} advertising ${label}`
      : `${label} under key ${voucher.keyId} of ${voucher.source}, bound to ${voucher.implementation}`;
  const signer = c.signer.state === 'verified' ? `signed by key ${c.signer.keyId}` : 'signed';
  return `certified: ${who} (${[signer, ...optOutClauses(verdict)].join('; ')}), ${basis.asOf}`;
}
