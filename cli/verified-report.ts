// A report file that `diff` and `badge` may use: read, parsed, checked with verify's own
// recomputation, and anchored. One that does not verify is refused with its path and its first
// problem, since a comparison or a badge built on an edited report would launder the edit; one
// that verifies comes with the verdict a verifier stands behind, never the one it claims.

import { dirname } from 'node:path';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { RunVerdict } from '../lib/report/run-verdict.ts';
import { UsageError } from './args.ts';
import type { TrustSources } from './trust-source.ts';
import { problemsOf, readReportFile, verifyAnchored } from './verify-keys.ts';

/** A report file's JSON; an unreadable or non-JSON file is a usage error naming the path. */
export async function readReportJson(path: string): Promise<unknown> {
  try {
    return await readReportFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === undefined
        ? `the report ${path} is not JSON`
        : `the report ${path} could not be read (${code})`,
    );
  }
}

export interface VerifiedReport {
  readonly report: EvalGateReport;
  /** The anchored verdict: its certification holds only where a key outside the report vouches. */
  readonly verdict: RunVerdict;
}

export async function readVerifiedReport(
  path: string,
  command: string,
  sources: TrustSources,
): Promise<VerifiedReport> {
  const result = await verifyAnchored(await readReportJson(path), sources, dirname(path));
  const problems = problemsOf(result);
  const [first] = problems;
  if (first !== undefined || result.kind === 'malformed') {
    const more = problems.length - 1;
    throw new UsageError(
      `the report ${path} does not verify, so ${command} refuses it: ${first ?? ''}` +
        (more > 0 ? ` (and ${more} more; openwop-eval-gate verify ${path} lists them)` : ''),
    );
  }
  return { report: result.report, verdict: result.verdict };
}
