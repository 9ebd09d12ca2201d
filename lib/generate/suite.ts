// Generated fixtures: a suite and its script, of the same shape as fixtures/*.json. Tasks with
// and without trajectories (every match mode, calls with and without args, forbidden tools,
// repeats), trials blocks with every pass rule, outputs that match and miss under every golden
// strategy, every way of recording tool answers, and stated costs and latencies with limits
// above, on and below them. Every choice is a fast-check arbitrary, so a seed replays a suite
// and a failing suite shrinks. What each one scores is the graders' business, not this file's.

import fc from 'fast-check';
import type {
  EvalTask,
  ExpectedTrajectory,
  Fixture,
  GoldenMatch,
  MatchMode,
  PassRule,
  ScriptedTrial,
  ToolCall,
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
import { passScoreArb } from './pass-score.ts';

/** The requirement every generated fixture drives. */
export const GENERATED_REQUIREMENT = 'openwop.requirement.0246.generated';
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

const trajectoryArb: fc.Arbitrary<ExpectedTrajectory> = fc
  .record({
    match: fc.constantFrom<MatchMode>('exact', 'in-order', 'any-order'),
    calls: expectedCallsArb,
    forbidden: fc.option(fc.subarray([...FORBIDDEN_TOOLS], { minLength: 1 }), { nil: undefined }),
  })
  .map(({ match, calls, forbidden }) =>
    forbidden === undefined ? { match, calls } : { match, calls, forbidden },
  );

function trialArb(
  strategy: GoldenMatch,
  golden: EvalTask['input'],
  base: readonly ToolCall[],
  figures: SuiteFigures,
): fc.Arbitrary<ScriptedTrial> {
  return fc
    .record({
      kind: fc.constantFrom(...PATH_KINDS),
      pick: fc.nat({ max: 20 }),
      answer: fc.constantFrom(...ANSWERS, 'right', 'right'),
      figures: entryFiguresArb,
    })
    .map(({ kind, pick, answer, figures: entry }) => ({
      calls: scriptedCalls(kind, base, pick),
      output: scriptedOutput(strategy, golden, answer),
      ...statedFigures(figures, entry),
    }));
}

interface GeneratedTask {
  readonly task: EvalTask;
  readonly script: readonly ScriptedTrial[];
}

function taskArb(
  taskId: string,
  trials: number,
  mix: TrajectoryMix,
  figures: SuiteFigures,
): fc.Arbitrary<GeneratedTask> {
  const trajectory =
    mix === 'none'
      ? fc.constant(undefined)
      : mix === 'all'
        ? trajectoryArb
        : fc.option(trajectoryArb, { nil: undefined });
  return fc
    .record({
      strategy: fc.constantFrom(...GOLDEN_MATCHES),
      trajectory,
      recording: fc.constantFrom(...RECORDINGS, 'answers', 'answers'),
      freeCalls: expectedCallsArb,
      onePerTrial: fc.boolean(),
    })
    .chain(({ strategy, trajectory, recording, freeCalls, onePerTrial }) =>
      goldenArb(strategy).chain((golden) => {
        const base = trajectory?.calls ?? freeCalls;
        const entries = trials > 1 && onePerTrial ? trials : 1;
        const match = { strategy, value: golden };
        const expected =
          trajectory === undefined
            ? ({ kind: 'golden', match } as const)
            : ({ kind: 'golden', match, trajectory } as const);
        const task: EvalTask = { taskId, input: { taskId }, expected, ...recorded(recording) };
        return fc
          .array(trialArb(strategy, golden, base, figures), {
            minLength: entries,
            maxLength: entries,
          })
          .map((script) => ({ task, script }));
      }),
    );
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
  return fc
    .record({
      // Most suites are small: a boundary on the suite mean is far likelier with few tasks.
      taskCount: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 12 })),
      block: fc.option(
        fc.record({
          count: fc.oneof(fc.integer({ min: 1, max: maxTrials }), fc.constant(maxTrials)),
          passRule: fc.constantFrom<PassRule>('all', 'any', 'mean'),
        }),
        { nil: undefined },
      ),
      mix: fc.constantFrom<TrajectoryMix>('none', 'some', 'all', 'all'),
      figures: suiteFiguresArb,
    })
    .chain(({ taskCount, block, mix, figures }) => {
      const trials = block?.count ?? 1;
      const tasks = Array.from({ length: taskCount }, (_, i) =>
        taskArb(`task-${i + 1}`, trials, mix, figures),
      );
      return fc
        .record({ tasks: fc.tuple(...tasks), passScore: passScoreArb(trials, taskCount) })
        .map(({ tasks: generated, passScore }): Fixture => ({
          id: 'generated',
          requirement: GENERATED_REQUIREMENT,
          agentId: SCRIPTED_AGENT,
          suite: {
            suiteId: 'generated.evals.suite',
            version: '1.0.0',
            modes: ['golden'],
            thresholds: { passScore, ...limitsFor(figures, runEntries(generated, trials)) },
            ...(block === undefined ? {} : { trials: block }),
            tasks: generated.map((g) => g.task),
          },
          script: Object.fromEntries(generated.map((g) => [g.task.taskId, g.script])),
        }));
    });
}
