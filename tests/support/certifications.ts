// Certifications for tests of `diff` that compare rows and rules, where neither report is
// certified: the certification comparison itself is tested with anchored verdicts.

import type { Certification } from '../../lib/report/report.ts';

const NOT_CERTIFIED: Certification = {
  certified: false,
  reasons: [{ code: 'unsigned', short: 'not signed', text: 'unsigned' }],
  optOuts: [],
  signer: { state: 'unsigned' },
};

export const NEITHER_CERTIFIED = { before: NOT_CERTIFIED, after: NOT_CERTIFIED } as const;
