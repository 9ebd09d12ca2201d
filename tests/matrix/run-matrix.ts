// Runs every leg against one reference host, the way the legs file does, and reduces each
// outcome to what the matrix compares: disposition, assertion count, reason and failed rules.
// The host lives exactly as long as one call of runRow.

import { randomBytes } from 'node:crypto';
import type { DefectName, Pacing } from '../../reference-host/index.ts';
import type { GateName, LegOutcome } from '../../lib/types.ts';
import { PACINGS, startReferenceHost } from '../../reference-host/index.ts';
import { resolveConfig } from '../../lib/env.ts';
import { LEGS, REQUIREMENT_PREFIX } from '../../lib/legs.ts';
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

/** One way of serving: a wire variant at a pacing. The whole matrix runs in every one. */
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
}

/**
 * Run deadline for a defect whose run never ends. The healthy part of such a run (the create and
 * the log, some forty round trips in the varied variant) must end well inside it, or the blocked
 * reason names the wrong stage: those rows run after the busy ones, or in a file of their own,
 * where that part takes under 2 s quiet and about 5 s on a 2-core machine beside other work.
 */
export const HANGING_RUN_TIMEOUT_MS = 15_000;
/** Run deadline for every other row: generous, because all rows share the machine at once. */
const RUN_TIMEOUT_MS = 60_000;
/**
 * Each request's deadline, for the same reason: every leg of every row starts at once on one
 * thread, and under that load a create can wait past the 10 s default behind the other rows.
 */
const REQUEST_TIMEOUT_MS = 30_000;

export function slugOf(requirement: string): LegSlug {
  const slug = LEG_SLUGS.find((s) => requirement === `${REQUIREMENT_PREFIX}${s}`);
  if (slug === undefined) throw new Error(`the matrix has no column for ${requirement}`);
  return slug;
}

export async function runRow(options: RowOptions): Promise<readonly LegResult[]> {
  const apiKey = randomBytes(24).toString('base64url');
  const defect: DefectName | undefined = options.row === 'conformant' ? undefined : options.row;
  const host = await startReferenceHost({
    apiKey,
    variant: options.variant,
    pacing: options.pacing ?? 'instant',
    ...(defect === undefined ? {} : { defect }),
  });
  try {
    const config = resolveConfig({
      OPENWOP_BASE_URL: host.url,
      OPENWOP_API_KEY: apiKey,
      OPENWOP_REQUIRE_BEHAVIOR: String(options.requireBehavior ?? true),
      OPENWOP_OPTED_OUT_PROFILES: (options.optedOut ?? []).join(','),
      OPENWOP_RUN_TIMEOUT_MS: String(
        HANGING.has(options.row) ? HANGING_RUN_TIMEOUT_MS : RUN_TIMEOUT_MS,
      ),
      OPENWOP_POLL_TIMEOUT_S: '1',
      OPENWOP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    // Discovery is memoized per base URL, and a closed host's port can be handed to a later one.
    // Forgetting and fetching happen in one synchronous step, so no other row's entry is lost.
    const target = await openTarget(config);
    try {
      const outcomes = await Promise.all(LEGS.map((leg) => runLeg(leg, target)));
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

/** The rows whose runs never end, which mostly wait out their deadline. */
export const HANGING_ROWS: readonly RowName[] = ROW_NAMES.filter((row) => HANGING.has(row));

/**
 * The busy rows of part `index` (from 1) of `of`: every `of`-th row that is not hanging, so that
 * each part holds a like share of the costly rows and the conformant row is in part 1.
 */
export function rowsOfPart(index: number, of: number): readonly RowName[] {
  return ROW_NAMES.filter((row) => !HANGING.has(row)).filter((_, i) => i % of === index - 1);
}

/**
 * The strict table's `rows` (by default all) in every mode: both variants, each at both pacings.
 * Suite and hosts share one thread. The busy rows run one mode after another, each mode's rows
 * all at once: every run waits behind a quarter of the load rather than all of it, so a healthy
 * run ends well inside its deadline on a shared machine. Then the few rows whose runs never end,
 * every mode at once and nothing beside them, since behind the busy rows' thousands of requests
 * each of their round trips would queue and the healthy part of their runs could outlast the
 * deadline; they mostly wait it out, and waiting costs nothing.
 */
export async function runMatrix(
  rows: readonly RowName[] = ROW_NAMES,
  run: (options: RowOptions) => Promise<readonly LegResult[]> = runRow,
  /** Each mode's busy rows run in this many shares, one after another (the whole table: BUSY_PARTS). */
  shares = 1,
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
        results[modeName(mode)][row] = await run({ row, ...mode }).catch((error: unknown) => {
          process.stderr.write(
            `matrix row ${row} (${modeName(mode)}) did not run: ${String(error)}\n`,
          );
          return [];
        });
      }),
    );
  const busy = rows.filter((row) => !HANGING.has(row));
  for (const mode of MODES) {
    for (let share = 0; share < shares; share += 1) {
      await runMode(
        mode,
        busy.filter((_, i) => i % shares === share),
      );
    }
  }
  const hanging = rows.filter((row) => HANGING.has(row));
  await Promise.all(MODES.map((mode) => runMode(mode, hanging)));
  return results as MatrixResults;
}

/**
 * A defect is caught when at least one leg on it is anything but executed-pass, or passes with a
 * failed SHOULD finding a row may name (a wire rule, or events.started-trials): no SHOULD rule
 * fails a leg, so its finding is the catch.
 */
export function caught(results: readonly LegResult[]): boolean {
  return results.some((r) => r.disposition !== 'executed-pass' || r.warned.some(isWarnedRule));
}
