// Generated fixtures: a suite and its script, of the same shape as fixtures/*.json. Tasks with
// and without trajectories (every match mode, calls with no, one, several or nested args,
// forbidden tools, one of them sometimes also expected, repeats), trials blocks with every pass rule, outputs that match and miss under every golden
// strategy, every way of recording tool answers, and stated costs and latencies with limits
// above, on and below them. Every choice is a fast-check arbitrary, so a seed replays a suite
// and a failing suite shrinks. What each one scores is the graders' business, not this file's.

import fc from 'fast-check';
import type {
  EvalTask,
  ExpectedTrajectory,
  Fixture,
  MatchMode,
  PassRule,
  ScriptedTrial,
  ToolResponse,
} from '../types.ts';
import {
  ANSWERED_TOOLS,
  expectedCallsArb,
  FORBIDDEN_TOOLS,
  PATH_KINDS,
  scriptedCalls,
} from './calls.ts';
import {
  entryFiguresArb,
  limitsFor,
  statedFigures,
  suiteFiguresArb,
  type SuiteFigures,
} from './figures.ts';
import { ANSWERS, GOLDEN_MATCHES, goldenArb, scriptedOutput } from './outputs.ts';
import { passScoreOf, passScorePlanArb } from './pass-score.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';

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

const ANSWERED: readonly ToolResponse[] = [
  ...[...ANSWERED_TOOLS, ...FORBIDDEN_TOOLS].map((tool, i) =>
    i % 3 === 2 ? { tool } : { tool, response: { tool, ok: true } },
  ),
  { tool: 'crm:lookup', response: { shadowed: true } },
];

function recorded(recording: Recording): Pick<EvalTask, 'fixtures'> {
  switch (recording) {
    case 'none':
      return {};
    case 'no-tool-responses':
      return { fixtures: { memorySeed: [{ note: 'seeded' }] } };
    case 'empty':
      return { fixtures: { toolResponses: [] } };
    case 'answers':
      return { fixtures: { toolResponses: ANSWERED } };
  }
}

/**
 * A trajectory, its forbidden list sometimes naming one of its own expected tools: every mode
 * fails a trial that calls a forbidden tool, a call that meets an expected one included (host
 * guide section 6), so such a path never matches, whichever calls it makes.
 */
const trajectoryArb: fc.Arbitrary<ExpectedTrajectory> = fc
  .record({
    match: fc.constantFrom<MatchMode>('exact', 'in-order', 'any-order'),
    calls: expectedCallsArb,
    forbidden: fc.option(fc.subarray([...FORBIDDEN_TOOLS], { minLength: 1 }), { nil: undefined }),
    forbidExpected: fc.boolean(),
  })
  .map(({ match, calls, forbidden, forbidExpected }) => {
    const own = forbidExpected ? calls[0]?.tool : undefined;
    const listed = own === undefined ? forbidden : [...(forbidden ?? []), own];
    return listed === undefined ? { match, calls } : { match, calls, forbidden: listed };
  });

/** One scripted entry, before the task it belongs to gives it calls and an output. */
const entryPlanArb = fc.record({
  kind: fc.constantFrom(...PATH_KINDS),
  pick: fc.nat({ max: 20 }),
  answer: fc.constantFrom(...ANSWERS, 'right', 'right'),
  figures: entryFiguresArb,
});
type EntryPlan = typeof entryPlanArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * One task, independent of the suite around it, so fast-check can drop tasks and shrink each on
 * its own: a failing suite shrinks to the one task that fails it. It carries as many entries as
 * the largest trial count; the suite keeps one, or one per trial.
 */
function taskPlanArb(maxTrials: number) {
  return fc.record({
    strategy: fc.constantFrom(...GOLDEN_MATCHES),
    value: goldenArb('exact'),
    text: goldenArb('contains'),
    object: goldenArb('json-match'),
    trajectory: trajectoryArb,
    withTrajectory: fc.boolean(),
    recording: fc.constantFrom(...RECORDINGS, 'answers', 'answers'),
    freeCalls: expectedCallsArb,
    onePerTrial: fc.boolean(),
    entries: fc.array(entryPlanArb, { minLength: maxTrials, maxLength: maxTrials }),
  });
}
type TaskPlan = ReturnType<typeof taskPlanArb> extends fc.Arbitrary<infer T> ? T : never;

interface GeneratedTask {
  readonly task: EvalTask;
  readonly script: readonly ScriptedTrial[];
}

function hasTrajectory(plan: TaskPlan, mix: TrajectoryMix): boolean {
  return mix === 'all' || (mix === 'some' && plan.withTrajectory);
}

function buildTask(
  plan: TaskPlan,
  taskId: string,
  trials: number,
  mix: TrajectoryMix,
  figures: SuiteFigures,
): GeneratedTask {
  const trajectory = hasTrajectory(plan, mix) ? plan.trajectory : undefined;
  const golden =
    plan.strategy === 'json-match'
      ? plan.object
      : plan.strategy === 'exact'
        ? plan.value
        : plan.text;
  const base = trajectory?.calls ?? plan.freeCalls;
  const match = { strategy: plan.strategy, value: golden };
  const expected =
    trajectory === undefined
      ? ({ kind: 'golden', match } as const)
      : ({ kind: 'golden', match, trajectory } as const);
  const entries = trials > 1 && plan.onePerTrial ? trials : 1;
  const script = plan.entries.slice(0, entries).map((entry: EntryPlan): ScriptedTrial => ({
    calls: scriptedCalls(entry.kind, base, entry.pick),
    output: scriptedOutput(plan.strategy, golden, entry.answer),
    ...statedFigures(figures, entry.figures),
  }));
  const task: EvalTask = { taskId, input: { taskId }, expected, ...recorded(plan.recording) };
  return { task, script };
}

/** Every trial's entry, in run order: the list's one entry, or entry i for trial i. */
function runEntries(tasks: readonly GeneratedTask[], trials: number): ScriptedTrial[] {
  return tasks
    .flatMap(({ script }) =>
      Array.from({ length: trials }, (_, i) => (script.length === 1 ? script[0] : script[i])),
    )
    .filter((entry): entry is ScriptedTrial => entry !== undefined);
}

export interface GeneratorOptions {
  /** The largest `trials.count` to generate: the host's advertised `trials.maxCount`. */
  readonly maxTrials?: number;
}

/** A generated fixture; its id and suite id are placeholders a pack replaces. */
export function fixtureArb(options: GeneratorOptions = {}): fc.Arbitrary<Fixture> {
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
    .map(({ plans, block, mix, figures, passScore }): Fixture => {
      const trials = block?.count ?? 1;
      const generated = plans.map((plan, i) =>
        buildTask(plan, `task-${i + 1}`, trials, mix, figures),
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
            passScore: passScoreOf(passScore, trials, plans.length),
            ...limitsFor(figures, runEntries(generated, trials)),
          },
          ...(block === undefined ? {} : { trials: block }),
          tasks: generated.map((g) => g.task),
        },
        script: Object.fromEntries(generated.map((g) => [g.task.taskId, g.script])),
      };
    });
}
