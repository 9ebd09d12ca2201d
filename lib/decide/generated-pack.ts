// The generated pack as one requirement: every generated fixture of a seed, each gated, driven and
// judged like a hand-written leg's, a bounded number at a time. A failing case names its fixture,
// the seed that replays it and the file a host team can add to its own tests.

import type { LegDefinition } from '../legs.ts';
import { drawnFixtureDigest, selectedFixtures } from '../generate/pack.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';
import type { Fixture, GateName, MatchMode } from '../types.ts';
import type { Decision } from './decide.ts';
import { decideLeg, type LegFacts } from './decide-leg.ts';
import type { LegTarget } from './leg-target.ts';
import { SYSTEM_CLOCK, type DriveClock } from '../observe/driver.ts';
import { decideWithHost, discoveryOf } from './run-leg.ts';
import { inOrder, type PoolStats } from './ordered-pool.ts';
import { PackTally, type GeneratedCase } from './pack-tally.ts';
import { FaultStreak } from './fault-streak.ts';
import { budgetSpent, cutByBudget, notRun, withinBudget, type RunBudget } from './run-budget.ts';

export { caseLine, type GeneratedCase } from './pack-tally.ts';

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

/** What a generated case's decision starts from: its leg, this host, the fixture in hand. */
function caseFacts(fixture: Fixture, target: LegTarget): LegFacts {
  return {
    leg: generatedLeg(fixture),
    selected: true,
    settings: target.config,
    discovery: discoveryOf(target),
    fixture: { ok: true, fixture, path: `${fixture.id}.json` },
  };
}

/** A generated case is decided as a leg is: decideLeg, with its fixture already in hand. */
export function runCase(fixture: Fixture, target: LegTarget): Promise<Decision> {
  return decideWithHost(caseFacts(fixture, target), target);
}

/**
 * A case decided within the pack's limits: decided by its gates alone, else not run once the
 * budget is spent or a repeated host fault stopped the pack, cut short when the budget is spent
 * while it runs, else decided.
 */
async function limitedCase(
  fixture: Fixture,
  target: LegTarget,
  streak: FaultStreak,
  budget: RunBudget | undefined,
  clock: DriveClock,
): Promise<Decision> {
  const facts = caseFacts(fixture, target);
  // A case its gates decide never reaches the host, so it is decided whatever the pack's limits
  // (and `verify` decides it the same way from the discovery recorded).
  const gated = decideLeg(facts);
  if (gated.kind === 'decided') return gated.decision;
  const spent = (): string | undefined =>
    budget?.signal.aborted === true ? budgetSpent(budget) : undefined;
  const admitted = await streak.admit(spent);
  if (!admitted.start) return notRun(admitted.why);
  const decision = await withinBudget(
    decideWithHost(facts, target, {}, clock),
    budget,
    (spentBudget) => cutByBudget(spentBudget, 'case'),
  );
  streak.decided(decision);
  return decision;
}

/** How many cases may be driven or waiting for an earlier one, per case in flight. */
const WINDOW_PER_WORKER = 4;

/**
 * Drives every fixture the request names (the pack, or its one case), `request.concurrency` at
 * once, and hands each case with its fixture to `onCase` in pack order once every case before it
 * has been handed on. Each worker judges its case as soon as the case's run ends, while the other
 * workers' runs are still being played; only the cases in the pool's window are held at once,
 * never the pack (lib/decide/ordered-pool.ts). Each case's drive reads its deadline on `clock` and
 * waits on it between requests.
 */
export async function streamGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  onCase: (c: GeneratedCase, fixture: Fixture) => void | Promise<void>,
  watch: PackWatch = {},
  budget?: RunBudget,
  clock: DriveClock = SYSTEM_CLOCK,
): Promise<PoolStats> {
  const total = request.case === undefined ? request.count : 1;
  const concurrency = Math.max(1, Math.min(request.concurrency ?? PACK_CONCURRENCY, total));
  watch.started?.(total, concurrency);
  const streak = new FaultStreak();
  // A case waiting for the streak to be decided looks again once the budget is spent.
  const wake = (): void => streak.wake();
  budget?.signal.addEventListener('abort', wake, { once: true });
  const stats = await inOrder(
    selectedFixtures(request)[Symbol.iterator](),
    async (fixture): Promise<GeneratedCase> => {
      const began = performance.now();
      const decided: GeneratedCase = {
        fixtureId: fixture.id,
        seed: request.seed,
        file: `${fixture.id}.json`,
        decision: await limitedCase(fixture, target, streak, budget, clock),
        fixtureDigest: drawnFixtureDigest(fixture),
      };
      watch.decided?.(decided, performance.now() - began);
      return decided;
    },
    onCase,
    { concurrency, window: concurrency * WINDOW_PER_WORKER },
  ).finally(() => budget?.signal.removeEventListener('abort', wake));
  watch.finished?.();
  return stats;
}

/** Every case the request names, in pack order: for a pack small enough to hold (tests, searches). */
export async function driveGeneratedPack(
  request: PackRequest,
  target: LegTarget,
  watch: PackWatch = {},
  budget?: RunBudget,
  clock: DriveClock = SYSTEM_CLOCK,
): Promise<GeneratedCase[]> {
  const cases: GeneratedCase[] = [];
  await streamGeneratedPack(request, target, (c) => void cases.push(c), watch, budget, clock);
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
