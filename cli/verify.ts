// `openwop-eval-gate verify REPORT`: replay the report from what it recorded and name each member
// the replay does not rebuild as recorded (lib/report/verify/replay.ts decides, with the run's own code);
// this file reads the files the report names and checks them against the ones this suite ships.
// Nothing here grades a run on its own.

import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import { describeDifference, jsonDifferences } from '../lib/report/verify/json-diff.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { DecidedCasesByRow } from '../lib/types.ts';
import { schemaDigests } from '../lib/report/report.ts';
import { replayReport } from '../lib/report/verify/replay.ts';
import { sidecarReader, type SidecarProgress } from '../lib/report/generated-sidecar.ts';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../lib/bounded-input.ts';
import { differentReferee, thisReferee } from '../lib/report/verify/referee.ts';
import { inCurrentShape, splitEarlierDifferences } from '../lib/report/verify/earlier-referee.ts';
import { checkFixtureDigests, FixtureShelf, recordedFixtureLoader } from './fixture-set.ts';

export interface Verification {
  /** Each mismatch, naming the row or digest and the field; empty when the report verifies. */
  readonly problems: readonly string[];
  /**
   * Each schema the report records that is not the one this suite ships, and each fixture it
   * recorded that an earlier version shipped (recomputed with that archived file). A difference
   * says another referee judged the run (it withholds this verifier's certification), not that
   * the report was edited.
   */
  readonly refereeDifferences: readonly string[];
  /** How each row was checked, for the summary line. */
  readonly recomputed: number;
  readonly consistencyOnly: number;
  /**
   * The failing generated cases a page of the report opens, by row, with the findings the replay
   * decided them to: `report --html` and the matrix's pages show these and decide nothing.
   */
  readonly decidedCases: DecidedCasesByRow;
  /** The report's digest, taken by the replay of a signed report, for the signature's check. */
  readonly reportDigest?: string;
}

/**
 * Why a parsed file is not a report, or undefined when its schema accepts it, or accepts it with
 * the members an earlier report schema did not require (lib/report/verify/earlier-referee.ts; whether
 * their absence is allowed depends on who judged the report, which verifyReport decides).
 */
export function reportShapeProblem(parsed: unknown): string | undefined {
  const errors = validate('eval-gate-report', parsed);
  if (errors.length === 0) return undefined;
  const shaped = inCurrentShape(parsed);
  if (shaped !== parsed && validate('eval-gate-report', shaped).length === 0) return undefined;
  return `the report does not match its schema: ${formatSchemaErrors(errors).replace(/\n/g, '; ')}`;
}

/**
 * Checks a report the schema has accepted: the files it names are the files this suite ships (or
 * archived), and the report is what a replay of its recorded facts rebuilds (lib/report/verify/replay.ts),
 * compared member by member; a generated pack's sidecar is read from `reportDir`, the report's
 * folder. A signed report's digest is part of that comparison, so an edit shows whatever key
 * checks the signature itself (cli/verify-keys.ts anchors that).
 */
export async function verifyReport(
  report: EvalGateReport,
  reportDir?: string,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  progress?: SidecarProgress,
): Promise<Verification> {
  // One shelf: the digest check, the replay and the rebuilt digests read each fixture once.
  const shelf = new FixtureShelf();
  // Read side by side: each waits on its files while the other reads or hashes.
  const [fixtures, schemas] = await Promise.all([
    checkFixtureDigests(report.digests.fixtures, shelf),
    checkSchemaDigests(report),
  ]);
  const refereeDifferences = [...fixtures.archived, ...schemas];
  const replay = await replayReport(
    report,
    recordedFixtureLoader(report.digests.fixtures, shelf),
    sidecarReader(reportDir, limits, progress),
  );
  // A suite with fewer legs or probes wrote no record of one added since, and an earlier generator
  // drew its pack; this suite's own report must hold them all, drawn by a generator it has.
  const ours = differentReferee(report.suite, await thisReferee()) === undefined;
  const earlier = [...replay.missingLegs, ...replay.missingProbes, ...replay.generatorDifferences];
  if (!ours) refereeDifferences.push(...earlier);
  // Another referee's wording and report shape are its own; this suite's report gets no leniency.
  const differences = jsonDifferences(report, replay.rebuilt);
  const split = ours
    ? { problems: differences.map(describeDifference), refereeDifferences: [] }
    : splitEarlierDifferences(report, differences);
  refereeDifferences.push(...split.refereeDifferences);
  const problems = [
    ...fixtures.problems,
    ...(ours ? earlier : []),
    ...replay.contradictions,
    ...split.problems,
  ];
  return {
    problems,
    refereeDifferences,
    recomputed: replay.recomputed,
    consistencyOnly: replay.consistencyOnly,
    decidedCases: replay.decidedCases,
    ...(replay.reportDigest === undefined ? {} : { reportDigest: replay.reportDigest }),
  };
}

async function checkSchemaDigests(report: EvalGateReport): Promise<string[]> {
  const recordedSchemas = report.digests.schemas;
  const schemas = await schemaDigests();
  const paths = new Set([...Object.keys(schemas), ...Object.keys(recordedSchemas)]);
  const differences: string[] = [];
  for (const path of [...paths].sort()) {
    const recorded = recordedSchemas[path];
    const now = schemas[path];
    if (recorded === undefined)
      differences.push(`digests.schemas.${path}: not recorded, but this suite compiles it`);
    else if (now === undefined)
      differences.push(`digests.schemas.${path}: recorded, but this suite ships no such schema`);
    else if (recorded !== now)
      differences.push(
        mismatch(`digests.schemas.${path}`, recorded, now, `${path} is not the schema that ran`),
      );
  }
  return differences;
}

function mismatch(field: string, recorded: string, now: string, meaning: string): string {
  return `${field}: recorded ${recorded}, recomputed ${now} (${meaning})`;
}
