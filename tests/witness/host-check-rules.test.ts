// HOST_CHECK_RULES is every rule the host checks can judge, no more: the outputs count a leg's gap
// in one of them once per run (lib/report/verdict/unexercised.ts), so a rule missing from it would be
// listed on every leg again, and a rule wrongly in it would hide a leg's own gap.

import { describe, expect, it } from 'vitest';
import { HOST_CHECK_RULES, judgeHostChecks } from '../../lib/witness/host-checks.ts';
import { PROBE_NAMES } from '../../lib/host-probes.ts';
import type { ObservedProbe, ProbeName } from '../../lib/types.ts';

/** Every probe of the table. */
const PROBES: readonly ProbeName[] = PROBE_NAMES;

const answered = (probe: ProbeName): ObservedProbe => ({
  probe,
  outcome: 'answered',
  request: 'POST /runs',
  status: 404,
  body: { json: { error: 'not_found', message: 'no such thing' } },
});

describe('HOST_CHECK_RULES', () => {
  it('is exactly the rules the host checks judge when every probe is answered with a body', () => {
    const judged = judgeHostChecks({ ok: true, document: {} }, PROBES.map(answered));
    expect(judged.unexercised).toEqual([]);
    expect(new Set(judged.findings.map((f) => f.rule))).toEqual(HOST_CHECK_RULES);
  });

  it('holds every rule the host checks list unexercised when nothing was read or sent', () => {
    const judged = judgeHostChecks(
      { ok: false, reason: 'connection refused' },
      PROBES.map((probe) => ({ probe, outcome: 'not-made', reason: 'no discovery' })),
    );
    for (const u of judged.unexercised) expect(HOST_CHECK_RULES.has(u.rule as never)).toBe(true);
    // Each rule once for one reason: the four credential probes share auth.no-bypass, and the
    // error body is judged only on an answer.
    expect(judged.unexercised.map((u) => u.rule).sort()).toEqual(
      [...HOST_CHECK_RULES].filter((r) => r !== 'wire.error-body').sort(),
    );
  });
});
