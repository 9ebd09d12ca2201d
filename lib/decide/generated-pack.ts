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

/**
 * Drives every fixture of the pack, at most `concurrency` at once, and hands each case with its
 * fixture to `onCase` in pack order as soon as every case before it has finished. A case waits
 * for its predecessors' `onCase` before its worker takes another, so what is held at once is
 * bounded by the cases in flight, never by the pack.
 */
export async function streamGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  onCase: (c: GeneratedCase, fixture: Fixture) => void | Promise<void>,
  concurrency: number = PACK_CONCURRENCY,
): Promise<void> {
  const fixtures = packFixtures(request);
  const done = new Map<number, readonly [GeneratedCase, Fixture]>();
  let taken = 0;
  let handed = 0;
  let handing: Promise<void> = Promise.resolve();
  const handReady = async (): Promise<void> => {
    for (let ready = done.get(handed); ready !== undefined; ready = done.get(handed)) {
      done.delete(handed);
      handed += 1;
      await onCase(...ready);
    }
  };
  const worker = async (): Promise<void> => {
    for (let drawn = fixtures.next(); drawn.done !== true; drawn = fixtures.next()) {
      const i = taken++;
      const fixture = drawn.value;
      const decision = await runCase(fixture, target);
      done.set(i, [
        { fixtureId: fixture.id, seed: request.seed, file: `${fixture.id}.json`, decision },
        fixture,
      ]);
      handing = handing.then(handReady);
      await handing;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  await handing;
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
