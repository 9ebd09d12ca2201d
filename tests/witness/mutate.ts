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
