// The exit statuses (contract §10) and the counts of the closing line, from the dispositions
// alone. The exit code of a run is ciVerdict's (lib/report/verdict/ci-verdict.ts), its one rule.

import type { Disposition } from '../../types.ts';

export const EXIT = {
  ok: 0,
  failed: 1,
  badConfiguration: 2,
  blocked: 3,
} as const;

export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly blocked: number;
  readonly skipped: number;
}

/**
 * `executed-pass` passes, `executed-fail` fails, `blocked` is counted apart (the suite could not
 * observe, which says nothing about the host), and `inapplicable` and `skipped` skip.
 */
export function tally(dispositions: readonly Disposition[]): Tally {
  let passed = 0;
  let failed = 0;
  let blocked = 0;
  let skipped = 0;
  for (const d of dispositions) {
    if (d === 'executed-pass') passed += 1;
    else if (d === 'executed-fail') failed += 1;
    else if (d === 'blocked') blocked += 1;
    else skipped += 1;
  }
  return { passed, failed, blocked, skipped };
}
