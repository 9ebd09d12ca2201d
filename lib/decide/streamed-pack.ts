// `verify` of a pack whose cases were streamed to a sidecar: the sidecar read line by line, the
// pack regenerated from the seed fixture by fixture beside it, each case decided again from its
// line and its line rebuilt, and the tally, smallest failing cases and decision rebuilt as the run
// built them. Only the current line and the tally are held, so a pack of any size replays in the
// memory of a small one. A line missing, added, moved or edited, or a file whose digest is not the
// recorded one, is named.

import { selectedFixtures } from '../generate/pack.ts';
import { CURRENT_GENERATOR } from '../generate/versions.ts';
import { packSelection } from './pack-request.ts';
import { describeError } from '../observe/errors.ts';
import type { StreamedGeneratedRecord } from '../types.ts';
import {
  caseRecord,
  otherDraw,
  rebuiltDigest,
  recomputeCase,
  type GateSettings,
  type PackRecomputation,
  type RecordedDocument,
} from './generated-leg.ts';
import { PackTally } from './pack-tally.ts';
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
  const lineProblems: string[] = [];
  let unnamed = 0;
  const named = (problem: string): void => {
    if (lineProblems.length < NAMED_LINES) lineProblems.push(problem);
    else unnamed += 1;
  };
  const selection = packSelection(record);
  const tally = new PackTally({ ...selection, keepEveryFinding: false });
  const fixtures = selectedFixtures({ ...selection, generator })[Symbol.iterator]();
  const differentReferee: string[] = [];
  const expected = record.case === undefined ? record.count : 1;
  const drove = record.case === undefined ? '' : `, of which this run drove ${record.case} alone`;
  const problems: string[] = [];
  let lines = 0;
  const read = open(file);
  try {
    for await (const line of sidecarLines(read)) {
      lines = line.number;
      const at = `${file} line ${lines}`;
      const drawn = fixtures.next();
      if (drawn.done === true) {
        named(`${at}: beyond the pack of ${record.count} at seed ${record.seed}${drove}`);
        continue;
      }
      const fixture = drawn.value;
      if (!line.ok) {
        named(`${at}: ${line.problem}`);
        continue;
      }
      const recorded = line.record;
      if (recorded.fixtureId !== fixture.id || recorded.file !== `${fixture.id}.json`) {
        named(`${at}: records ${recorded.fixtureId}, the pack places ${fixture.id} there`);
        continue;
      }
      const digest = rebuiltDigest(record, fixture);
      const other = otherDraw(recorded, digest, generator);
      if (other !== undefined) {
        differentReferee.push(`${at} (${fixture.id}): ${other}`);
        continue;
      }
      const again = decideAgain(fixture, recorded, discovery, settings);
      if (typeof again === 'string') {
        named(`${at} (${fixture.id}): ${again}`);
        continue;
      }
      const replayed = {
        fixtureId: fixture.id,
        seed: record.seed,
        file: recorded.file,
        decision: again,
        ...(digest === undefined ? {} : { fixtureDigest: digest }),
      };
      if (JSON.stringify(caseRecord(replayed)) !== line.text) {
        named(`${at} (${fixture.id}): the line is not the record its case decides to again`);
      }
      tally.add(replayed, fixture);
    }
  } catch (error) {
    problems.push(`${file}: could not be read to its end (${describeError(error)})`);
  }
  if (lines < expected) {
    problems.push(
      record.case === undefined
        ? `${file}: ${lines} lines, the pack of ${record.count} at seed ${record.seed} has ${record.count}`
        : `${file}: no line, the run drove ${record.case} alone`,
    );
  }
  const { sha256, bytes } = read.digest();
  if (sha256 !== record.sidecar.sha256 || bytes !== record.sidecar.bytes) {
    problems.push(
      `${file}: recorded sha256 ${record.sidecar.sha256} (${record.sidecar.bytes} bytes), read ${sha256} (${bytes} bytes)`,
    );
  }
  problems.push(...lineProblems);
  if (unnamed > 0) problems.push(`${file}: and ${unnamed} more lines that contradict the pack`);
  return {
    decision: tally.decision(),
    record: tally.record({ file, sha256, bytes }),
    problems,
    differentReferee,
  };
}

/** A line whose members have the wrong types is a contradiction of its own, not a read failure. */
function decideAgain(...args: Parameters<typeof recomputeCase>): ReturnType<typeof recomputeCase> {
  try {
    return recomputeCase(...args);
  } catch (error) {
    return `cannot be decided again (${describeError(error)})`;
  }
}
