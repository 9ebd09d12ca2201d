// A report file that `diff` and `badge` may use: read, parsed, checked with verify's own
// recomputation, and anchored. One that does not verify is refused with its path and its first
// problem, since a comparison or a badge built on an edited report would launder the edit; one
// that verifies comes with the verdict a verifier stands behind, never the one it claims.

import { dirname } from 'node:path';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { DecidedCasesByRow } from '../lib/types.ts';
import type { RunVerdict } from '../lib/report/verdict/run-verdict.ts';
import { UsageError } from './args.ts';
import type { TrustSources } from './trust-source.ts';
import { problemsOf, verifyAnchored } from './verify-keys.ts';
import { DEFAULT_INPUT_LIMITS, readBoundedJson, type InputLimits } from '../lib/bounded-input.ts';

/**
 * A report file's JSON, read within the input limits; an unreadable, oversized, too deeply
 * nested or non-JSON file is refused in one line naming the path (and the limit's flag).
 */
export async function readReportJson(
  path: string,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): Promise<unknown> {
  return readBoundedJson(path, 'report', limits);
}

export interface VerifiedReport {
  readonly report: EvalGateReport;
  /** The anchored verdict: its certification holds only where a key outside the report vouches. */
  readonly verdict: RunVerdict;
  /** The failing generated cases a page opens, as the verification decided them again. */
  readonly decidedCases: DecidedCasesByRow;
}

export async function readVerifiedReport(
  path: string,
  command: string,
  sources: TrustSources,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): Promise<VerifiedReport> {
  const parsed = await readReportJson(path, limits);
  const result = await verifyAnchored(parsed, sources, dirname(path), limits);
  const problems = problemsOf(result);
  const [first] = problems;
  if (first !== undefined || result.kind === 'malformed') {
    const more = problems.length - 1;
    throw new UsageError(
      `the report ${path} does not verify, so ${command} refuses it: ${first ?? ''}` +
        (more > 0 ? ` (and ${more} more; openwop-eval-gate verify ${path} lists them)` : ''),
    );
  }
  return {
    report: result.report,
    verdict: result.verdict,
    decidedCases: result.integrity.decidedCases,
  };
}
