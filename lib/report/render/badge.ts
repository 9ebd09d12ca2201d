// A shields.io endpoint badge (https://shields.io/badges/endpoint-badge) rendered from the run's
// verdict: bright green only for a certified report, and otherwise a message that names what
// withholds the certification, so a badge never claims more than its report.

import { implementationLabel } from '../verdict/certification.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import type { CertificationReason, ReasonCode } from '../report.ts';
import { EXIT } from '../verdict/verdict.ts';
import { clip } from '../verdict/lead.ts';

export interface Badge {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
}

export const BADGE_LABEL = 'OpenWOP eval gate';

/** The most a badge's message may run to: shields.io draws it on one short line. */
export const BADGE_MESSAGE_LIMIT = 40;

export function badgeFor(verdict: RunVerdict): Badge {
  // Out of every requirement, not the selected ones: a partial run must not read as whole.
  const score = `${verdict.counts.passed}/${verdict.counts.total}`;
  const c = verdict.certification;
  // An opt-out is a claim the host makes, so the badge counts them whatever the verdict; the
  // report, its page and verify name them.
  const n = c.optOuts.length;
  const claims = n === 0 ? '' : `, ${n} opt-out${n === 1 ? '' : 's'}`;
  const message = c.certified
    ? clip(`RFC 0246 certified ${score}${claims}`, BADGE_MESSAGE_LIMIT)
    : fitted(`${score} not certified: `, c.reasons.map(badgeWord), claims);
  // The label names what the badge speaks of, so a certified badge says which implementation.
  const label =
    verdict.implementation === undefined
      ? BADGE_LABEL
      : `${BADGE_LABEL}: ${implementationLabel(verdict.implementation)}`;
  return { schemaVersion: 1, label, message, color: colorOf(verdict) };
}

/**
 * A reason in the fewest words that keep it: the score beside it already says out of how many,
 * so `1 of 22 failed` is `1 failed`; a few long phrases have shorter ones of the same meaning.
 */
const BADGE_WORDS: Partial<Record<ReasonCode, string>> = {
  'strict-off': 'not strict',
  unverified: 'signature unverified',
  partial: 'partial',
  'nothing-driven': 'nothing driven',
  'pack-not-driven': 'no pack',
  'implementation-mismatch': 'impl mismatch',
  unnamed: 'impl unnamed',
  'severity-override': 'severity changed',
};

function badgeWord(reason: CertificationReason): string {
  return BADGE_WORDS[reason.code] ?? reason.short.replace(/^(\d+) of \d+ /, '$1 ');
}

/**
 * `head`, then as many reasons as fit in the limit in their order (the first always: it is what
 * to fix first), `+N` for the rest, then `tail` when it fits; cut at the limit only when the
 * first alone overflows it.
 */
function fitted(head: string, reasons: readonly string[], tail: string): string {
  const line = (shown: readonly string[]): string => {
    const rest = reasons.length - shown.length;
    return `${head}${shown.join(', ')}${rest > 0 ? ` +${rest}` : ''}${tail}`;
  };
  const shown: string[] = [];
  for (const reason of reasons) {
    if (shown.length > 0 && line([...shown, reason]).length > BADGE_MESSAGE_LIMIT) break;
    shown.push(reason);
  }
  const whole = line(shown);
  // The claims yield to the first reason: the report, its page and verify still name them.
  const kept =
    whole.length <= BADGE_MESSAGE_LIMIT ? whole : whole.slice(0, -tail.length || undefined);
  return clip(kept, BADGE_MESSAGE_LIMIT);
}

function colorOf(verdict: RunVerdict): string {
  if (verdict.certification.certified) return 'brightgreen';
  // The result, not the exit code: --fail-on none waives the exit code of a run that failed.
  if (verdict.result === 'FAIL') return 'red';
  if (verdict.exitCode === EXIT.blocked) return 'orange';
  // The embedded host is the suite's own: its badge is no evidence about any host.
  if (verdict.embedded) return 'lightgrey';
  return 'yellow';
}
