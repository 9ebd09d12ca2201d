// The exit status and the counts of the closing line (contract §10), from the dispositions alone.

import type { Disposition } from '../types.ts';

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

export function exitCodeFor(dispositions: readonly Disposition[]): number {
  if (dispositions.includes('executed-fail')) return EXIT.failed;
  if (dispositions.includes('blocked')) return EXIT.blocked;
  return EXIT.ok;
}

export function closingLine(dispositions: readonly Disposition[]): string {
  const t = tally(dispositions);
  return `${t.passed} passed, ${t.failed} failed, ${t.blocked} blocked, ${t.skipped} skipped`;
}
