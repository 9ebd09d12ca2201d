// The generated pack as one requirement: every generated fixture of a seed, each gated, driven and
// judged like a hand-written leg's, a bounded number at a time. A failing case names its fixture,
// the seed that replays it and the file a host team can add to its own tests.

import type { LegDefinition } from '../legs.ts';
import { packFixtures } from '../generate/pack.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';
import type { Disposition, Finding, Fixture, GateName, MatchMode } from '../types.ts';
import type { Decision } from './decide.ts';
import type { LegFacts } from './decide-leg.ts';
import type { LegTarget } from './leg-target.ts';
import { decideWithHost, discoveryOf } from './run-leg.ts';

export { PACK_CONCURRENCY, type PackRequest } from './pack-request.ts';
import { PACK_CONCURRENCY, type PackRequest } from './pack-request.ts';

/** Told how the pack advances, so a caller can show progress; it decides nothing. */
export interface PackWatch {
  /** The pack is about to drive `total` cases, `concurrency` at once. */
  readonly started?: (total: number, concurrency: number) => void;
  /** One case was decided, `ms` after its drive began. */
  readonly decided?: (c: GeneratedCase, ms: number) => void;
  /** Every case was decided. */
  readonly finished?: () => void;
}

export interface GeneratedCase {
  readonly fixtureId: string;
  readonly seed: number;
  /** The fixture's file name in a pack `openwop-eval-gate fixtures --generate` writes. */
  readonly file: string;
  readonly decision: Decision;
}

/** The leg a generated fixture stands in: its gates and needs follow from the document. */
export function generatedLeg(fixture: Fixture): LegDefinition & { readonly fixtureId: string } {
  const suite = fixture.suite;
  const matchModes = [
    ...new Set(
      suite.tasks.flatMap((t): MatchMode[] =>
        t.expected.trajectory === undefined ? [] : [t.expected.trajectory.match],
      ),
    ),
  ];
  const gates: GateName[] = ['agents.evalSuite'];
  if (matchModes.length > 0) gates.push('agents.evalSuite.trajectory');
  if (suite.trials !== undefined) gates.push('agents.evalSuite.trials');
  return {
    id: GENERATED_REQUIREMENT,
    title: fixture.id,
    fixtureId: fixture.id,
    needs: {
      taskCount: suite.tasks.length,
      trialCount: suite.trials?.count ?? 1,
      ...(suite.trials === undefined ? {} : { passRule: suite.trials.passRule }),
      matchModes,
    },
    gates,
    ref: 'RFC 0246 §A, §B, §C, §D',
  };
}

/** A generated case is decided as a leg is: decideLeg, with its fixture already in hand. */
function runCase(fixture: Fixture, target: LegTarget): Promise<Decision> {
  const facts: LegFacts = {
    leg: generatedLeg(fixture),
    selected: true,
    settings: target.config,
    discovery: discoveryOf(target),
    fixture: { ok: true, fixture, path: `${fixture.id}.json` },
  };
  return decideWithHost(facts, target);
}

/**
 * Drives every fixture the request names (the pack, or its one case), `request.concurrency` at
 * once, recorded in pack order. Each worker judges its case as soon as the case's run ends, while
 * the other workers' runs are still being played, so the host is never idle on the witness.
 */
export async function driveGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  watch: PackWatch = {},
): Promise<GeneratedCase[]> {
  const pack = packFixtures(request);
  const cases: GeneratedCase[] = new Array<GeneratedCase>(pack.length);
  const concurrency = Math.max(1, Math.min(request.concurrency ?? PACK_CONCURRENCY, pack.length));
  watch.started?.(pack.length, concurrency);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < pack.length; i = next++) {
      const fixture = pack[i] as Fixture;
      const began = performance.now();
      const decision = await runCase(fixture, target);
      const decided = {
        fixtureId: fixture.id,
        seed: request.seed,
        file: `${fixture.id}.json`,
        decision,
      };
      cases[i] = decided;
      watch.decided?.(decided, performance.now() - began);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  watch.finished?.();
  return cases;
}

const FIRST_FAILURES = 3;

function caseLine(c: GeneratedCase): string {
  const failed: Finding | undefined = c.decision.findings.find(
    (f) => !f.ok && f.severity === 'MUST',
  );
  const what =
    failed === undefined ? (c.decision.reason ?? '') : `${failed.rule}: ${failed.message}`;
  return `${c.fixtureId} (seed ${c.seed}, ${c.file}): ${what}`;
}

/**
 * The requirement's disposition over every case: a failing case fails it, then a blocked one
 * blocks it; it passes when every case passed, and is inapplicable when none could be driven.
 */
export function decidePack(cases: readonly GeneratedCase[]): Decision {
  const findings = cases.flatMap((c) => c.decision.findings);
  const assertions = cases.reduce((sum, c) => sum + c.decision.assertions, 0);
  const having = (d: Disposition): GeneratedCase[] =>
    cases.filter((c) => c.decision.disposition === d);
  const summary = (d: Disposition, verb: string): string => {
    const hit = having(d);
    const lines = hit.slice(0, FIRST_FAILURES).map(caseLine);
    const more = hit.length > FIRST_FAILURES ? `; and ${hit.length - FIRST_FAILURES} more` : '';
    return `${hit.length} of ${cases.length} generated fixtures ${verb}: ${lines.join('; ')}${more}`;
  };
  if (cases.length === 0) {
    return {
      disposition: 'blocked',
      assertions: 0,
      reason: 'the generated pack is empty',
      findings,
    };
  }
  if (having('executed-fail').length > 0) {
    return {
      disposition: 'executed-fail',
      assertions,
      reason: summary('executed-fail', 'failed'),
      findings,
    };
  }
  if (having('blocked').length > 0) {
    return {
      disposition: 'blocked',
      assertions,
      reason: summary('blocked', 'were blocked'),
      findings,
    };
  }
  if (having('executed-pass').length === 0) {
    const gated = having('inapplicable').length > 0 ? 'inapplicable' : 'skipped';
    return { disposition: gated, assertions, reason: summary(gated, `were ${gated}`), findings };
  }
  return { disposition: 'executed-pass', assertions, findings };
}
