// What the witness's own grading of a fixture says the reference host must report: the suite's
// and each task's numbers, each trial's eval.scored verdict and the shape of the log. The grading
// test holds the host to it for every fixture the legs drive, so a new fixture is checked without
// a table of its own; the summaries written out there check the rest of the shape besides.

import { expectRun, type ExpectedRun } from '../../lib/witness/expected.ts';
import { loadFixture } from '../../lib/fixtures.ts';

export interface DerivedGrading {
  readonly suite: {
    readonly aggregateScore: number;
    readonly passed: boolean;
    readonly taskCount: number;
    readonly passedCount: number;
  };
  /** The gated aggregate, or undefined where no task has a trajectory and none is reported. */
  readonly gatedAggregateScore: number | undefined;
  readonly tasks: readonly {
    readonly taskId: string;
    readonly score: number;
    readonly gatedScore: number | undefined;
    readonly passed: boolean;
  }[];
  readonly scored: readonly (readonly [number, boolean])[];
  /** Trials per task as eval.scored numbers them: none without a trials block. */
  readonly trialNumbers: readonly number[];
  readonly log: string;
}

/** One invocation per trial: started, a call and its return per scripted call, decided, completed. */
function trialLog(calls: number): string {
  return `i${'cr'.repeat(calls)}des`;
}

export function gradingOf(run: ExpectedRun): DerivedGrading {
  const trials = run.tasks.flatMap((t) => t.trials);
  return {
    suite: {
      aggregateScore: run.aggregateScore,
      passed: run.passed,
      taskCount: run.taskCount,
      passedCount: run.passedCount,
    },
    gatedAggregateScore:
      run.gatedAggregatePresence === 'forbidden' ? undefined : run.gatedAggregateScore,
    tasks: run.tasks.map((t) => ({
      taskId: t.taskId,
      score: t.score,
      gatedScore: t.gatedScorePresence === 'forbidden' ? undefined : t.gatedScore,
      passed: t.passed,
    })),
    scored: trials.map((t) => [t.score, t.passed] as const),
    trialNumbers:
      run.trialsBlock === null
        ? []
        : run.tasks.flatMap(() => Array.from({ length: run.trialCount }, (_, i) => i + 1)),
    log: `S ${trials.map((t) => trialLog(t.calls.length)).join(' ')} C R`,
  };
}

export async function derivedGrading(id: string): Promise<DerivedGrading> {
  const loaded = await loadFixture(id);
  if (!loaded.ok) throw new Error(`fixture ${id} does not load: ${loaded.reason}`);
  return gradingOf(expectRun(loaded.fixture));
}
