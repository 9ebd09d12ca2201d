// The generated pack as one requirement: every generated fixture of a seed, each gated, driven and
// judged like a hand-written leg's, a bounded number at a time. A failing case names its fixture,
// the seed that replays it and the file a host team can add to its own tests.

import type { LegDefinition } from '../legs.ts';
import { packFixtures } from '../generate/pack.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';
import type { Fixture, GateName, MatchMode } from '../types.ts';
import type { Decision } from './decide.ts';
import type { LegFacts } from './decide-leg.ts';
import type { LegTarget } from './leg-target.ts';
import { decideWithHost, discoveryOf } from './run-leg.ts';
import { inOrder, type PoolStats } from './ordered-pool.ts';
import { PackTally, type GeneratedCase } from './pack-tally.ts';

export { caseLine, type GeneratedCase } from './pack-tally.ts';

export { PACK_CONCURRENCY, type PackRequest } from './pack-request.ts';
import { PACK_CONCURRENCY, type PackRequest } from './pack-request.ts';

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

/** How many cases may be driven or waiting for an earlier one, per case in flight. */
const WINDOW_PER_WORKER = 4;

/**
 * Drives every fixture of the pack, at most `concurrency` at once, and hands each case with its
 * fixture to `onCase` in pack order once every case before it has been handed on. Only the cases
 * in the pool's window are held at once, never the pack (lib/decide/ordered-pool.ts).
 */
export async function streamGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  onCase: (c: GeneratedCase, fixture: Fixture) => void | Promise<void>,
  concurrency: number = PACK_CONCURRENCY,
): Promise<PoolStats> {
  return inOrder(
    packFixtures(request),
    async (fixture): Promise<GeneratedCase> => ({
      fixtureId: fixture.id,
      seed: request.seed,
      file: `${fixture.id}.json`,
      decision: await runCase(fixture, target),
    }),
    onCase,
    { concurrency, window: concurrency * WINDOW_PER_WORKER },
  );
}

/** Every case of the pack, in pack order: for a pack small enough to hold (tests, searches). */
export async function driveGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  concurrency: number = PACK_CONCURRENCY,
): Promise<GeneratedCase[]> {
  const cases: GeneratedCase[] = [];
  await streamGeneratedPack(request, target, (c) => void cases.push(c), concurrency);
  return cases;
}

/**
 * The requirement's disposition over every case of a pack held whole, every finding kept: how a
 * row that records its cases inline was decided, and is decided again.
 */
export function decidePack(cases: readonly GeneratedCase[]): Decision {
  const first = cases[0];
  const tally = new PackTally({
    count: cases.length,
    seed: first?.seed ?? 0,
    keepEveryFinding: true,
  });
  for (const c of cases) tally.add(c);
  return tally.decision();
}
