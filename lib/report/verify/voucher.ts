// Who vouches for a report whose signature a source outside it bears out, and for what. A
// signature that verifies proves the report whole under that key; it names an implementation
// only when the certifier, not the report, tied the key to it: an address the certifier gave
// (--host URL), whose discovery publishes the key and advertises the implementation, or a keyring
// entry the certifier pinned with `implementation`. Everything else is integrity under that key:
// the address the report names (its author chose it), a key file and an unbound keyring entry
// (they bind no name), and a retired key (its retirement is dated, the report's date is the
// signer's to write). Pure: lib/report/verify/anchor.ts hands the anchor and the source in.

import type { CertificationReason, ReasonCode } from '../report.ts';

/** What lib/report/verify/anchor.ts found: the state of the anchor, and for a vouched one its key. */
export interface AnchorFacts {
  readonly state: string;
  readonly source: string;
  readonly keyId?: string;
  /** The implementation a keyring entry binds the key to. */
  readonly binding?: string;
  readonly retiredAt?: string;
}

/** The source a verifier read, as lib/report/verify/anchor.ts's TrustSource describes it. */
export type SourceFacts =
  | { readonly kind: 'key-file' | 'keyring' | 'none'; readonly name: string }
  | {
      readonly kind: 'live';
      readonly name: string;
      readonly url: string;
      readonly namedBy: 'certifier' | 'report';
    };

export type Voucher =
  /** A live discovery at an address the certifier gave. */
  | { readonly certifies: true; readonly kind: 'address'; readonly url: string }
  /** A keyring entry the certifier pinned to one implementation name. */
  | {
      readonly certifies: true;
      readonly kind: 'bound-key';
      readonly keyId: string;
      readonly source: string;
      readonly implementation: string;
    }
  /** Integrity under the key, and no implementation's certificate. */
  | {
      readonly certifies: false;
      readonly code: VoucherCode;
      /** The first words of verify's last line, with what to do. */
      readonly headline: string;
      readonly reason: CertificationReason;
    };

type VoucherCode = Extract<
  ReasonCode,
  'report-address' | 'key-file' | 'unbound-key' | 'retired-key'
>;

/**
 * What an anchored signature vouches for under `source` at `now`; undefined when the anchor
 * vouches for nothing (its own reasons say why).
 */
export function voucherOf(
  anchor: AnchorFacts,
  source: SourceFacts,
  now: number,
): Voucher | undefined {
  if (anchor.state !== 'anchored') return undefined;
  const key = anchor.keyId === undefined ? 'the key' : `key ${anchor.keyId}`;
  const retiredAt = anchor.retiredAt;
  if (retiredAt !== undefined && Date.parse(retiredAt) <= now) {
    return integrity(
      'retired-key',
      'key retired',
      `retired key: integrity only, ${key} of ${anchor.source} retired at ${retiredAt}; a retired key certifies nothing, whatever date the report carries`,
      `retired key: ${key} of ${anchor.source} retired at ${retiredAt}, and a retired key certifies nothing whatever date the report carries; certify a report signed with a current key`,
    );
  }
  switch (source.kind) {
    case 'key-file':
      return integrity(
        'key-file',
        'key file binds no implementation',
        `integrity under ${source.name}: a key file binds no implementation, so it certifies none; pin the key in a keyring entry with "implementation", or give --host URL`,
        `key file: ${source.name} binds no implementation; the signature attests integrity under that key, never a certificate; pin the key in a keyring entry with "implementation", or give --host URL`,
      );
    case 'keyring':
      if (anchor.binding === undefined || anchor.keyId === undefined) {
        return integrity(
          'unbound-key',
          'keyring entry binds no implementation',
          `integrity under ${key} of ${source.name}: the entry binds no implementation, so it certifies none; add "implementation" to the entry`,
          `unbound key: ${source.name} lists ${key} without "implementation", so it may vouch for any name; the signature attests integrity only; bind the entry to the implementation it certifies`,
        );
      }
      return {
        certifies: true,
        kind: 'bound-key',
        keyId: anchor.keyId,
        source: source.name,
        implementation: anchor.binding,
      };
    case 'live':
      if (source.namedBy === 'certifier') {
        return { certifies: true, kind: 'address', url: source.url };
      }
      return integrity(
        'report-address',
        'address chosen by the report',
        `report-chosen address: integrity only, ${key} is published at ${source.url}, the address the report names; anchor it with --host URL, an address you know is the host's, or --trusted-keys FILE`,
        `report-chosen address: ${key} is published at ${source.url}, which the report names and its author chose, so it says nothing of whose host that is; anchor it with --host URL, an address you know is the host's, or a keyring you pinned (--trusted-keys)`,
      );
    case 'none':
      return undefined;
  }
}

function integrity(code: VoucherCode, short: string, headline: string, text: string): Voucher {
  return { certifies: false, code, headline, reason: { code, short, text } };
}
