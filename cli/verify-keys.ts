// A report verified and anchored: its digests and verdicts recomputed (cli/verify.ts), then its
// signature resolved in a source outside the report (cli/trust-source.ts, lib/report/verify/anchor.ts),
// and the one verdict a verifier stands behind built from both. verify, badge, diff and every
// other command that reads a certification take this verdict, never the one the report claims.

import type { InputLimits } from '../lib/bounded-input.ts';
import type { SidecarProgress } from '../lib/report/generated-sidecar.ts';
import type { AnchoredVerdict } from '../lib/report/verify/anchor.ts';
import { anchoredVerdict, anchorLine } from '../lib/report/verify/anchor.ts';
import { thisReferee } from '../lib/report/verify/referee.ts';
import { inCurrentShape } from '../lib/report/verify/earlier-referee.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { RunVerdict } from '../lib/report/verdict/run-verdict.ts';
import { runVerdict, UNRECORDED } from '../lib/report/verdict/run-verdict.ts';
import { certificateClause } from '../lib/report/verify/certificate.ts';
import type { TrustSources } from './trust-source.ts';
import type { Verification } from './verify.ts';
import { reportShapeProblem, verifyReport } from './verify.ts';

export type AnchoredVerification =
  /** Not a report: the schema refuses it. */
  | { readonly kind: 'malformed'; readonly problems: readonly string[] }
  | {
      readonly kind: 'report';
      readonly report: EvalGateReport;
      readonly integrity: Verification;
      readonly anchored: AnchoredVerdict;
      /** The run's verdict with the certification this verifier stands behind. */
      readonly verdict: RunVerdict;
    };

/**
 * Every problem that fails verification: integrity, a signature its anchor refutes, and a date
 * after the verifier's clock.
 */
export function problemsOf(result: AnchoredVerification): readonly string[] {
  if (result.kind === 'malformed') return result.problems;
  const { anchor, time } = result.anchored;
  return [
    ...result.integrity.problems,
    ...(anchor.state === 'invalid' ? [anchorLine(anchor)] : []),
    ...(time.future === undefined ? [] : [time.future]),
  ];
}

/**
 * The first words of verify's summary line: which outcome holds, so a reader who stops there
 * knows whether the report is certified (and by whom, for what, as of when), whole but vouched
 * for by nobody who names an implementation, or refused.
 */
export function verifyHeadline(result: AnchoredVerification): string {
  if (problemsOf(result).length > 0 || result.kind === 'malformed') return 'FAILED';
  const { anchored } = result;
  if (result.verdict.certification.certified) return anchoredClause(result);
  const { voucher } = anchored;
  switch (anchored.anchor.state) {
    case 'unsigned':
      return `unsigned: integrity only, nobody vouches for it, ${anchored.time.asOf}`;
    case 'unanchored':
      return `unanchored: integrity only, no key outside the report vouches for it, ${anchored.time.asOf}`;
    case 'unattributed':
      // The anchor's own why, as the anchor line states it: a key bound to another
      // implementation is published, and a keyring is not the host.
      return `unattributed: integrity only, ${anchored.anchor.why}, ${anchored.time.asOf}`;
    default:
      if (voucher?.certifies === false) return `${voucher.headline}, ${anchored.time.asOf}`;
      if (anchored.time.tooOld !== undefined) return `stale: ${anchored.time.tooOld}`;
      return anchored.referee === undefined
        ? `verified, not certified, ${anchored.time.asOf}`
        : `different referee: verified, not certified by this verifier, ${anchored.time.asOf}`;
  }
}

/** The certificate this verifier states, or why a refused report certifies nothing. */
export function anchoredClause(result: AnchoredVerification): string {
  if (problemsOf(result).length > 0 || result.kind === 'malformed') {
    return 'not certified: the report does not verify';
  }
  const { voucher, time } = result.anchored;
  return certificateClause(result.verdict, {
    ...(voucher === undefined ? {} : { voucher }),
    asOf: time.asOf,
  });
}

export async function verifyAnchored(
  parsed: unknown,
  sources: TrustSources,
  /** The report's folder, where a generated pack's sidecar sits. */
  reportDir?: string,
  limits?: InputLimits,
  progress?: SidecarProgress,
): Promise<AnchoredVerification> {
  const shape = reportShapeProblem(parsed);
  if (shape !== undefined) return { kind: 'malformed', problems: [shape] };
  // The schema has accepted it, so it has the report's shape.
  const report = parsed as EvalGateReport;
  const [integrity, source, referee] = await Promise.all([
    verifyReport(report, reportDir, limits, progress),
    sources.for(report),
    thisReferee(),
  ]);
  // verifyReport has rebuilt the recorded certification and named any difference, so the
  // recorded one is the run's claim as the rows bear it out.
  const recorded = report.certification ?? UNRECORDED;
  const anchored = anchoredVerdict(report, recorded, source, {
    referee,
    refereeDifferences: integrity.refereeDifferences,
    ...(integrity.reportDigest === undefined ? {} : { reportDigest: integrity.reportDigest }),
    now: sources.now(),
    ...(sources.maxAgeDays === undefined ? {} : { maxAgeDays: sources.maxAgeDays }),
  });
  return {
    kind: 'report',
    // Readers downstream take the current shape: a member an earlier schema did not require reads
    // as its absence meant (lib/report/verify/earlier-referee.ts); integrity and the anchor judged the
    // report as written.
    report: inCurrentShape(report) as EvalGateReport,
    integrity,
    anchored,
    verdict: runVerdict(report, anchored.certification),
  };
}
