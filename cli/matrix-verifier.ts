// The matrix's one verification, verify's own: digests and verdicts recomputed, the signature
// anchored outside the report (live discovery, a pinned keyring, a key file). Verified means a
// key outside the report vouches; a report that recomputes but that no such key vouches for
// (unsigned, unanchored, unattributed) is unanchored; one another suite judged is a different
// referee; anything else, an invalid signature included, is unverified.

import { dirname } from 'node:path';
import type { MatrixVerifier, ReportVerification } from '../lib/report/render/matrix/model.ts';
import type { TrustSources } from './trust-source.ts';
import { inCurrentShape } from '../lib/report/verify/earlier-referee.ts';
import { readReportJson } from './verified-report.ts';
import { DEFAULT_INPUT_LIMITS, InputRefusal, type InputLimits } from '../lib/bounded-input.ts';
import { problemsOf, verifyAnchored } from './verify-keys.ts';

export function anchoredVerifier(
  sources: TrustSources,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): MatrixVerifier {
  return async (path): Promise<ReportVerification> => {
    let parsed: unknown;
    try {
      parsed = await readReportJson(path, limits);
    } catch (error) {
      // A file that cannot be read is one column that says why; the other reports still show.
      if (!(error instanceof InputRefusal)) throw error;
      return { state: 'unverified', report: error.message, problems: [error.message] };
    }
    const result = await verifyAnchored(parsed, sources, dirname(path), limits);
    const problems = problemsOf(result);
    // The matrix reads the current shape: a member an earlier schema did not require reads as its
    // absence meant (lib/report/verify/earlier-referee.ts); the verification judged the file as written.
    const report = inCurrentShape(parsed);
    if (result.kind === 'malformed' || problems.length > 0) {
      return { state: 'unverified', report, problems: [...problems] };
    }
    const { anchor, referee } = result.anchored;
    // What every verification that recomputed stands behind: the report, the certification, and
    // the generated cases its page shows as verify decided them again.
    const recomputed = {
      report,
      certification: result.verdict.certification,
      decidedCases: result.integrity.decidedCases,
    };
    if (referee !== undefined) {
      return { state: 'different-referee', problems: [referee], ...recomputed };
    }
    switch (anchor.state) {
      case 'anchored':
        return {
          state: 'verified',
          problems: [],
          anchor:
            anchor.keyId === undefined ? anchor.source : `key ${anchor.keyId} at ${anchor.source}`,
          ...recomputed,
        };
      case 'unsigned':
        return {
          state: 'unanchored',
          problems: ['unsigned: nobody vouches for it'],
          ...recomputed,
        };
      default:
        return { state: 'unanchored', problems: [`${anchor.state}: ${anchor.why}`], ...recomputed };
    }
  };
}
