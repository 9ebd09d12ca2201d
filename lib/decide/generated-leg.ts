// The generated pack as a row of the report: the requirement's outcome with every case recorded
// beside it, and the recomputation `verify` runs from those records. A case's record holds what
// its decision was made from (the observation, or a host fault's finding), so the row can be
// decided again without the host. A run streams each case's record to a sink (the sidecar file
// beside the report) as the case finishes and keeps only the pack's tally; reports before the
// sidecar hold every record inline, and are decided again as they were.

import { placeInPack } from '../generate/generated-id.ts';
import { CURRENT_GENERATOR } from '../generate/versions.ts';
import { packSelection } from './pack-request.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';
import type {
  DecidedCases,
  GeneratedCaseRecord,
  GeneratedRecord,
  GeneratedSidecar,
  InlineGeneratedRecord,
  LegOutcome,
} from '../types.ts';
import { blocked, type Decision } from './decide.ts';
import {
  decidePack,
  driveGeneratedPack,
  streamGeneratedPack,
  type PackRequest,
  type PackWatch,
} from './generated-pack.ts';
import { PackTally } from './pack-tally.ts';
import type { RunBudget } from './run-budget.ts';
import type { LegTarget } from './leg-target.ts';
import { caseRecord, replayPack, type GateSettings, type RecordedDocument } from './pack-replay.ts';

// What a recorded pack is decided again from is the replay's; `verify` reaches it through here.
export type { GateSettings, RecordedDocument } from './pack-replay.ts';

/** Where a run writes each case's record as it finishes, in pack order. */
export interface CaseSink {
  write(record: GeneratedCaseRecord): Promise<void>;
  /** Ends the file; what the report records of it. */
  close(): Promise<GeneratedSidecar>;
}

/**
 * Drives the pack and decides its row; with no host to drive, the row is blocked. With a sink,
 * each case's record goes to it as the case finishes and the row keeps only the pack's tally;
 * without one (a caller that writes no files), the records are held and recorded inline.
 */
export async function runGeneratedLeg(
  asked: PackRequest,
  target: LegTarget | undefined,
  openSink?: () => Promise<CaseSink>,
  now: () => number = Date.now,
  watch: PackWatch = {},
  budget?: RunBudget,
): Promise<LegOutcome> {
  const started = now();
  // The record names the generator that drew the pack, so a later release draws the same one.
  const request = { ...asked, generator: asked.generator ?? CURRENT_GENERATOR };
  if (target === undefined) {
    return {
      requirement: GENERATED_REQUIREMENT,
      ...blocked('no base URL: the generated pack has no host to drive'),
      durationMs: 0,
    };
  }
  if (openSink === undefined) {
    const cases = await driveGeneratedPack(request, target, watch, budget);
    return {
      requirement: GENERATED_REQUIREMENT,
      ...decidePack(cases),
      generated: { ...packSelection(request), cases: cases.map(caseRecord) },
      durationMs: Math.max(0, now() - started),
    };
  }
  const tally = new PackTally({ ...packSelection(request), keepEveryFinding: false });
  const sink = await openSink();
  let sidecar: GeneratedSidecar;
  try {
    await streamGeneratedPack(
      request,
      target,
      async (c, fixture) => {
        tally.add(c, fixture, placeInPack(fixture.id));
        await sink.write(caseRecord(c));
      },
      watch,
      budget,
    );
  } finally {
    sidecar = await sink.close();
  }
  return {
    requirement: GENERATED_REQUIREMENT,
    ...tally.decision(),
    generated: tally.record(sidecar),
    decidedCases: tally.decidedCases(),
    durationMs: Math.max(0, now() - started),
  };
}

export interface PackRecomputation<R extends GeneratedRecord = GeneratedRecord> {
  readonly decision: Decision;
  /**
   * The pack's record as the run would have written it from these decisions: each case decided
   * again, with what it recorded. A case whose record contradicts the pack is kept as recorded.
   */
  readonly record: R;
  /** What the record contradicts that no rebuilt case can show: a case missing, or misplaced. */
  readonly problems: readonly string[];
  /**
   * Each case whose recorded fixture digest is not that of the fixture the recorded generator
   * version draws here: a case another referee drew, which this verifier cannot decide again.
   */
  readonly differentReferee: readonly string[];
  /** The failing cases a page opens, as decided again here (PackTally decidedCases). */
  readonly decidedCases: DecidedCases;
}

/**
 * The row again from its inline records: the pack regenerated from the seed, and each case decided
 * as the run decides it, then the pack decided as a run decides it (replayPack). `verify` compares
 * the rebuilt record with the recorded one, so a case past the pack's end is passed over here and
 * shows there, and every case that contradicts the pack is named.
 */
export async function recomputeGeneratedRow(
  record: InlineGeneratedRecord,
  discovery: RecordedDocument,
  settings: GateSettings,
  generator: number = record.generator ?? CURRENT_GENERATOR,
): Promise<PackRecomputation<InlineGeneratedRecord>> {
  const selection = packSelection(record);
  const rebuilt: GeneratedCaseRecord[] = [];
  const replay = await replayPack(
    selection,
    generator,
    record.cases.map((recorded) => ({ ok: true, record: recorded })),
    { discovery, settings },
    {
      at: (place) => `generated case ${place}`,
      // The page lists an inline pack's records in order, each at its index.
      pageKey: (read) => read - 1,
      misplaced: (at, recorded, fixture) =>
        `${at} (${recorded.fixtureId}): recorded as ${recorded.file}, the pack places ${fixture.id} there`,
      drawBeforePlace: true,
      named: Infinity,
      keepEveryFinding: true,
      rebuilt: (c) => void rebuilt.push(c),
    },
  );
  // An inline record was read whole with the report, so only the draw can stop the replay.
  if (replay.stopped !== undefined) throw replay.stopped.error;
  const problems: string[] = [];
  if (record.case !== undefined && replay.drawn === 0 && !replay.packGoesOn()) {
    problems.push(
      `generated: case ${record.case} is not in the pack of ${record.count} at seed ${record.seed}`,
    );
  } else if (replay.packGoesOn()) {
    const size = record.case === undefined ? record.count : 1;
    problems.push(
      `generated: ${record.cases.length} cases recorded, the pack of ${record.count} at seed ${record.seed} has ${size}`,
    );
  }
  return {
    decision: replay.tally.decision(),
    record: { ...selection, cases: rebuilt },
    problems: [...problems, ...replay.problems],
    differentReferee: replay.differentReferee,
    decidedCases: replay.tally.decidedCases(),
  };
}
