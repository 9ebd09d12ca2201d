// One report's cell in a row, from what the report records and verification recomputed: the
// disposition, told apart from an opt-out the host declared and a failure its baseline excused.

import type { Certification, EvalGateReport } from '../../report.ts';
import { ciVerdict, isExcusedRow, type CiVerdict } from '../../verdict/ci-verdict.ts';
import type { MatrixCell } from './model.ts';

const MAX_DETAIL = 240;

function cut(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/** Each report's gate, taken once from the verdict module however many cells read it. */
const gates = new WeakMap<EvalGateReport, CiVerdict>();

function gateOf(report: EvalGateReport): CiVerdict {
  let gate = gates.get(report);
  if (gate === undefined) {
    gate = ciVerdict(report);
    gates.set(report, gate);
  }
  return gate;
}

export function requirementCell(report: EvalGateReport, id: string): MatrixCell {
  const index = report.requirements.findIndex((r) => r.id === id);
  const row = report.requirements[index];
  if (row === undefined) return { state: 'absent', detail: 'the report has no such requirement' };
  const anchor = `req--${index}`;
  const failed = row.findings.filter((f) => !f.ok && f.severity === 'MUST');
  // Flaky before excused: an allowed flaky row fails nothing, yet no single outcome describes it.
  const flaky = report.repeat?.rows.find((r) => r.requirement === id && r.stability === 'flaky');
  if (flaky !== undefined) {
    return {
      state: 'flaky',
      detail: cut(
        `flaky across ${report.repeat?.count ?? 'its'} repetitions: ${flaky.outcomes.join(', ')}${flaky.allowed === true ? '; the baseline allows it' : ''}`,
      ),
      anchor,
    };
  }
  switch (row.disposition) {
    case 'executed-pass':
      return {
        state: 'pass',
        detail: `${row.findings.filter((f) => f.ok).length} rules held`,
        anchor,
      };
    case 'executed-fail': {
      const first = failed[0];
      if (isExcusedRow(report, gateOf(report), row)) {
        const excused = (report.baseline?.excused ?? []).filter((f) => f.requirement === id);
        return {
          state: 'excused',
          detail: cut(
            `excused by the baseline ${report.baseline?.file ?? ''}: ${excused.map((f) => f.rule ?? f.requirement).join(', ')}`,
          ),
          anchor,
        };
      }
      return {
        state: 'fail',
        detail: cut(
          first === undefined ? (row.reason ?? 'failed') : `${first.rule}: ${first.message}`,
        ),
        anchor,
      };
    }
    case 'blocked':
      return { state: 'blocked', detail: cut(row.reason ?? 'blocked'), anchor };
    case 'inapplicable': {
      const optOut = (report.certification?.optOuts ?? []).find((o) => o.requirements.includes(id));
      return optOut === undefined
        ? { state: 'inapplicable', detail: cut(row.reason ?? 'inapplicable'), anchor }
        : { state: 'opted-out', detail: cut(`opted out: ${optOut.gate}`), anchor };
    }
    case 'skipped':
      return { state: 'skipped', detail: cut(row.reason ?? 'not selected'), anchor };
  }
}

/** Every host-check rule any of the reports judged, or could not. */
export function hostCheckRules(reports: readonly EvalGateReport[]): string[] {
  const rules = new Set<string>();
  for (const r of reports) {
    const checks = r.hostChecks;
    if (checks === undefined) continue;
    for (const f of checks.findings) rules.add(f.rule);
    for (const u of checks.unexercised) rules.add(u.rule);
    for (const u of checks.inapplicable) rules.add(u.rule);
  }
  return [...rules].sort();
}

export function hostCheckCell(report: EvalGateReport, rule: string): MatrixCell {
  const checks = report.hostChecks;
  const anchor = 'host-checks';
  if (checks === undefined) return { state: 'absent', detail: 'the run made no host checks' };
  const findings = checks.findings.filter((f) => f.rule === rule);
  const failed = findings.find((f) => !f.ok);
  if (failed !== undefined) return { state: 'warning', detail: cut(failed.message), anchor };
  if (findings.length > 0)
    return { state: 'pass', detail: cut(findings[0]?.message ?? ''), anchor };
  const inapplicable = checks.inapplicable.find((u) => u.rule === rule);
  if (inapplicable !== undefined)
    return { state: 'inapplicable', detail: cut(inapplicable.reason), anchor };
  const gap = checks.unexercised.find((u) => u.rule === rule);
  if (gap !== undefined) return { state: 'not-judged', detail: cut(gap.reason), anchor };
  return { state: 'absent', detail: 'the run did not record this check' };
}

/** The certification a verifier stands behind (`anchored`), else the one the report records. */
export function certificationCell(report: EvalGateReport, anchored?: Certification): MatrixCell {
  const c = anchored ?? report.certification;
  if (c === undefined)
    return { state: 'not-certified', detail: 'no certification recorded', anchor: 'verdict' };
  return c.certified
    ? {
        state: 'certified',
        detail: c.signer.state === 'verified' ? `signed by key ${c.signer.keyId}` : 'certified',
        anchor: 'verdict',
      }
    : {
        state: 'not-certified',
        detail: cut(c.reasons.map((r) => r.short).join(', ')),
        anchor: 'verdict',
      };
}
