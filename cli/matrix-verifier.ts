// The matrix's one verification: whether a report's digests and verdicts recompute (verify's own
// recomputation). It answers verified or unverified; a check anchored outside the report (live
// discovery, a pinned keyring) answers unanchored and different-referee as well, behind the same
// MatrixVerifier type, so the matrix takes it without change.

import type { MatrixVerifier } from '../lib/report/matrix/model.ts';
import { readReportJson } from './verified-report.ts';
import { verifyWithKeys } from './verify-keys.ts';

export const recomputingVerifier: MatrixVerifier = async (path) => {
  const parsed = await readReportJson(path);
  const result = await verifyWithKeys(parsed, undefined);
  return {
    state: result.problems.length === 0 ? 'verified' : 'unverified',
    report: parsed,
    problems: [...result.problems],
  };
};
