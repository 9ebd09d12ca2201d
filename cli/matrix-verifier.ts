// The matrix's one verification, verify's own: digests and verdicts recomputed, the signature
// anchored outside the report (live discovery, a pinned keyring, a key file). Verified means a
// key outside the report vouches; a report that recomputes but that no such key vouches for
// (unsigned, unanchored, unattributed) is unanchored; one another suite judged is a different
// referee; anything else, an invalid signature included, is unverified.

import { dirname } from 'node:path';
import type { MatrixVerifier, ReportVerification } from '../lib/report/matrix/model.ts';
import type { TrustSources } from './trust-source.ts';
import { inCurrentShape } from '../lib/report/earlier-referee.ts';
import { readReportJson } from './verified-report.ts';
import { problemsOf, verifyAnchored } from './verify-keys.ts';

export function anchoredVerifier(sources: TrustSources): MatrixVerifier {
  return async (path): Promise<ReportVerification> => {
    const parsed = await readReportJson(path);
    const result = await verifyAnchored(parsed, sources, dirname(path));
    const problems = problemsOf(result);
    // The matrix reads the current shape: a member an earlier schema did not require reads as its
    // absence meant (lib/report/earlier-referee.ts); the verification judged the file as written.
    const report = inCurrentShape(parsed);
    if (result.kind === 'malformed' || problems.length > 0) {
      return { state: 'unverified', report, problems: [...problems] };
    }
    const { anchor, referee } = result.anchored;
    const certification = result.verdict.certification;
    if (referee !== undefined) {
      return { state: 'different-referee', report, problems: [referee], certification };
    }
    switch (anchor.state) {
      case 'anchored':
        return {
          state: 'verified',
          report,
          problems: [],
          anchor:
            anchor.keyId === undefined ? anchor.source : `key ${anchor.keyId} at ${anchor.source}`,
          certification,
        };
      case 'unsigned':
        return {
          state: 'unanchored',
          report,
          problems: ['unsigned: nobody vouches for it'],
          certification,
        };
      default:
        return {
          state: 'unanchored',
          report,
          problems: [`${anchor.state}: ${anchor.why}`],
          certification,
        };
    }
  };
}
