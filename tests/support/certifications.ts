// Certifications for tests of `diff` that compare rows and rules, where neither report is
// certified: the certification comparison itself is tested with anchored verdicts.

import { UNRECORDED } from '../../lib/report/verdict/run-verdict.ts';

export const NEITHER_CERTIFIED = { before: UNRECORDED, after: UNRECORDED } as const;
