// Generated fixtures as generators v1 to v4 drew them: a suite and its script, of the same shape
// as fixtures/*.json. Tasks with and without trajectories (every match mode, calls with and
// without args, forbidden tools, repeats), trials blocks with every pass rule, outputs that match
// and miss under every golden strategy, every way of recording tool answers, and stated costs and
// latencies with limits above, on and below them. Every choice is a fast-check arbitrary, so a
// seed replays a suite and a failing suite shrinks.
//
// The four versions draw a suite the same way and differ only in its parts (the calls, the
// figures, the outputs and the pass score each version drew), so one drawer serves them all:
// `suiteArbOf` takes a version's parts, and each archive binds its own (v2/suite.ts and later
// import it from here, as every archive imports only older ones). Its draws are pinned per version
// by tests/generate/versions.test.ts.

import fc from 'fast-check';
import type {
  EvalTask,
  ExpectedTrajectory,
  Fixture,
  GoldenMatch,
  Json,
  MatchMode,
  PassRule,
  ScriptedTrial,
  SuiteThresholds,
  ToolCall,
  ToolResponse,
} from '../../types.ts';
import { GENERATED_REQUIREMENT } from '../../legs.ts';
import * as calls from './calls.ts';
import * as figures from './figures.ts';
import * as outputs from './outputs.ts';
import * as passScore from './pass-score.ts';

type StatedFigures = Pick<ScriptedTrial, 'costUsd' | 'latencyMs'>;

/** What one generator version draws a suite from: its modules, as they stand in its archive. */
export interface SuiteParts<Kind, Answer, EntryFigures, SuiteFigures, PassScorePlan> {
  readonly calls: {
    readonly ANSWERED_TOOLS: readonly string[];
    readonly FORBIDDEN_TOOLS: readonly string[];
    readonly PATH_KINDS: readonly Kind[];
    readonly expectedCallsArb: fc.Arbitrary<ToolCall[]>;
    scriptedCalls(kind: Kind, base: readonly ToolCall[], pick: number): ToolCall[];
  };
  readonly figures: {
    readonly entryFiguresArb: fc.Arbitrary<EntryFigures>;
    readonly suiteFiguresArb: fc.Arbitrary<SuiteFigures>;
    statedFigures(figures: SuiteFigures, entry: EntryFigures): StatedFigures;
    limitsFor(
      figures: SuiteFigures,
      trials: readonly StatedFigures[],
    ): Pick<SuiteThresholds, 'maxCostUsd' | 'maxP95LatencyMs'>;
  };
  readonly outputs: {
    readonly ANSWERS: readonly Answer[];
    readonly GOLDEN_MATCHES: readonly GoldenMatch[];
    goldenArb(strategy: GoldenMatch): fc.Arbitrary<Json>;
    scriptedOutput(strategy: GoldenMatch, golden: Json, answer: Answer): Json;
  };
  readonly passScore: {
    readonly passScorePlanArb: fc.Arbitrary<PassScorePlan>;
    passScoreOf(plan: PassScorePlan, trials: number, tasks: number): number;
  };
}

export const SCRIPTED_AGENT = 'core.conformance.eval-scripted-agent';
/** The trial count the contract's example discovery advertises (contract §2). */
export const DEFAULT_MAX_TRIALS = 10;

/** How a suite mixes tasks with and without `expected.trajectory`. */
export type TrajectoryMix = 'none' | 'some' | 'all';

/**
 * What a task records: nothing; `fixtures` without `toolResponses`, so no call can miss
 * (contract §4); no answers at all, so every call misses; or answers for every tool but one,
 * some entries without `response` and one shadowed by an earlier entry for its tool.
 */
export const RECORDINGS = ['none', 'no-tool-responses', 'empty', 'answers'] as const;
export type Recording = (typeof RECORDINGS)[number];

export interface GeneratorOptions {
  /** The largest `trials.count` to generate: the host's advertised `trials.maxCount`. */
  readonly maxTrials?: number;
}

interface GeneratedTask {
  readonly task: EvalTask;
  readonly script: readonly ScriptedTrial[];
}

/** Every trial's entry, in run order: the list's one entry, or entry i for trial i. */
function runEntries(tasks: readonly GeneratedTask[], trials: number): ScriptedTrial[] {
  return tasks
    .flatMap(({ script }) =>
      Array.from({ length: trials }, (_, i) => (script.length === 1 ? script[0] : script[i])),
    )
    .filter((entry): entry is ScriptedTrial => entry !== undefined);
}

/** A version's generated fixture, drawn from its parts; its id and suite id are placeholders. */
export function suiteArbOf<Kind, Answer, EntryFigures, SuiteFigures, PassScorePlan>(
  parts: SuiteParts<Kind, Answer, EntryFigures, SuiteFigures, PassScorePlan>,
): (options?: GeneratorOptions) => fc.Arbitrary<Fixture> {
  const { ANSWERED_TOOLS, FORBIDDEN_TOOLS, PATH_KINDS, expectedCallsArb, scriptedCalls } =
    parts.calls;
  const { entryFiguresArb, suiteFiguresArb, statedFigures, limitsFor } = parts.figures;
  const { ANSWERS, GOLDEN_MATCHES, goldenArb, scriptedOutput } = parts.outputs;
  const { passScorePlanArb, passScoreOf } = parts.passScore;

  const answered: readonly ToolResponse[] = [
    ...[...ANSWERED_TOOLS, ...FORBIDDEN_TOOLS].map((tool, i) =>
      i % 3 === 2 ? { tool } : { tool, response: { tool, ok: true } },
    ),
    { tool: 'crm:lookup', response: { shadowed: true } },
  ];

  const recorded = (recording: Recording): Pick<EvalTask, 'fixtures'> => {
    switch (recording) {
      case 'none':
        return {};
      case 'no-tool-responses':
        return { fixtures: { memorySeed: [{ note: 'seeded' }] } };
      case 'empty':
        return { fixtures: { toolResponses: [] } };
      case 'answers':
        return { fixtures: { toolResponses: answered } };
    }
  };

  const trajectoryArb: fc.Arbitrary<ExpectedTrajectory> = fc
    .record({
      match: fc.constantFrom<MatchMode>('exact', 'in-order', 'any-order'),
      calls: expectedCallsArb,
      forbidden: fc.option(fc.subarray([...FORBIDDEN_TOOLS], { minLength: 1 }), {
        nil: undefined,
      }),
    })
    .map(({ match, calls, forbidden }) =>
      forbidden === undefined ? { match, calls } : { match, calls, forbidden },
    );

  /** One scripted entry, before the task it belongs to gives it calls and an output. */
  const entryPlanArb = fc.record({
    kind: fc.constantFrom(...PATH_KINDS),
    pick: fc.nat({ max: 20 }),
    answer: fc.constantFrom(...ANSWERS, 'right' as Answer, 'right' as Answer),
    figures: entryFiguresArb,
  });

  /**
   * One task, independent of the suite around it, so fast-check can drop tasks and shrink each on
   * its own: a failing suite shrinks to the one task that fails it. It carries as many entries as
   * the largest trial count; the suite keeps one, or one per trial.
   */
  const taskPlanArb = (maxTrials: number) =>
    fc.record({
      strategy: fc.constantFrom(...GOLDEN_MATCHES),
      text: goldenArb('exact'),
      object: goldenArb('json-match'),
      trajectory: trajectoryArb,
      withTrajectory: fc.boolean(),
      recording: fc.constantFrom(...RECORDINGS, 'answers', 'answers'),
      freeCalls: expectedCallsArb,
      onePerTrial: fc.boolean(),
      entries: fc.array(entryPlanArb, { minLength: maxTrials, maxLength: maxTrials }),
    });
  type TaskPlan = ReturnType<typeof taskPlanArb> extends fc.Arbitrary<infer T> ? T : never;

  const buildTask = (
    plan: TaskPlan,
    taskId: string,
    trials: number,
    mix: TrajectoryMix,
    suiteFigures: SuiteFigures,
  ): GeneratedTask => {
    const withTrajectory = mix === 'all' || (mix === 'some' && plan.withTrajectory);
    const trajectory = withTrajectory ? plan.trajectory : undefined;
    const golden = plan.strategy === 'json-match' ? plan.object : plan.text;
    const base = trajectory?.calls ?? plan.freeCalls;
    const match = { strategy: plan.strategy, value: golden };
    const expected =
      trajectory === undefined
        ? ({ kind: 'golden', match } as const)
        : ({ kind: 'golden', match, trajectory } as const);
    const entries = trials > 1 && plan.onePerTrial ? trials : 1;
    const script = plan.entries.slice(0, entries).map((entry): ScriptedTrial => ({
      calls: scriptedCalls(entry.kind, base, entry.pick),
      output: scriptedOutput(plan.strategy, golden, entry.answer),
      ...statedFigures(suiteFigures, entry.figures),
    }));
    const task: EvalTask = { taskId, input: { taskId }, expected, ...recorded(plan.recording) };
    return { task, script };
  };

  return (options = {}) => {
    const maxTrials = options.maxTrials ?? DEFAULT_MAX_TRIALS;
    const taskPlan = taskPlanArb(maxTrials);
    return fc
      .record({
        // Most suites are small: a boundary on the suite mean is far likelier with few tasks.
        plans: fc.oneof(
          fc.array(taskPlan, { minLength: 1, maxLength: 3 }),
          fc.array(taskPlan, { minLength: 1, maxLength: 12 }),
        ),
        block: fc.option(
          fc.record({
            count: fc.oneof(fc.integer({ min: 1, max: maxTrials }), fc.constant(maxTrials)),
            passRule: fc.constantFrom<PassRule>('all', 'any', 'mean'),
          }),
          { nil: undefined },
        ),
        mix: fc.constantFrom<TrajectoryMix>('all', 'none', 'some', 'all'),
        figures: suiteFiguresArb,
        passScore: passScorePlanArb,
      })
      .map(({ plans, block, mix, figures: suiteFigures, passScore: plan }): Fixture => {
        const trials = block?.count ?? 1;
        const generated = plans.map((p, i) =>
          buildTask(p, `task-${i + 1}`, trials, mix, suiteFigures),
        );
        return {
          id: 'generated',
          requirement: GENERATED_REQUIREMENT,
          agentId: SCRIPTED_AGENT,
          suite: {
            suiteId: 'generated.evals.suite',
            version: '1.0.0',
            modes: ['golden'],
            thresholds: {
              passScore: passScoreOf(plan, trials, plans.length),
              ...limitsFor(suiteFigures, runEntries(generated, trials)),
            },
            ...(block === undefined ? {} : { trials: block }),
            tasks: generated.map((g) => g.task),
          },
          script: Object.fromEntries(generated.map((g) => [g.task.taskId, g.script])),
        };
      });
  };
}

/** Generator v1's fixture. */
export const fixtureArb = suiteArbOf({ calls, figures, outputs, passScore });
