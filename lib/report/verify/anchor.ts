// Who vouches for a report, decided by a verifier from a source the report cannot rewrite: the
// live discovery of the host the report is about, a keyring the certifier pinned, or a key file.
// The discovery a report captured is inside the report, so whoever can rewrite the report can
// rewrite it too: a key found there proves the report is whole, never who signed it.
//
// Upstream's rule (docs/report.md#verifying-a-report): the key id is resolved in the discovery of
// the host the evidence is about; a signature that resolves to no published key attests integrity
// only; and three outcomes stay apart: no discovery was read (unanchored), it was read and does
// not publish the key (unattributed), the signature does not verify under the key it publishes
// (invalid). Pure: the CLI reads the source (cli/trust-source.ts) and hands it here.

import type { KeyObject } from 'node:crypto';
import { advertisedImplementation } from '../../observe/discovery.ts';
import { certifiedImplementation, implementationLabel } from '../verdict/certification.ts';
import type { Referee } from './referee.ts';
import { differentReferee } from './referee.ts';
import type { Certification, CertificationReason, EvalGateReport } from '../report.ts';
import { advertisedOptOuts, gateList } from './advertised-opt-outs.ts';
import type { ReportTime, VerifierClock } from './report-time.ts';
import { reportTime } from './report-time.ts';
import { checkSignature, lookUpKey, signingKeysOf } from './signature.ts';
import type { Voucher } from './voucher.ts';
import { voucherOf } from './voucher.ts';

/** Where a verifier looks for the key, as read; `name` says where in every line. */
export type TrustSource =
  | { readonly kind: 'key-file'; readonly name: string; readonly key: KeyObject }
  | { readonly kind: 'keyring'; readonly name: string; readonly keys: readonly unknown[] }
  | {
      readonly kind: 'live';
      readonly name: string;
      readonly url: string;
      /**
       * Who named the address: the certifier (--host), or the report (its `target.baseUrl`),
       * which whoever wrote the report chose and so cannot say whose host it is.
       */
      readonly namedBy: 'certifier' | 'report';
      readonly read:
        | { readonly ok: true; readonly document: unknown }
        | { readonly ok: false; readonly why: string };
    }
  /** Nothing outside the report was consulted: --offline, or a report of the embedded host. */
  | { readonly kind: 'none'; readonly name: string };

export type Anchor =
  | { readonly state: 'unsigned'; readonly source: string }
  | {
      readonly state: 'anchored';
      readonly source: string;
      readonly keyId?: string;
      /** The implementation a keyring entry binds the key to. */
      readonly binding?: string;
      /** When the source says the key retired (after the report's date). */
      readonly retiredAt?: string;
    }
  /** No source outside the report could be read: integrity only. */
  | { readonly state: 'unanchored'; readonly source: string; readonly why: string }
  /** The source was read and does not publish the key (or not for this report): integrity only. */
  | { readonly state: 'unattributed'; readonly source: string; readonly why: string }
  /** The source publishes the key and the signature does not verify under it. */
  | { readonly state: 'invalid'; readonly source: string; readonly why: string };

/**
 * What the signature of `report` comes to against `source`; `digest` is the report's when the
 * caller has taken it. Never throws.
 */
export function anchorSignature(
  report: EvalGateReport,
  source: TrustSource,
  digest?: string,
): Anchor {
  const where = source.name;
  const signature = report.signature;
  if (signature === undefined) {
    // A certifier who hands over a key expects a signature; a keyring or a live host does not.
    return source.kind === 'key-file'
      ? { state: 'invalid', source: where, why: 'the report is unsigned but a key was given' }
      : { state: 'unsigned', source: where };
  }
  if (source.kind === 'none') return { state: 'unanchored', source: where, why: where };
  if (source.kind === 'key-file') return checked(report, source.key, where, undefined, digest);
  if (source.kind === 'live' && !source.read.ok) {
    return {
      state: 'unanchored',
      source: where,
      why: `no discovery was read: ${where} could not be read (${source.read.why})`,
    };
  }
  const keyId = signature.keyId;
  if (keyId === undefined) {
    return {
      state: 'unattributed',
      source: where,
      why: 'the signature names no key id, so no published key applies',
    };
  }
  let keys: unknown;
  if (source.kind === 'keyring') keys = source.keys;
  else if (source.read.ok) keys = signingKeysOf(source.read.document);
  const found = lookUpKey(keys, keyId, report.finishedAt, where);
  if (!found.found) return { state: 'unattributed', source: where, why: found.why };
  const named = certifiedImplementation(report.target)?.name;
  if (found.implementation !== undefined && found.implementation !== named) {
    return {
      state: 'unattributed',
      source: where,
      why: `${where} binds key ${keyId} to ${found.implementation}, but the report certifies ${named ?? 'no named implementation'}`,
    };
  }
  const anchor = checked(report, found.key, where, keyId, digest);
  return anchor.state === 'anchored'
    ? {
        ...anchor,
        ...(found.implementation === undefined ? {} : { binding: found.implementation }),
        ...(found.retiredAt === undefined ? {} : { retiredAt: found.retiredAt }),
      }
    : anchor;
}

function checked(
  report: EvalGateReport,
  key: KeyObject,
  where: string,
  keyId: string | undefined,
  digest: string | undefined,
): Anchor {
  const name = keyId === undefined ? where : `key ${keyId} of ${where}`;
  const problems = checkSignature(report, key, name, digest);
  if (problems.length > 0) return { state: 'invalid', source: where, why: problems.join('; ') };
  return { state: 'anchored', source: where, ...(keyId === undefined ? {} : { keyId }) };
}

/** One line for the anchor, each of the outcomes in words of its own. */
export function anchorLine(anchor: Anchor): string {
  switch (anchor.state) {
    case 'unsigned':
      return 'unsigned: nobody vouches for the report';
    case 'anchored':
      return `vouched for by ${anchor.keyId === undefined ? '' : `key ${anchor.keyId} of `}${anchor.source}`;
    case 'unanchored':
      return `unanchored: ${anchor.why}; the signature attests integrity only`;
    case 'unattributed':
      return `unattributed: ${anchor.why}; the signature attests integrity only`;
    case 'invalid':
      return `signature INVALID: ${anchor.why}`;
  }
}

/** Why the live host's advertised version is not the one the report certifies, if it is not. */
export function staleVersion(report: EvalGateReport, source: TrustSource): string | undefined {
  if (source.kind !== 'live' || !source.read.ok) return undefined;
  const live = advertisedImplementation(source.read.document);
  const certified = certifiedImplementation(report.target);
  if (live === undefined || certified === undefined) return undefined;
  if (live.name === certified.name && live.version === certified.version) return undefined;
  return `the report certifies ${implementationLabel(certified)}, and ${source.name} now advertises ${implementationLabel(live)}`;
}

export interface AnchoredVerdict {
  readonly anchor: Anchor;
  /** Who vouches and for what, when the anchor bears the signature out (lib/report/verify/voucher.ts). */
  readonly voucher?: Voucher;
  /** The report's date and age, and whether its date refuses or withholds it. */
  readonly time: ReportTime;
  /** Why another suite judged the report, or undefined when this one did. */
  readonly referee?: string;
  readonly stale?: string;
  /** The run's recorded certification with the verifier's own reasons added. */
  readonly certification: Certification;
}

/** What the verifier brings besides the source: its referee and its clock. */
export interface VerifierContext extends VerifierClock {
  readonly referee: Referee;
  /** The report's schema and fixture digests that are not this suite's (cli/verify.ts). */
  readonly refereeDifferences?: readonly string[];
  /** The report's digest when verify has already taken it, so the signature check does not again. */
  readonly reportDigest?: string;
}

/**
 * The certification a verifier stands behind: the one the run recorded (already rebuilt and
 * matched by verify), withheld when no key outside the report vouches, when the key that does
 * binds no implementation, when another suite judged the report, when the live host now
 * advertises another implementation or version, when the report is older than --max-age, and
 * when the run opted out of a capability its captured discovery advertises.
 */
export function anchoredVerdict(
  report: EvalGateReport,
  recorded: Certification,
  source: TrustSource,
  context: VerifierContext,
): AnchoredVerdict {
  const anchor = anchorSignature(report, source, context.reportDigest);
  const voucher = voucherOf(anchor, source, context.now);
  const time = reportTime(report.finishedAt, context);
  const referee =
    differentReferee(report.suite, context.referee) ?? otherFiles(context.refereeDifferences ?? []);
  const stale = staleVersion(report, source);
  const reasons: CertificationReason[] = [
    ...recorded.reasons,
    ...anchorReasons(anchor),
    ...(voucher?.certifies === false ? [voucher.reason] : []),
    ...claimReasons(report),
  ];
  if (referee !== undefined) {
    reasons.push({
      code: 'different-referee',
      short: 'different referee',
      text: `different referee: ${referee}; verify it with the suite that judged it, or run this one`,
    });
  }
  if (stale !== undefined) {
    reasons.push({
      code: 'stale-version',
      short: 'stale version',
      text: `stale: ${stale}; certify the version the host runs`,
    });
  }
  if (time.tooOld !== undefined) {
    reasons.push({
      code: 'report-too-old',
      short: 'report too old',
      text: `stale: ${time.tooOld}; run the suite again`,
    });
  }
  return {
    anchor,
    ...(voucher === undefined ? {} : { voucher }),
    time,
    ...(referee === undefined ? {} : { referee }),
    ...(stale === undefined ? {} : { stale }),
    certification: { ...recorded, certified: reasons.length === 0, reasons },
  };
}

/** An opt-out the captured discovery contradicts: the signer wrote it, the host advertises the capability. */
function claimReasons(report: EvalGateReport): CertificationReason[] {
  if (!report.strict || !report.discovery.ok) return [];
  let document: unknown;
  try {
    document = JSON.parse(report.discovery.text);
  } catch {
    return [];
  }
  const advertised = advertisedOptOuts(document, report.optedOut);
  if (advertised.length === 0) return [];
  return [
    {
      code: 'opted-out-advertised',
      short: 'opted out of an advertised capability',
      text: `opted out of an advertised capability: the run opted out of ${gateList(advertised)}, which the captured discovery advertises; an opt-out excuses only a capability the host lacks, so run without it`,
    },
  ];
}

function otherFiles(differences: readonly string[]): string | undefined {
  const [first] = differences;
  if (first === undefined) return undefined;
  const more = differences.length - 1;
  return `judged with schemas or fixtures other than this suite's (${first}${more > 0 ? `; and ${more} more` : ''})`;
}

function anchorReasons(anchor: Anchor): CertificationReason[] {
  switch (anchor.state) {
    case 'unsigned':
    case 'anchored':
      return [];
    case 'unanchored':
      return [
        {
          code: 'unanchored',
          short: 'unanchored',
          text: `unanchored: ${anchor.why}, so no key outside the report vouches for it; verify while the host answers, or give --trusted-keys`,
        },
      ];
    case 'unattributed':
      return [
        {
          code: 'unattributed',
          short: 'key not published',
          text: `unattributed: ${anchor.why}; a signature no published key bears out attests integrity only`,
        },
      ];
    case 'invalid':
      return [
        {
          code: 'signature-invalid',
          short: 'signature invalid',
          text: `signature invalid: ${anchor.why}`,
        },
      ];
  }
}
