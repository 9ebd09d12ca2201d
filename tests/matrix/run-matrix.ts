// Runs every leg against one reference host, the way the legs file does, and reduces each
// outcome to what the matrix compares: disposition, assertion count, reason and failed rules.
// The host lives exactly as long as one call of runRow.

import { randomBytes } from 'node:crypto';
import type { DefectName, Pacing } from '../../reference-host/index.ts';
import type { GateName, LegOutcome } from '../../lib/types.ts';
import { PACINGS, startReferenceHost } from '../../reference-host/index.ts';
import { resolveConfig } from '../../lib/env.ts';
import { LEGS, REQUIREMENT_PREFIX, slugOfLeg } from '../../lib/legs.ts';
import type { DriveWatch } from '../../lib/observe/drive-watch.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import { openTarget } from '../../lib/decide/target.ts';
import {
  EXPECTED,
  HANGING,
  isWarnedRule,
  LEG_SLUGS,
  type LegSlug,
  type RowName,
} from './expected.ts';

export type Variant = 'plain' | 'varied';
export const VARIANTS: readonly Variant[] = ['plain', 'varied'];

/** One way of serving: a wire variant at a pacing. The full lane runs every row in every one. */
export interface HostMode {
  readonly variant: Variant;
  readonly pacing: Pacing;
}
export type ModeName = `${Variant}/${Pacing}`;
export const MODES: readonly HostMode[] = PACINGS.flatMap((pacing) =>
  VARIANTS.map((variant) => ({ variant, pacing })),
);
export const modeName = (mode: HostMode): ModeName => `${mode.variant}/${mode.pacing}`;
export const MODE_NAMES: readonly ModeName[] = MODES.map(modeName);

export interface LegResult {
  readonly slug: LegSlug;
  readonly disposition: LegOutcome['disposition'];
  readonly assertions: number;
  readonly reason: string;
  /** MUST rules with at least one failed finding, sorted, each once. */
  readonly failed: readonly string[];
  /** SHOULD rules with at least one failed finding, sorted, each once. */
  readonly warned: readonly string[];
}

export interface RowOptions {
  readonly row: RowName;
  readonly variant: Variant;
  /** Default instant. */
  readonly pacing?: Pacing;
  /** Default true: the matrix's table is written for strict mode. */
  readonly requireBehavior?: boolean;
  readonly optedOut?: readonly GateName[];
  /** The legs to run; default every leg. A leg left out is absent from the result. */
  readonly legs?: readonly LegSlug[];
}

/**
 * Every run's deadline and every request's: only a guard against a suite or host that hangs, never
 * a verdict the table expects. A run the table expects to be blocked because it never ends is
 * ended by event, not by racing this: the host says when the run has entered its hang
 * (`onHang`), and the leg's clock then jumps past its deadline, so lib's own deadline path names
 * the stage the run hangs in. Nothing in a healthy run waits on a deadline, so no verdict depends
 * on how busy the machine is.
 */
// Thirty minutes: the whole table at once beside other suites (load about 25 on two cores) kept
// some varied-host runs, a page per event, going for over ten.
export const RUN_TIMEOUT_MS = 1_800_000;

/**
 * The clocks of one row's legs: each reads the real time until the host reports its run hung, and
 * from then on the real time plus RUN_TIMEOUT_MS, which is past the deadline the run began with.
 */
class HangClocks {
  private readonly hung = new Set<string>();
  private readonly byRun = new Map<string, { jumped: boolean }>();

  readonly onHang = (runId: string): void => {
    this.hung.add(runId);
    const clock = this.byRun.get(runId);
    if (clock !== undefined) clock.jumped = true;
  };

  forLeg(): { readonly now: () => number; readonly watch: DriveWatch } {
    const clock = { jumped: false };
    return {
      now: () => Date.now() + (clock.jumped ? RUN_TIMEOUT_MS : 0),
      watch: {
        created: (runId) => {
          this.byRun.set(runId, clock);
          if (this.hung.has(runId)) clock.jumped = true;
        },
      },
    };
  }
}

export function slugOf(requirement: string): LegSlug {
  const slug = LEG_SLUGS.find((s) => requirement === `${REQUIREMENT_PREFIX}${s}`);
  if (slug === undefined) throw new Error(`the matrix has no column for ${requirement}`);
  return slug;
}

export async function runRow(options: RowOptions): Promise<readonly LegResult[]> {
  const apiKey = randomBytes(24).toString('base64url');
  const defect: DefectName | undefined = options.row === 'conformant' ? undefined : options.row;
  const clocks = new HangClocks();
  const host = await startReferenceHost({
    apiKey,
    variant: options.variant,
    pacing: options.pacing ?? 'instant',
    onHang: clocks.onHang,
    ...(defect === undefined ? {} : { defect }),
  });
  const legs =
    options.legs === undefined
      ? LEGS
      : LEGS.filter((leg) => options.legs?.includes(slugOfLeg(leg)));
  try {
    const config = resolveConfig({
      OPENWOP_BASE_URL: host.url,
      OPENWOP_API_KEY: apiKey,
      OPENWOP_REQUIRE_BEHAVIOR: String(options.requireBehavior ?? true),
      OPENWOP_OPTED_OUT_PROFILES: (options.optedOut ?? []).join(','),
      OPENWOP_RUN_TIMEOUT_MS: String(RUN_TIMEOUT_MS),
      OPENWOP_POLL_TIMEOUT_S: '1',
      OPENWOP_REQUEST_TIMEOUT_MS: String(RUN_TIMEOUT_MS),
    });
    // Discovery is read afresh for each row: a closed host's port can be handed to a later one.
    const target = await openTarget(config);
    try {
      const outcomes = await Promise.all(legs.map((leg) => runLeg(leg, target, clocks.forLeg())));
      return outcomes.map(reduce);
    } finally {
      await target?.client.close();
    }
  } finally {
    await host.close();
  }
}

function reduce(outcome: LegOutcome): LegResult {
  const failedRules = (severity: 'MUST' | 'SHOULD'): string[] =>
    [
      ...new Set(
        outcome.findings.filter((f) => !f.ok && f.severity === severity).map((f) => f.rule),
      ),
    ].sort();
  return {
    slug: slugOf(outcome.requirement),
    disposition: outcome.disposition,
    assertions: outcome.assertions,
    reason: outcome.reason ?? '',
    failed: failedRules('MUST'),
    warned: failedRules('SHOULD'),
  };
}

/** Each mode's rows that were run; a row left out of a partial run is absent. */
export type MatrixResults = Readonly<
  Record<ModeName, Readonly<Partial<Record<RowName, readonly LegResult[]>>>>
>;

export const ROW_NAMES = Object.keys(EXPECTED) as readonly RowName[];

/** How many files the busy rows are dealt into: matrix-N-of-BUSY_PARTS.test.ts. */
export const BUSY_PARTS = 2;

/** The rows whose runs never end: their legs are blocked once the host reports the hang. */
export const HANGING_ROWS: readonly RowName[] = ROW_NAMES.filter((row) => HANGING.has(row));

/**
 * The busy rows of part `index` (from 1) of `of`: every `of`-th row that is not hanging, so that
 * each part holds a like share of the costly rows and the conformant row is in part 1.
 */
export function rowsOfPart(index: number, of: number): readonly RowName[] {
  return ROW_NAMES.filter((row) => !HANGING.has(row)).filter((_, i) => i % of === index - 1);
}

/** Which legs of a row run in a mode; a row given none there is not run in that mode. */
export type MatrixPlan = (row: RowName, mode: ModeName) => readonly LegSlug[];

/**
 * The table's `rows` (by default all) in the cells `plan` names (by default every leg of every
 * row in every mode). Suite and hosts share one thread, so the modes run one after another, each
 * mode's rows in `shares` one after another: that bounds how many runs are in flight at once, and
 * with them the memory and the sockets a run holds. No deadline depends on it (RUN_TIMEOUT_MS).
 */
export async function runMatrix(
  rows: readonly RowName[] = ROW_NAMES,
  run: (options: RowOptions) => Promise<readonly LegResult[]> = runRow,
  shares = 1,
  plan: MatrixPlan = () => LEG_SLUGS,
): Promise<MatrixResults> {
  const results = Object.fromEntries(MODE_NAMES.map((m) => [m, {}])) as Record<
    ModeName,
    Partial<Record<RowName, readonly LegResult[]>>
  >;
  const runMode = (mode: HostMode, rows: readonly RowName[]): Promise<void[]> =>
    Promise.all(
      rows.map(async (row) => {
        // A row that cannot run (a table row naming no defect) shows as legs not run, so the
        // other rows still report; the cause goes to stderr.
        const legs = plan(row, modeName(mode));
        results[modeName(mode)][row] = await run({ row, ...mode, legs }).catch((error: unknown) => {
          process.stderr.write(
            `matrix row ${row} (${modeName(mode)}) did not run: ${String(error)}\n`,
          );
          return [];
        });
      }),
    );
  for (const mode of MODES) {
    const running = rows.filter((row) => plan(row, modeName(mode)).length > 0);
    for (let share = 0; share < shares; share += 1) {
      await runMode(
        mode,
        running.filter((_, i) => i % shares === share),
      );
    }
  }
  return results as MatrixResults;
}

/** The modes `row` ran in: those whose results hold it. */
export function modesRun(results: MatrixResults, row: RowName): readonly ModeName[] {
  return MODE_NAMES.filter((m) => results[m][row] !== undefined);
}

/**
 * A defect is caught when at least one leg on it is anything but executed-pass, or passes with a
 * failed SHOULD finding a row may name (a wire rule, or events.started-trials): no SHOULD rule
 * fails a leg, so its finding is the catch.
 */
export function caught(results: readonly LegResult[]): boolean {
  return results.some((r) => r.disposition !== 'executed-pass' || r.warned.some(isWarnedRule));
}
