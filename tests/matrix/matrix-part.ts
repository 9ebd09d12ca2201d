// The falsifiability matrix, compared cell by cell with the hand-written table in expected.ts, in
// two lanes. `npm test` runs every leg against the conformant reference host in all four modes,
// and against each of its defects the legs the table expects to catch it in two modes that hold
// both variants and both pacings (checked-legs.ts); the committed docs/falsifiability.md must
// agree with every cell it ran. The full lane (`npm run test:matrix-full`, in CI after `npm test`)
// runs every cell in every mode and holds the committed page to them exactly. A leg that was never
// seen to fail is not a witness. The rows are checked in parts, each a file of its own, so that
// the parts run side by side: the busy rows dealt into N-of-M files, and the rows whose runs never
// end in a file of their own.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../../reference-host/index.ts';
import type { Disposition, GateName } from '../../lib/types.ts';
import {
  EXPECTED,
  GATE_ROWS,
  isGateFailure,
  isWarnedRule,
  LEG_SLUGS,
  type LegExpectation,
  type LegSlug,
  type Row,
  type RowName,
} from './expected.ts';
import { hostCheckFailures } from './host-checks-expected.ts';
import { FULL_PLAN, legsCheckedInTests, TESTS_PLAN } from './checked-legs.ts';
import {
  agreesWhereRun,
  agreesWhole,
  DOC_PATH,
  linesOnPage,
  matrixTable,
  REGENERATE,
  rowLines,
  type RowLines,
} from './render.ts';
import {
  caught,
  MODE_NAMES,
  modesRun,
  BUSY_PARTS,
  runMatrix,
  runRow,
  VARIANTS,
  type LegResult,
  type MatrixPlan,
  type MatrixResults,
} from './run-matrix.ts';

/** What one lane runs of the table, and how it holds the committed page to its run. */
export interface MatrixLane {
  /** Of the legs each defect row runs, in which modes: said in the tests' names. */
  readonly runs: string;
  /** Where a row's other cells are checked; empty when this lane runs them all. */
  readonly rest: string;
  readonly plan: MatrixPlan;
  readonly agrees: (page: RowLines | undefined, run: RowLines, row: RowName) => boolean;
  /** Whether the lane also runs the gated rows outside strict mode. */
  readonly gates: boolean;
}

/** `npm test`: the cells checked-legs.ts names; the page must agree with each of them. */
export const TESTS_LANE: MatrixLane = {
  runs: 'the legs the table expects to catch each defect, each row in two modes that hold both variants and both pacings',
  rest: '; its other cells: npm run test:matrix-full',
  plan: TESTS_PLAN,
  agrees: (page, run, row) => agreesWhereRun(page, run, legsCheckedInTests(row)),
  gates: true,
};

/** The full lane: every cell of every row in every mode, and the page exactly as they render. */
export const FULL_LANE: MatrixLane = {
  runs: 'every leg of every row in every mode',
  rest: '',
  plan: FULL_PLAN,
  agrees: (page, run) => agreesWhole(page, run),
  gates: false,
};

/** The legs a lane runs of `row` in any mode. */
const legsOfRow = (lane: MatrixLane, row: RowName): readonly LegSlug[] => [
  ...new Set(MODE_NAMES.flatMap((mode) => lane.plan(row, mode))),
];

/**
 * Only a hang guard. Every test of a part waits on one run of its rows in the cells its lane
 * names, up to a minute and a half of CPU in the full lane; beside other suites and busy processes
 * that took over ten minutes of wall time.
 */
const MATRIX_TIMEOUT_MS = 1_800_000;

/** Compares one row's `checked` legs with their expectations; one line per disagreement. */
function disagreements(
  row: Row,
  legs: readonly LegResult[],
  checked: readonly LegSlug[] = LEG_SLUGS,
): string[] {
  const out: string[] = [];
  const unasked = legs.filter((l) => !checked.includes(l.slug)).map((l) => l.slug);
  if (unasked.length > 0) out.push(`${unasked.join(', ')}: run, though not asked for`);
  for (const slug of checked) {
    const want = row[slug];
    const got = legs.find((l) => l.slug === slug);
    if (got === undefined) {
      out.push(`${slug}: not run`);
      continue;
    }
    const problems: string[] = [];
    if (got.disposition !== want.disposition) {
      problems.push(`disposition ${got.disposition}, table says ${want.disposition}`);
    }
    const missing = (want.rules ?? []).filter((r) => !got.failed.includes(r));
    if (missing.length > 0) problems.push(`rules ${missing.join(', ')} did not fail`);
    const wire = got.warned.filter(isWarnedRule);
    const unwarned = (want.warnings ?? []).filter((r) => !wire.includes(r));
    if (unwarned.length > 0) problems.push(`SHOULD rules ${unwarned.join(', ')} did not fail`);
    if (want.warnings === undefined && wire.length > 0) {
      problems.push(`SHOULD rules ${wire.join(', ')} failed, table expects none`);
    }
    if (want.reason !== undefined && !want.reason.test(got.reason)) {
      problems.push(`reason does not match ${String(want.reason)}`);
    }
    if (got.disposition === 'executed-pass' && got.assertions === 0) {
      problems.push('passed on zero assertions');
    }
    if (problems.length > 0) {
      out.push(
        `${slug}: ${problems.join('; ')} (failed [${got.failed.join(', ')}]; warned [${got.warned.join(', ')}]; ${got.reason})`,
      );
    }
  }
  return out;
}

/**
 * A test name that states the row's verdict, read from the table: of the legs `npm test` runs
 * on a defect, which are caught and how (its passing legs are the full run's to show).
 */
function verdict(name: RowName, lane: MatrixLane): string {
  const row = EXPECTED[name];
  const rest = name === 'conformant' ? '' : lane.rest;
  const hit = LEG_SLUGS.filter((s) => row[s].disposition !== 'executed-pass');
  const warned = [...new Set(LEG_SLUGS.flatMap((s) => row[s].warnings ?? []))];
  if (hit.length === 0 && warned.length > 0) {
    return `${name}: its legs pass, and ${warned.join(', ')} fail as SHOULD findings${rest}`;
  }
  if (hit.length === 0) return `${name}: every leg passes`;
  const by = (d: Disposition): string[] => hit.filter((s) => row[s].disposition === d);
  const parts = [
    by('executed-fail').length > 0 ? `fails ${by('executed-fail').join(', ')}` : '',
    by('blocked').length > 0 ? `blocks ${by('blocked').join(', ')}` : '',
    by('inapplicable').length > 0 ? `leaves ${by('inapplicable').join(', ')} inapplicable` : '',
  ].filter((p) => p !== '');
  return `${name} ${parts.join(' and ')}${rest}`;
}

/** A strict row as it reads outside strict mode or with an opt-out: gate failures become `to`. */
function relaxed(row: Row, to: Disposition, reason: RegExp): Row {
  const legs = LEG_SLUGS.map((slug): [string, LegExpectation] => {
    const leg = row[slug];
    return [slug, isGateFailure(leg) ? { disposition: to, reason } : leg];
  });
  return Object.fromEntries(legs) as Row;
}

/** A committed page that cannot be read reads as empty, which no row's lines match. */
function committedPage(): string {
  try {
    return readFileSync(fileURLToPath(new URL(`../../${DOC_PATH}`, import.meta.url)), 'utf8');
  } catch {
    return '';
  }
}

/** Defines the tests of one part of the matrix in one lane: its rows' cells, and their lines. */
export function describeMatrixPart(
  part: string,
  rows: readonly RowName[],
  lane: MatrixLane = TESTS_LANE,
): void {
  // One run of this part's rows serves every test below; each host in it is started and closed
  // inside runRow. The first test to ask starts it.
  let matrix: Promise<MatrixResults> | undefined;
  // In shares, fewer runs are in flight at once (runMatrix).
  const results = (): Promise<MatrixResults> =>
    (matrix ??= runMatrix(rows, runRow, BUSY_PARTS, lane.plan));
  describe(`the falsifiability matrix, ${part}`, () => {
    defineTests(rows, results, lane);
  });
}

function defineTests(
  rows: readonly RowName[],
  results: () => Promise<MatrixResults>,
  lane: MatrixLane,
): void {
  // A defect the table expects every leg to pass is caught by the host checks alone.
  const legRows = rows.filter((name) => legsOfRow(lane, name).length > 0);
  const hostCheckRows = rows.filter((name) => !legRows.includes(name));
  if (hostCheckRows.length > 0) {
    it(`${hostCheckRows.join(', ')}: every leg passes, so host-checks.test.ts shows them caught and npm run test:matrix-full runs their legs`, () => {
      const uncaught = hostCheckRows.filter((name) => hostCheckFailures(name).length === 0);
      expect(uncaught, 'rows that no leg and no host check is expected to catch').toEqual([]);
    });
  }
  for (const mode of MODE_NAMES) {
    const inMode = legRows.filter((name) => lane.plan(name, mode).length > 0);
    if (inMode.length === 0) continue;
    describe.concurrent(`strict mode, ${mode} host, ${lane.runs}`, () => {
      for (const name of inMode) {
        it(
          verdict(name, lane),
          async () => {
            const legs = (await results())[mode][name] ?? [];
            expect(disagreements(EXPECTED[name], legs, lane.plan(name, mode))).toEqual([]);
          },
          MATRIX_TIMEOUT_MS,
        );
      }
    });
  }

  // A part without the row defines no test for it, rather than a skipped one.
  if (rows.includes('conformant')) {
    it(
      'the conformant host passes every host leg non-vacuously, with no warning, in every mode',
      async () => {
        const all = await results();
        for (const mode of MODE_NAMES) {
          const legs = all[mode].conformant ?? [];
          expect(legs, `${mode}: the conformant row did not run`).toHaveLength(LEG_SLUGS.length);
          for (const leg of legs) {
            expect(leg.disposition, `${mode} ${leg.slug}`).toBe('executed-pass');
            expect(leg.assertions, `${mode} ${leg.slug}`).toBeGreaterThan(0);
            expect(leg.warned, `${mode} ${leg.slug} SHOULD findings`).toEqual([]);
          }
        }
      },
      MATRIX_TIMEOUT_MS,
    );
  }

  it(
    "no verdict depends on the host's speed or variant: each row ran at both pacings and on both variants, with the same disposition on every leg in each mode",
    async () => {
      const all = await results();
      const differ: string[] = [];
      for (const name of legRows) {
        const modes = modesRun(all, name);
        const pacings = new Set(modes.map((m) => m.split('/')[1]));
        const variants = new Set(modes.map((m) => m.split('/')[0]));
        if (pacings.size < 2 || variants.size < VARIANTS.length) {
          differ.push(`${name}: ran only in ${modes.join(', ') || 'no mode'}`);
        }
        for (const slug of legsOfRow(lane, name)) {
          const seen = modes.map(
            (m) => all[m][name]?.find((l) => l.slug === slug)?.disposition ?? 'not run',
          );
          if (new Set(seen).size > 1) {
            differ.push(`${name} ${slug}: ${modes.map((m, i) => `${m} ${seen[i]}`).join(', ')}`);
          }
        }
      }
      expect(differ).toEqual([]);
    },
    MATRIX_TIMEOUT_MS,
  );

  it(
    'every listed defect is caught by at least one leg in every mode it ran, or by a host check',
    async () => {
      const all = await results();
      const defects = rows.filter((r) => r !== 'conformant');
      // A host-check defect passes every leg by design; host-checks.test.ts shows its rules fail.
      // A row that ran in no mode is caught by no leg.
      const byLegs = (d: RowName): boolean => {
        const modes = modesRun(all, d);
        return modes.length > 0 && modes.every((m) => caught(all[m][d] ?? []));
      };
      const missed = defects.filter((d) => !byLegs(d) && hostCheckFailures(d).length === 0);
      expect(missed, 'defects no leg caught').toEqual([]);
      expect((defects.length - missed.length) / defects.length).toBe(1);
    },
    MATRIX_TIMEOUT_MS,
  );

  it(
    lane === FULL_LANE
      ? `${DOC_PATH} holds exactly this run's lines for these rows (else run \`${REGENERATE}\`)`
      : `${DOC_PATH} agrees with every cell this run holds for these rows, and every leg left out reads pass (else run \`${REGENERATE}\`)`,
    async () => {
      const all = await results();
      const table = matrixTable(EXPECTED, DEFECTS).filter((row) => rows.includes(row.name));
      const onPage = linesOnPage(committedPage(), table);
      const stale = table
        .filter((row) => !lane.agrees(onPage.get(row.name), rowLines(row, all), row.name))
        .map((row) => row.name);
      expect(stale, `${DOC_PATH} is stale in these rows: run \`${REGENERATE}\``).toEqual([]);
    },
    MATRIX_TIMEOUT_MS,
  );

  if (!lane.gates) return;
  const gateRows = (Object.entries(GATE_ROWS) as [RowName, RegExp][]).filter(([name]) =>
    rows.includes(name),
  );
  // A part without a gated row defines no test here, rather than an empty group.
  if (gateRows.length === 0 && !rows.includes('withhold-trials')) return;
  describe.concurrent('gates outside strict mode', () => {
    for (const variant of VARIANTS) {
      for (const [name, reason] of gateRows) {
        it(
          `default mode, ${variant} host: ${name} leaves its gated legs inapplicable`,
          async () => {
            const want = relaxed(EXPECTED[name], 'inapplicable', reason);
            const checked = legsCheckedInTests(name, want);
            const legs = await runRow({
              row: name,
              variant,
              requireBehavior: false,
              legs: checked,
            });
            expect(disagreements(want, legs, checked)).toEqual([]);
            expect(legs.some((l) => l.disposition === 'inapplicable')).toBe(true);
          },
          MATRIX_TIMEOUT_MS,
        );
      }

      if (rows.includes('withhold-trials'))
        it(
          `opted-out trials, ${variant} host: withhold-trials skips the legs that need trials`,
          async () => {
            const optedOut: GateName[] = ['agents.evalSuite.trials'];
            const want = relaxed(EXPECTED['withhold-trials'], 'skipped', /is opted out/);
            const checked = legsCheckedInTests('withhold-trials', want);
            const legs = await runRow({ row: 'withhold-trials', variant, optedOut, legs: checked });
            expect(disagreements(want, legs, checked)).toEqual([]);
            // Counted from the hand-written row, not from the legs' own gate lists.
            const skipped = LEG_SLUGS.filter((slug) => want[slug].disposition === 'skipped');
            expect(legs.filter((l) => l.disposition === 'skipped')).toHaveLength(skipped.length);
          },
          MATRIX_TIMEOUT_MS,
        );
    }
  });
}
