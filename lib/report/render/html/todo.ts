// The page's "What to do" and its count of what fails the gate a row at a time. A run that passed
// its gate only because the baseline allows flaky rows has something left to do: the badges below
// are red, and the certification is withheld while they stay flaky.

import type { EvalGateReport, ReportRow } from '../../report.ts';
import { faultsOfRow } from '../../verdict/baseline.ts';
import type { RunVerdict } from '../../verdict/run-verdict.ts';
import { esc } from './escape.ts';
import { reproduceCommand } from './reproduce.ts';

/**
 * The rules of a row that fail the gate at the run's `--fail-on`, after the baseline's scoped
 * severities; a failed row none of whose rules counts is one failure, so a row that fails the
 * gate never shows 0 here.
 */
export function gateFailures(report: EvalGateReport, row: ReportRow): number {
  const faults = faultsOfRow(row, report.failOn ?? 'must', report.baseline?.severity ?? []);
  const rules = faults.filter((f) => f.rule !== undefined).length;
  // The row's own fault stands for a failure no rule of it is counted for.
  return rules > 0 ? rules : faults.length;
}

export function todoSection(report: EvalGateReport, verdict: RunVerdict): string {
  const allowed = verdict.gate.allowedFlaky;
  const causes = verdict.causes.map((c) => `<li>${esc(c)}</li>`);
  if (causes.length === 0 && allowed.length === 0) return '<p>Nothing to do: the run passed.</p>';
  const parts = causes.length === 0 ? [] : [`<ul>${causes.join('')}</ul>`];
  if (allowed.length > 0) {
    const count = report.repeat?.count;
    const rows = allowed.map((f) => {
      const row = report.requirements.find((r) => r.id === f.requirement);
      const command =
        row === undefined ? '' : `<pre class="command">${esc(reproduceCommand(report, row))}</pre>`;
      return `<li><code>${esc(f.requirement)}</code>: ${esc(f.outcomes.join(', '))}${command}</li>`;
    });
    parts.push(
      `<p>${causes.length === 0 ? 'The gate passed, but not cleanly: ' : ''}the baseline allows ${allowed.length} flaky requirement${allowed.length === 1 ? '' : 's'} (outcomes that differ between ${count === undefined ? 'repetitions' : `the ${count} repetitions`}). An allowed flaky row fails nothing, and the run is not certified while it stays flaky: find why the host answers differently, then run it again with the same repetitions to see it stable.</p>`,
      `<ul>${rows.join('')}</ul>`,
    );
  }
  return parts.join('');
}
