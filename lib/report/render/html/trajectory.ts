// What the page shows of each trial: its expected trajectory beside the calls its script makes,
// aligned call by call, with the witness's verdict of the trial. Made before rendering by
// lib/report/trajectory-alignment.ts, so the page reads the witness's verdicts and judges nothing.

import type { MatchMode, ToolCall } from '../../../types.ts';

export type StepMark = 'match' | 'args' | 'missing' | 'extra' | 'forbidden' | 'miss';

export interface AlignedStep {
  readonly expected?: ToolCall;
  readonly observed?: ToolCall;
  /** The observed call's place in the trial's calls, 0-based. */
  readonly observedIndex?: number;
  readonly marks: readonly StepMark[];
}

export interface TrialAlignment {
  readonly trial: number;
  readonly steps: readonly AlignedStep[];
  /** The witness's verdict; null when the task has no trajectory. */
  readonly trajectoryMatched: boolean | null;
  readonly forbiddenHit: string | null;
  readonly missedTool: string | null;
  readonly failedClosed: boolean;
  readonly score: number;
  readonly gatingScore: number;
  readonly passed: boolean;
  readonly costUsd: number | null;
  readonly latencyMs: number | null;
}

export interface TaskAlignment {
  readonly taskId: string;
  /** Null when the task declares no trajectory: then every call is shown unjudged. */
  readonly mode: MatchMode | null;
  readonly forbidden: readonly string[];
  readonly trials: readonly TrialAlignment[];
}

/**
 * A declared limit as the page shows it, the witness's ExpectedLimit
 * (lib/witness/expected.ts) as it reaches the page; the alignment assigns one to the other, so
 * the compiler holds them equal.
 */
export interface LimitFigure {
  readonly threshold: 'maxCostUsd' | 'maxP95LatencyMs';
  readonly limit: number;
  readonly figure: number;
  readonly figureName: 'cost' | 'p95 latency';
  readonly kept: boolean;
}

export interface FixtureTrials {
  readonly fixtureId: string;
  readonly passScore: number;
  readonly limits: readonly LimitFigure[];
  readonly tasks: readonly TaskAlignment[];
}
