// `openwop-eval-gate verify REPORT`: recompute every verdict in a report from what it recorded,
// re-derive every digest, and name each thing that does not match. Verdicts are recomputed with
// the same decideLeg the run used (lib/report/recompute.ts); this file only reads and compares,
// and nothing here grades a run on its own.

import { LEGS } from '../lib/legs.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import { discoveryDigest, reportDigest, rowsDigest, schemaDigests } from '../lib/report/report.ts';
import { checkFixtureDigests, recordedFixtureLoader } from './fixture-set.ts';
import { checkHostChecks } from './verify-host-checks.ts';
import { checkRunRecord } from './verify-run-record.ts';
import type { Discovery } from '../lib/report/recompute.ts';
import { checkConsistency, checkTotals, compareRow, recompute } from '../lib/report/recompute.ts';

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
}

/** Why a parsed file is not a report, or undefined when its schema accepts it. */
export function reportShapeProblem(parsed: unknown): string | undefined {
  const errors = validate('eval-gate-report', parsed);
  if (errors.length === 0) return undefined;
  return `the report does not match its schema: ${formatSchemaErrors(errors).replace(/\n/g, '; ')}`;
}

/**
 * Checks a report the schema has accepted. A signed report's digest is compared here, so an edit
 * shows whatever key checks the signature itself (cli/verify-keys.ts anchors that).
 */
export async function verifyReport(report: EvalGateReport): Promise<Verification> {
  const problems: string[] = [];
  const digests = await checkDigests(report);
  problems.push(...digests.problems);
  const refereeDifferences = [...digests.archived, ...(await checkSchemaDigests(report))];
  problems.push(...checkTotals(report));
  problems.push(...checkRunRecord(report));
  problems.push(...checkHostChecks(report));
  problems.push(...checkSignedDigest(report));
  const discovery = parseDiscovery(report);
  const load = recordedFixtureLoader(report.digests.fixtures);
  let recomputed = 0;
  let consistencyOnly = 0;
  const seen = new Set<string>();
  for (const row of report.requirements) {
    if (seen.has(row.id)) problems.push(`row ${row.id}: appears more than once`);
    seen.add(row.id);
    // Each repetition (--repeat) is decided again as its row is, and named by its place.
    const drives = [row, ...(row.repetitions ?? [])];
    for (const [i, drive] of drives.entries()) {
      const at = (p: string): string =>
        i === 0 ? p : p.replace(`row ${row.id}`, `row ${row.id} repetitions[${i - 1}]`);
      const result = await recompute(drive, report, discovery, load);
      if (typeof result === 'string') {
        problems.push(at(`row ${row.id}: ${result}`));
      } else if (result === undefined) {
        if (i === 0) consistencyOnly += 1;
        problems.push(...checkConsistency(drive).map(at));
      } else {
        if (i === 0) recomputed += 1;
        problems.push(...compareRow(drive, result).map(at));
      }
    }
  }
  for (const leg of LEGS) {
    if (!seen.has(leg.id)) problems.push(`row ${leg.id}: missing from the report`);
  }
  return { problems, refereeDifferences, recomputed, consistencyOnly };
}

/** What a signature proves before any key: the digest it signed is the report's. */
function checkSignedDigest(report: EvalGateReport): string[] {
  const signed = report.signature?.reportDigest;
  if (signed === undefined) return [];
  const now = reportDigest(report);
  return signed === now
    ? []
    : [`signature.reportDigest: recorded ${signed}, the report now digests to ${now}`];
}

async function checkDigests(
  report: EvalGateReport,
): Promise<{ problems: string[]; archived: string[] }> {
  const problems: string[] = [];
  const d = report.digests;
  const rows = rowsDigest(report.requirements);
  if (rows !== d.rows)
    problems.push(mismatch('digests.rows', d.rows, rows, 'the rows were edited'));
  const discovery = discoveryDigest(report.discovery);
  if (discovery !== d.discovery) {
    problems.push(
      mismatch(
        'digests.discovery',
        String(d.discovery),
        String(discovery),
        'the recorded discovery was edited',
      ),
    );
  }
  const fixtures = await checkFixtureDigests(d.fixtures);
  problems.push(...fixtures.problems);
  for (const row of report.requirements) {
    if (row.fixtureId !== undefined && d.fixtures[row.fixtureId] === undefined) {
      problems.push(`row ${row.id}: fixture ${row.fixtureId} has no recorded digest`);
    }
  }
  return { problems, archived: fixtures.archived };
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

function parseDiscovery(report: EvalGateReport): Discovery {
  if (!report.discovery.ok) return { ok: false };
  try {
    return { ok: true, document: JSON.parse(report.discovery.text) as unknown };
  } catch {
    return { ok: false };
  }
}
