// `verify` of a pack whose cases were streamed to a sidecar: the sidecar read line by line by the
// one sidecar reader and handed to the one replay (pack-replay.ts), which holds only the current
// line and the tally, so a pack of any size replays in the memory of a small one. A line missing,
// added, moved or edited, or a file whose digest is not the recorded one, is named.

import { placeInPack } from '../generate/generated-id.ts';
import { CURRENT_GENERATOR } from '../generate/versions.ts';
import { packSelection } from './pack-request.ts';
import { describeError } from '../observe/errors.ts';
import type { StreamedGeneratedRecord } from '../types.ts';
import type { PackRecomputation } from './generated-leg.ts';
import { replayPack, type GateSettings, type RecordedDocument } from './pack-replay.ts';
import type { SidecarOpener } from './sidecar-opener.ts';
import { sidecarLines } from './sidecar-records.ts';

/** How many contradicting lines a replay names before it counts the rest. */
const NAMED_LINES = 5;

export async function recomputeStreamedRow(
  record: StreamedGeneratedRecord,
  discovery: RecordedDocument,
  settings: GateSettings,
  open: SidecarOpener,
  generator: number = record.generator ?? CURRENT_GENERATOR,
): Promise<PackRecomputation<StreamedGeneratedRecord>> {
  const { file } = record.sidecar;
  const drove = record.case === undefined ? '' : `, of which this run drove ${record.case} alone`;
  const read = open(file);
  const replay = await replayPack(
    packSelection(record),
    generator,
    sidecarLines(read),
    { discovery, settings },
    {
      at: (place) => `${file} line ${place}`,
      pageKey: (_read, fixture) => placeInPack(fixture.id),
      misplaced: (at, recorded, fixture) =>
        `${at}: records ${recorded.fixtureId}, the pack places ${fixture.id} there`,
      drawBeforePlace: false,
      beyond: (at) => `${at}: beyond the pack of ${record.count} at seed ${record.seed}${drove}`,
      named: NAMED_LINES,
      keepEveryFinding: false,
    },
  );
  const problems: string[] = [];
  if (replay.stopped !== undefined) {
    problems.push(`${file}: could not be read to its end (${describeError(replay.stopped.error)})`);
  }
  if (replay.read < (record.case === undefined ? record.count : 1)) {
    problems.push(
      record.case === undefined
        ? `${file}: ${replay.read} lines, the pack of ${record.count} at seed ${record.seed} has ${record.count}`
        : `${file}: no line, the run drove ${record.case} alone`,
    );
  }
  const { sha256, bytes } = read.digest();
  if (sha256 !== record.sidecar.sha256 || bytes !== record.sidecar.bytes) {
    problems.push(
      `${file}: recorded sha256 ${record.sidecar.sha256} (${record.sidecar.bytes} bytes), read ${sha256} (${bytes} bytes)`,
    );
  }
  problems.push(...replay.problems);
  if (replay.unnamed > 0) {
    problems.push(`${file}: and ${replay.unnamed} more lines that contradict the pack`);
  }
  return {
    decision: replay.tally.decision(),
    record: replay.tally.record({ file, sha256, bytes }),
    problems,
    differentReferee: replay.differentReferee,
    decidedCases: replay.tally.decidedCases(),
  };
}
