// Random fixtures for the property tests: 1–50 tasks, 1–10 trials or no trials block, every pass
// rule, thresholds that often sit exactly on an achievable mean, and scripted paths that match,
// drop, reorder, add, hit a forbidden tool, call a tool without a canned answer or send the
// wrong args. The generator only builds documents; what each one scores is the oracle's business.

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
  ToolCall,
  ToolResponse,
} from '../../lib/types.ts';

/** Tools every task that records answers has a canned answer for. */
export const ANSWERED_TOOLS = ['crm:lookup', 'crm:update', 'billing:refund', 'kb:search'] as const;
/** Tools a trajectory may forbid; they are answered too, so a hit is never also a miss. */
export const FORBIDDEN_TOOLS = ['billing:void', 'crm:delete'] as const;
/** A tool no task has an answer for: calling it where answers are recorded is a fixture miss. */
export const UNANSWERED_TOOL = 'net:fetch';

export const PATH_KINDS = [
  'match',
  'drop',
  'reorder',
  'extra',
  'forbidden',
  'unanswered',
  'wrong-args',
] as const;
export type PathKind = (typeof PATH_KINDS)[number];

/** How a suite mixes tasks with and without `expected.trajectory`. */
export type TrajectoryMix = 'none' | 'some' | 'all';

const callArb: fc.Arbitrary<ToolCall> = fc
  .record({
    tool: fc.constantFrom(...ANSWERED_TOOLS),
    id: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: undefined }),
  })
  // Expected args are never `{}`: whether `{}` matches a call without args is not in the contract.
  .map(({ tool, id }) => (id === undefined ? { tool } : { tool, args: { id } }));

const trajectoryArb: fc.Arbitrary<ExpectedTrajectory> = fc
  .record({
    match: fc.constantFrom<MatchMode>('exact', 'in-order', 'any-order'),
    calls: fc.array(callArb, { maxLength: 3 }),
    forbidden: fc.option(fc.subarray([...FORBIDDEN_TOOLS], { minLength: 1 }), { nil: undefined }),
  })
  .map(({ match, calls, forbidden }) =>
    forbidden === undefined ? { match, calls } : { match, calls, forbidden },
  );

const goldenArb: fc.Arbitrary<Json> = fc.oneof(
  fc.integer({ min: 0, max: 3 }).map((n) => `answer ${n}`),
  fc.record({ answer: fc.integer({ min: 0, max: 3 }), final: fc.boolean() }),
);

/** The calls a scripted trial makes: `base` bent the way `kind` says, at a place `pick` chooses. */
export function scriptedCalls(kind: PathKind, base: readonly ToolCall[], pick: number): ToolCall[] {
  const at = pick % (base.length + 1);
  const insert = (call: ToolCall): ToolCall[] => [...base.slice(0, at), call, ...base.slice(at)];
  switch (kind) {
    case 'match':
      return [...base];
    case 'drop':
      return base.filter((_, i) => i !== pick % Math.max(base.length, 1));
    case 'reorder':
      return [...base].reverse();
    case 'extra':
      return insert({ tool: ANSWERED_TOOLS[pick % ANSWERED_TOOLS.length] ?? 'kb:search' });
    case 'forbidden':
      return insert({ tool: FORBIDDEN_TOOLS[pick % FORBIDDEN_TOOLS.length] ?? 'billing:void' });
    case 'unanswered':
      return insert({ tool: UNANSWERED_TOOL });
    case 'wrong-args':
      return base.map((call, i) =>
        i === at % Math.max(base.length, 1) ? { ...call, args: { id: 'Z' } } : call,
      );
  }
}

/** An output the golden match accepts (a right answer) for each match mode. */
function rightOutput(match: GoldenMatch, golden: Json): Json {
  if (match === 'contains' && typeof golden === 'string') return `so: ${golden}, final`;
  if (
    match === 'json-match' &&
    typeof golden === 'object' &&
    golden !== null &&
    !Array.isArray(golden)
  ) {
    // Same members in another order: deep JSON equality ignores member order.
    return Object.fromEntries(Object.entries(golden).reverse());
  }
  return golden;
}

const trialArb = (
  match: GoldenMatch,
  golden: Json,
  base: readonly ToolCall[],
): fc.Arbitrary<ScriptedTrial> =>
  fc
    .record({
      kind: fc.constantFrom(...PATH_KINDS),
      pick: fc.nat({ max: 20 }),
      answer: fc.constantFrom('right', 'right', 'wrong', 'near'),
    })
    .map(({ kind, pick, answer }) => ({
      calls: scriptedCalls(kind, base, pick),
      output:
        answer === 'right'
          ? rightOutput(match, golden)
          : answer === 'near'
            ? `${typeof golden === 'string' ? golden : JSON.stringify(golden)}!`
            : 'no answer',
    }));

interface GeneratedTask {
  readonly task: EvalTask;
  readonly script: readonly ScriptedTrial[];
}

/**
 * The recorded answers of a task that records any: one entry per answered tool, some without a
 * `response` (still recorded, answering null), and a later duplicate the first entry shadows.
 */
const ANSWERS: readonly ToolResponse[] = [
  ...[...ANSWERED_TOOLS, ...FORBIDDEN_TOOLS].map((tool, i) =>
    i % 3 === 2 ? { tool } : { tool, response: { tool, ok: true } },
  ),
  { tool: 'crm:lookup', response: { shadowed: true } },
];

/**
 * What a task records: nothing; `fixtures` without `toolResponses`, so no call can miss
 * (contract §4); or the answers above, so a call to any other tool misses.
 */
export const RECORDINGS = ['none', 'no-tool-responses', 'answers'] as const;
type Recording = (typeof RECORDINGS)[number];

function recorded(recording: Recording): Pick<EvalTask, 'fixtures'> {
  switch (recording) {
    case 'none':
      return {};
    case 'no-tool-responses':
      return { fixtures: { memorySeed: [{ note: 'seeded' }] } };
    case 'answers':
      return { fixtures: { toolResponses: ANSWERS } };
  }
}

function taskArb(taskId: string, trials: number, mix: TrajectoryMix): fc.Arbitrary<GeneratedTask> {
  const trajectory =
    mix === 'none'
      ? fc.constant(undefined)
      : mix === 'all'
        ? trajectoryArb
        : fc.option(trajectoryArb, { nil: undefined });
  return fc
    .record({
      match: fc.constantFrom<GoldenMatch>('exact', 'contains', 'json-match'),
      golden: goldenArb,
      trajectory,
      recording: fc.constantFrom(...RECORDINGS),
      freeCalls: fc.array(callArb, { maxLength: 3 }),
      onePerTrial: fc.boolean(),
    })
    .chain(({ match, golden, trajectory, recording, freeCalls, onePerTrial }) => {
      const base = trajectory?.calls ?? freeCalls;
      const entries = trials > 1 && onePerTrial ? trials : 1;
      const goldenOnly = { kind: 'golden', match: { strategy: match, value: golden } } as const;
      const expected = trajectory === undefined ? goldenOnly : { ...goldenOnly, trajectory };
      const task: EvalTask = { taskId, input: { taskId }, expected, ...recorded(recording) };
      return fc
        .array(trialArb(match, golden, base), { minLength: entries, maxLength: entries })
        .map((script) => ({ task, script }));
    });
}

/**
 * A passScore that is often exactly achievable: 0, 1, a task mean k/n, or a suite mean k/(n·T)
 * (every gated aggregate is some such fraction); otherwise any number in 0–1.
 */
export function passScoreArb(trials: number, tasks: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, 1),
    fc.integer({ min: 0, max: trials }).map((k) => k / trials),
    fc.integer({ min: 0, max: trials * tasks }).map((k) => k / (trials * tasks)),
    fc.double({ min: 0, max: 1, noNaN: true }),
  );
}

export const fixtureArb: fc.Arbitrary<Fixture> = fc
  .record({
    // Half the suites are small: a boundary on the suite mean is far likelier with few tasks.
    taskCount: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 50 })),
    block: fc.option(
      fc.record({
        count: fc.integer({ min: 1, max: 10 }),
        passRule: fc.constantFrom<PassRule>('all', 'any', 'mean'),
      }),
      { nil: undefined },
    ),
    mix: fc.constantFrom<TrajectoryMix>('none', 'some', 'all'),
  })
  .chain(({ taskCount, block, mix }) => {
    const trials = block?.count ?? 1;
    const tasks = Array.from({ length: taskCount }, (_, i) =>
      taskArb(`task-${i + 1}`, trials, mix),
    );
    return fc
      .record({ tasks: fc.tuple(...tasks), passScore: passScoreArb(trials, taskCount) })
      .map(({ tasks: generated, passScore }): Fixture => ({
        id: 'property-random',
        requirement: 'openwop.requirement.0246.suite-gated',
        agentId: 'core.conformance.eval-scripted-agent',
        suite: {
          suiteId: 'property.evals.random',
          version: '1.0.0',
          modes: ['golden'],
          thresholds: { passScore },
          ...(block === undefined ? {} : { trials: block }),
          tasks: generated.map((g) => g.task),
        },
        script: Object.fromEntries(generated.map((g) => [g.task.taskId, g.script])),
      }));
  });
