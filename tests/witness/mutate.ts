// Apply one change to a correct observation and list the rules that then fail (held or not,
// MUST or SHOULD), sorted, so a test can state the exact set.

import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import type { Fixture } from '../../lib/types.ts';
import {
  asObservation,
  GATED,
  gatedObservation,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';

export function failing(fixture: Fixture, draft: Draft): string[] {
  const ids = judgeEvalRun(fixture, asObservation(draft))
    .filter((f) => !f.ok)
    .map((f) => f.rule);
  return [...new Set(ids)].sort();
}

export function gated(mutate: (d: Draft) => void): string[] {
  const draft = gatedObservation();
  mutate(draft);
  return failing(GATED, draft);
}

export function ungated(mutate: (d: Draft) => void): string[] {
  const draft = ungatedObservation();
  mutate(draft);
  return failing(UNGATED, draft);
}

/** One judged run seen through its own findings: a rule starting with `own`, or matching it. */
export interface JudgedBy {
  /** Every rule that did not hold, sorted. */
  readonly failing: string[];
  /** Messages of the own findings, held or not, in report order. */
  readonly own: string[];
  /** Messages of the own failing findings. */
  readonly said: string[];
}

/** Judges the fixture's correct observation (gated when it has trials) after `mutate`. */
export function judgedBy(
  rules: string | RegExp,
  fixture: Fixture,
  mutate: (d: Draft) => void = () => undefined,
): JudgedBy {
  const draft = fixture.suite.trials === undefined ? ungatedObservation() : gatedObservation();
  mutate(draft);
  const findings = judgeEvalRun(fixture, asObservation(draft));
  const own = findings.filter((f) =>
    typeof rules === 'string' ? f.rule.startsWith(rules) : rules.test(f.rule),
  );
  return {
    failing: [...new Set(findings.filter((f) => !f.ok).map((f) => f.rule))].sort(),
    own: own.map((f) => f.message),
    said: own.filter((f) => !f.ok).map((f) => f.message),
  };
}
