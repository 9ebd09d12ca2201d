// A shields.io endpoint badge (https://shields.io/badges/endpoint-badge) rendered from the run's
// verdict: bright green only for a certified report, and otherwise a message that names what
// withholds the certification, so a badge never claims more than its report.

import { implementationLabel } from '../verdict/certification.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import { EXIT } from '../verdict/verdict.ts';

export interface Badge {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
}

export const BADGE_LABEL = 'OpenWOP eval gate';

export function badgeFor(verdict: RunVerdict): Badge {
  // Out of every requirement, not the selected ones: a partial run must not read as whole.
  const score = `${verdict.counts.passed}/${verdict.counts.total}`;
  const c = verdict.certification;
  const optOuts = c.optOuts.map((o) => `opted out: ${o.gate}`);
  // An opt-out is a claim the host makes, so the badge shows it whatever the verdict.
  const claims = optOuts.length === 0 ? '' : ` (${optOuts.join(', ')})`;
  const message = c.certified
    ? `RFC 0246 certified ${score}${claims}`
    : `RFC 0246 ${score} not certified: ${c.reasons.map((r) => r.short).join(', ')}${claims}`;
  // The label names what the badge speaks of, so a certified badge says which implementation.
  const label =
    verdict.implementation === undefined
      ? BADGE_LABEL
      : `${BADGE_LABEL}: ${implementationLabel(verdict.implementation)}`;
  return { schemaVersion: 1, label, message, color: colorOf(verdict) };
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
