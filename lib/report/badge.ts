// A shields.io endpoint badge (https://shields.io/badges/endpoint-badge) from a verified report:
// how many selected requirements passed, and what limits that claim (partial, baselined,
// embedded host). The colour follows the run's exit status, so a badge never outshines its run.

import type { EvalGateReport } from './report.ts';
import { gateVerdict } from './gate.ts';
import { isPartial } from './run-record.ts';
import { NOT_SELECTED } from './run-options.ts';
import { EXIT } from './verdict.ts';

export interface Badge {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
}

export const BADGE_LABEL = 'OpenWOP eval gate';

export function badgeFor(report: EvalGateReport): Badge {
  const selected = report.requirements.filter(
    (r) => !(r.disposition === 'skipped' && r.reason === NOT_SELECTED),
  );
  const passed = selected.filter((r) => r.disposition === 'executed-pass').length;
  const limits = [
    ...(isPartial(report.selection) ? ['partial'] : []),
    ...(report.baseline === undefined
      ? []
      : [`baseline: ${report.baseline.excused.length} excused`]),
    ...(report.target.embedded ? ['embedded host'] : []),
  ];
  const message = `RFC 0246 ${passed}/${selected.length}${limits.length === 0 ? '' : ` (${limits.join(', ')})`}`;
  return {
    schemaVersion: 1,
    label: BADGE_LABEL,
    message,
    color: colorOf(report, passed === selected.length, limits.length === 0),
  };
}

function colorOf(report: EvalGateReport, allPassed: boolean, clean: boolean): string {
  // The embedded host is the suite's own: its badge is no evidence, so it is never green.
  if (report.target.embedded) return 'lightgrey';
  const exit = gateVerdict(report).exitCode;
  if (exit === EXIT.failed) return 'red';
  if (exit === EXIT.blocked) return 'orange';
  return allPassed && clean ? 'brightgreen' : 'yellow';
}
