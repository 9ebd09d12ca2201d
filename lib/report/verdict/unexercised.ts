// The rules a run left unexercised, as the console, the Markdown summary and JUnit count them.
// The rows list each rule with why (lib/witness/exercised.ts); a leg that drove no run lists none.
// A rule the host checks also judge (`wire.error-body`) is owed once per run, not once per leg: one
// judgement anywhere in the run exercises it, and when none was made it is listed once, beside the
// host checks, rather than on every leg that happened to see no error answer.

import type { UnexercisedRule } from '../../types.ts';
import { HOST_CHECK_RULES } from '../../eval-gate-witness.ts';
import type { EvalGateReport, ReportRow } from '../report.ts';

export type UnexercisedFacts = Pick<EvalGateReport, 'requirements' | 'hostChecks'>;

/** A row's own unexercised rules: the run-wide ones are counted for the run (`runWideGaps`). */
export function legGaps(row: Pick<ReportRow, 'unexercised'>): readonly UnexercisedRule[] {
  return (row.unexercised ?? []).filter((u) => !isRunWide(u.rule));
}

/**
 * Each run-wide rule some leg left unexercised that no leg and no host check judged, once, with
 * the legs' distinct reasons.
 */
export function runWideGaps(report: UnexercisedFacts): readonly UnexercisedRule[] {
  const judged = new Set(
    [...report.requirements.flatMap((r) => r.findings), ...(report.hostChecks?.findings ?? [])].map(
      (f) => f.rule,
    ),
  );
  const reasons = new Map<string, { legs: number; why: Set<string> }>();
  for (const gap of report.requirements.flatMap((r) => r.unexercised ?? [])) {
    if (!isRunWide(gap.rule) || judged.has(gap.rule)) continue;
    const seen = reasons.get(gap.rule) ?? { legs: 0, why: new Set<string>() };
    seen.legs += 1;
    seen.why.add(gap.reason);
    reasons.set(gap.rule, seen);
  }
  const checks =
    report.hostChecks === undefined
      ? 'the run has no host checks'
      : 'the host checks judged it on no answer either';
  return [...reasons].map(([rule, { legs, why }]) => ({
    rule,
    reason: `${[...why].join('; ')} (on ${legs} leg${legs === 1 ? '' : 's'}; ${checks})`,
  }));
}

/**
 * How many rules went unexercised: each leg's own, plus each run-wide rule once; `legs` counts the
 * legs that list one of their own.
 */
export function unexercisedTally(report: UnexercisedFacts): {
  readonly rules: number;
  readonly legs: number;
  readonly runWide: number;
} {
  const listed = report.requirements.map((r) => legGaps(r).length);
  const runWide = runWideGaps(report).length;
  const own = listed.reduce((a, b) => a + b, 0);
  return { rules: own + runWide, legs: listed.filter((n) => n > 0).length, runWide };
}

/**
 * `3 rules unexercised on 2 legs`, `… and 1 run-wide rule`, or `every applicable rule was
 * exercised`.
 */
export function unexercisedLine(report: UnexercisedFacts): string {
  const { rules, legs, runWide } = unexercisedTally(report);
  if (rules === 0) return 'every applicable rule was exercised';
  const own = rules - runWide;
  const wide = `${runWide} run-wide rule${runWide === 1 ? '' : 's'}`;
  if (own === 0) return `${wide} unexercised`;
  const onLegs = `${own} rule${own === 1 ? '' : 's'} unexercised on ${legs} leg${legs === 1 ? '' : 's'}`;
  return runWide === 0 ? onLegs : `${onLegs}, and ${wide}`;
}

function isRunWide(rule: string): boolean {
  return (HOST_CHECK_RULES as ReadonlySet<string>).has(rule);
}
