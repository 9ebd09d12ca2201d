// A report verified and anchored: its digests and verdicts recomputed (cli/verify.ts), then its
// signature resolved in a source outside the report (cli/trust-source.ts, lib/report/anchor.ts),
// and the one verdict a verifier stands behind built from both. verify, badge, diff and every
// other command that reads a certification take this verdict, never the one the report claims.

import { readFile } from 'node:fs/promises';
import type { AnchoredVerdict } from '../lib/report/anchor.ts';
import { anchoredVerdict, anchorLine } from '../lib/report/anchor.ts';
import { inCurrentShape } from '../lib/report/earlier-referee.ts';
import { thisReferee } from '../lib/report/referee.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { RunVerdict } from '../lib/report/run-verdict.ts';
import { certificationClause, runVerdict, UNRECORDED } from '../lib/report/run-verdict.ts';
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

/** Every problem that fails verification: integrity, and a signature its anchor refutes. */
export function problemsOf(result: AnchoredVerification): readonly string[] {
  if (result.kind === 'malformed') return result.problems;
  const { anchor } = result.anchored;
  return anchor.state === 'invalid'
    ? [...result.integrity.problems, anchorLine(anchor)]
    : result.integrity.problems;
}

/**
 * The first words of verify's summary line: which outcome holds, so a reader who stops there
 * knows whether the report is certified, whole but vouched for by nobody, or refused.
 */
export function verifyHeadline(result: AnchoredVerification): string {
  if (problemsOf(result).length > 0 || result.kind === 'malformed') return 'FAILED';
  if (result.verdict.certification.certified) return 'certified';
  switch (result.anchored.anchor.state) {
    case 'unsigned':
      return 'unsigned: integrity only, nobody vouches for it';
    case 'unanchored':
      return 'unanchored: integrity only, no key outside the report vouches for it';
    case 'unattributed':
      return 'unattributed: integrity only, the host does not publish the signing key';
    default:
      return result.anchored.referee === undefined
        ? 'verified, not certified'
        : 'different referee: verified, not certified by this verifier';
  }
}

/** The certification clause of the anchored verdict, or why a refused report certifies nothing. */
export function anchoredClause(result: AnchoredVerification): string {
  return problemsOf(result).length > 0 || result.kind === 'malformed'
    ? 'not certified: the report does not verify'
    : certificationClause(result.verdict);
}

/** Reads and parses a report file. Throws when it cannot be read or is not JSON. */
export async function readReportFile(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

export async function verifyAnchored(
  parsed: unknown,
  sources: TrustSources,
  /** The report's folder, where a generated pack's sidecar sits. */
  reportDir?: string,
): Promise<AnchoredVerification> {
  const shape = reportShapeProblem(parsed);
  if (shape !== undefined) return { kind: 'malformed', problems: [shape] };
  // The schema has accepted it, so it has the report's shape.
  const report = parsed as EvalGateReport;
  const [integrity, source, referee] = await Promise.all([
    verifyReport(report, reportDir),
    sources.for(report),
    thisReferee(),
  ]);
  // verifyReport has rebuilt the recorded certification and named any difference, so the
  // recorded one is the run's claim as the rows bear it out.
  const recorded = report.certification ?? UNRECORDED;
  const anchored = anchoredVerdict(report, recorded, source, referee, integrity.refereeDifferences);
  return {
    kind: 'report',
    // Readers downstream take the current shape: a member an earlier schema did not require reads
    // as its absence meant (lib/report/earlier-referee.ts); integrity and the anchor judged the
    // report as written.
    report: inCurrentShape(report) as EvalGateReport,
    integrity,
    anchored,
    verdict: runVerdict(report, anchored.certification),
  };
}
