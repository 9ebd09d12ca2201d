// What the pack tally's tests build cases from: a fixture of a given size (only the members
// caseSize reads), findings that pass or fail one rule, and the decision they come to.

import type { Decision } from '../../lib/decide/decide.ts';
import type { Finding, Fixture, RunObservation } from '../../lib/types.ts';

/** A fixture of the given size: only the members caseSize reads. */
export function sized(tasks: number, trials: number, callsPerTrial: number): Fixture {
  const ids = Array.from({ length: tasks }, (_, i) => `t${i}`);
  const calls = Array.from({ length: callsPerTrial }, () => ({ name: 'lookup', arguments: {} }));
  return {
    suite: {
      tasks: ids.map((taskId) => ({ taskId })),
      ...(trials === 1 ? {} : { trials: { count: trials } }),
    },
    script: Object.fromEntries(ids.map((id) => [id, [{ calls, output: null }]])),
  } as unknown as Fixture;
}

export const failing = (rule: string, severity: 'MUST' | 'SHOULD' = 'MUST'): Finding => ({
  rule,
  ok: false,
  severity,
  ref: 'RFC 0246 §B',
  message: `${rule} was broken`,
});

export const passing = (rule: string, severity: 'MUST' | 'SHOULD' = 'MUST'): Finding => ({
  ...failing(rule, severity),
  ok: true,
  message: `${rule} held`,
});

/** The decision `findings` come to: failed by a failing MUST finding, else passed. */
export function decided(findings: Finding[], observation?: RunObservation): Decision {
  const failed = findings.some((f) => !f.ok && f.severity === 'MUST');
  return {
    disposition: failed ? 'executed-fail' : 'executed-pass',
    assertions: findings.length,
    ...(failed ? { reason: 'failed' } : {}),
    findings,
    ...(observation === undefined ? {} : { observation }),
  };
}
