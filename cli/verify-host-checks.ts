// The host-check half of `verify`: the recorded `hostChecks` judged again from what the report
// recorded (its discovery text and the probes), with the same witness the run used, and its
// digest re-derived. Each difference names the field.

import type { EvalGateReport } from '../lib/report/report.ts';
import { hostChecksDigest } from '../lib/report/report.ts';
import type { Finding, InapplicableRule, UnexercisedRule } from '../lib/types.ts';
import { judgeHostChecks, type DiscoveryRead } from '../lib/witness/host-checks.ts';

export function checkHostChecks(report: EvalGateReport): string[] {
  const checks = report.hostChecks;
  const recorded = report.digests.hostChecks;
  if (checks === undefined) {
    return recorded === undefined
      ? []
      : ['digests.hostChecks: recorded, but the report has no hostChecks'];
  }
  const problems: string[] = [];
  const now = hostChecksDigest(checks);
  if (recorded === undefined) problems.push('digests.hostChecks: not recorded');
  else if (recorded !== now) {
    problems.push(
      `digests.hostChecks: recorded ${recorded}, recomputed ${now} (the host checks were edited)`,
    );
  }
  const again = judgeHostChecks(recordedDiscovery(report), checks.probes);
  problems.push(...compareFindings(checks.findings, again.findings));
  problems.push(...compareReasons('unexercised', checks.unexercised, again.unexercised));
  problems.push(...compareReasons('inapplicable', checks.inapplicable, again.inapplicable));
  return problems;
}

function recordedDiscovery(report: EvalGateReport): DiscoveryRead {
  if (!report.discovery.ok) return { ok: false, reason: report.discovery.reason };
  try {
    return { ok: true, document: JSON.parse(report.discovery.text) as unknown };
  } catch {
    return { ok: false, reason: 'the recorded discovery text is not JSON' };
  }
}

function compareFindings(was: readonly Finding[], now: readonly Finding[]): string[] {
  const out: string[] = [];
  if (was.length !== now.length) {
    out.push(`hostChecks.findings: recorded ${was.length}, recomputed ${now.length}`);
  }
  for (let i = 0; i < Math.min(was.length, now.length); i += 1) {
    const a = was[i] as Finding;
    const b = now[i] as Finding;
    for (const field of ['rule', 'ok', 'severity', 'ref', 'message'] as const) {
      if (a[field] !== b[field]) {
        out.push(
          `hostChecks.findings[${i}] (${b.rule}) ${field} recorded ${JSON.stringify(a[field])}, recomputed ${JSON.stringify(b[field])}`,
        );
      }
    }
  }
  return out;
}

/** A list of rules with their reasons, recorded against recomputed, as one line if they differ. */
function compareReasons(
  field: 'unexercised' | 'inapplicable',
  was: readonly (UnexercisedRule | InapplicableRule)[],
  now: readonly (UnexercisedRule | InapplicableRule)[],
): string[] {
  const text = (list: readonly (UnexercisedRule | InapplicableRule)[]): string =>
    JSON.stringify(list.map((u) => [u.rule, u.reason]));
  return text(was) === text(now)
    ? []
    : [`hostChecks.${field}: recorded ${text(was)}, recomputed ${text(now)}`];
}
