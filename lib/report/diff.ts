// Two reports of the same suite compared, for a pull request against its base: each requirement's
// disposition before and after, each rule that newly fails or newly holds, each reported number
// that moved (with the number a correct host reports), and the fixture digests and suite versions
// when they differ. Only the requirements both runs ran are compared (lib/report/diff-scope.ts).
// A regression is a pass that no longer passes, or a MUST rule that held and now fails. Pure: both
// reports have been verified before they get here.

import type { Disposition, Severity } from '../types.ts';
import type { Certification, EvalGateReport, ReportRow } from './report.ts';
import type { Expectations } from './side-by-side.ts';
import { sideBySide } from './side-by-side.ts';
import type { DiffScope } from './diff-scope.ts';
import { diffScope } from './diff-scope.ts';

/**
 * How a requirement's disposition moved: IMPROVED into `executed-pass`, REGRESSED out of it,
 * CHANGED between two dispositions that are neither (a failure now blocked, say), unchanged.
 */
export type Move = 'IMPROVED' | 'REGRESSED' | 'CHANGED' | 'unchanged';

export interface RequirementChange {
  readonly id: string;
  readonly before: Disposition;
  readonly after: Disposition;
  readonly move: Move;
  readonly regressed: boolean;
}

export interface RuleChange {
  readonly requirement: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly change: 'newly fails' | 'newly holds';
  /** `held`, `failed` or `not checked` in the old report. */
  readonly before: RuleState;
  readonly regressed: boolean;
}

export interface NumberChange {
  readonly requirement: string;
  readonly subject: string;
  readonly field: string;
  readonly expected: string;
  readonly before: string;
  readonly after: string;
}

export interface ValueChange {
  readonly what: string;
  readonly before: string;
  readonly after: string;
}

/** The two certifications a verifier stands behind, and whether one was lost. */
export interface CertificationChange {
  readonly before: boolean;
  readonly after: boolean;
  /** Why NEW is not certified, in full; empty when it is. */
  readonly reasons: readonly string[];
  /** Certified before and not now, NEW could have been signed: a regression whatever the rows did. */
  readonly regressed: boolean;
  /**
   * Why the two certifications were not compared: OLD is certified, but NEW carries no signature
   * at all, so the run had no signing key (a fork's pull request gets no secrets) and could not
   * have been certified whatever the host did. Absent when they were compared.
   */
  readonly notCompared?: string;
}

/** The notice of a comparison that left certification out. */
export const NO_SIGNING_KEY =
  'certification not compared: this run had no signing key (the base is certified; an unsigned run cannot be)';

export interface ReportDiff {
  /** What was compared, what was left out, and what differs between the two runs' settings. */
  readonly scope: DiffScope;
  readonly certification: CertificationChange;
  /** Every compared requirement, unchanged ones included. */
  readonly requirements: readonly RequirementChange[];
  readonly rules: readonly RuleChange[];
  readonly numbers: readonly NumberChange[];
  /** Suite name and version, fixture digests: only those that differ. */
  readonly provenance: readonly ValueChange[];
  readonly regressions: readonly string[];
}

export type RuleState = 'held' | 'failed' | 'not checked';

/**
 * `certifications` are the anchored ones (lib/report/verify/anchor.ts): a report's own claim is not what
 * a pull request loses or keeps.
 */
export function diffReports(
  before: EvalGateReport,
  after: EvalGateReport,
  expectations: Expectations,
  certifications: { readonly before: Certification; readonly after: Certification },
): ReportDiff {
  const scope = diffScope(before, after);
  const ids = scope.compared;
  const requirements = ids.flatMap((id) => {
    const was = rowOf(before, id);
    const now = rowOf(after, id);
    return was === undefined || now === undefined ? [] : [requirementChange(id, was, now)];
  });
  const rules = ids.flatMap((id) => ruleChanges(id, rowOf(before, id), rowOf(after, id)));
  const numbers = ids.flatMap((id) =>
    numberChanges(id, rowOf(before, id), rowOf(after, id), expectations),
  );
  const certification = certificationChange(after, certifications);
  const regressions = [
    ...(certification.regressed
      ? [
          `certification: certified → not certified (${certifications.after.reasons.map((r) => r.short).join(', ')})`,
        ]
      : []),
    ...requirements.filter((r) => r.regressed).map((r) => `${r.id}: ${r.before} → ${r.after}`),
    ...rules
      .filter((r) => r.regressed)
      .map((r) => `${r.requirement} ${r.rule} (MUST): held before, fails now`),
  ];
  return {
    scope,
    certification,
    requirements,
    rules,
    numbers,
    provenance: provenance(before, after),
    regressions,
  };
}

/**
 * A report with no signature member was written by a run given no key (`--sign` always signs, or
 * the run stops at exit 2), which is a fact about the CI job, not the host. A signature that is
 * there and does not verify is compared: that run could have been certified.
 */
function certificationChange(
  after: EvalGateReport,
  certifications: { readonly before: Certification; readonly after: Certification },
): CertificationChange {
  const { before: was, after: now } = certifications;
  const unsignable = was.certified && !now.certified && after.signature === undefined;
  return {
    before: was.certified,
    after: now.certified,
    reasons: now.reasons.map((r) => r.text),
    regressed: was.certified && !now.certified && !unsignable,
    ...(unsignable ? { notCompared: NO_SIGNING_KEY } : {}),
  };
}

function rowOf(report: EvalGateReport, id: string): ReportRow | undefined {
  return report.requirements.find((r) => r.id === id);
}

function requirementChange(id: string, before: ReportRow, after: ReportRow): RequirementChange {
  const move = moveOf(before.disposition, after.disposition);
  return {
    id,
    before: before.disposition,
    after: after.disposition,
    move,
    regressed: move === 'REGRESSED',
  };
}

export function moveOf(before: Disposition, after: Disposition): Move {
  if (before === after) return 'unchanged';
  if (after === 'executed-pass') return 'IMPROVED';
  return before === 'executed-pass' ? 'REGRESSED' : 'CHANGED';
}

/** Each rule of a row, held only when every finding with its id held. */
function ruleStates(row: ReportRow | undefined): Map<string, { ok: boolean; severity: Severity }> {
  const out = new Map<string, { ok: boolean; severity: Severity }>();
  for (const f of row?.findings ?? []) {
    const was = out.get(f.rule);
    out.set(f.rule, { ok: (was?.ok ?? true) && f.ok, severity: f.severity });
  }
  return out;
}

function ruleChanges(
  id: string,
  before: ReportRow | undefined,
  after: ReportRow | undefined,
): RuleChange[] {
  const was = ruleStates(before);
  const now = ruleStates(after);
  const out: RuleChange[] = [];
  for (const [rule, state] of now) {
    const old = was.get(rule);
    const prior: RuleState = old === undefined ? 'not checked' : old.ok ? 'held' : 'failed';
    if (!state.ok && prior !== 'failed') {
      const regressed = prior === 'held' && state.severity === 'MUST';
      out.push({
        requirement: id,
        rule,
        severity: state.severity,
        change: 'newly fails',
        before: prior,
        regressed,
      });
    } else if (state.ok && prior === 'failed') {
      out.push({
        requirement: id,
        rule,
        severity: state.severity,
        change: 'newly holds',
        before: prior,
        regressed: false,
      });
    }
  }
  return out;
}

function numberChanges(
  id: string,
  before: ReportRow | undefined,
  after: ReportRow | undefined,
  expectations: Expectations,
): NumberChange[] {
  if (before === undefined || after === undefined) return [];
  const old = new Map(
    sideBySide(before, expectations).map((i) => [`${i.subject}\u0000${i.field}`, i]),
  );
  return sideBySide(after, expectations).flatMap((now) => {
    const was = old.get(`${now.subject}\u0000${now.field}`);
    if (was === undefined || was.reported === now.reported) return [];
    const change = { subject: now.subject, field: now.field, expected: now.expected };
    return [{ requirement: id, ...change, before: was.reported, after: now.reported }];
  });
}

function provenance(before: EvalGateReport, after: EvalGateReport): ValueChange[] {
  const out: ValueChange[] = [];
  const suite = (r: EvalGateReport): string => `${r.suite.name} ${r.suite.version}`;
  if (suite(before) !== suite(after)) {
    out.push({ what: 'suite', before: suite(before), after: suite(after) });
  }
  // A fixture only one run drove belongs to a requirement left out of the comparison.
  const a = before.digests.fixtures;
  const b = after.digests.fixtures;
  for (const id of Object.keys(a).sort()) {
    const was = a[id];
    const now = b[id];
    if (was !== undefined && now !== undefined && was !== now) {
      out.push({ what: `fixture ${id}`, before: was, after: now });
    }
  }
  return out;
}
