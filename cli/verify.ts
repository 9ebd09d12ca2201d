// `openwop-eval-gate verify REPORT`: recompute every verdict in a report from what it recorded,
// re-derive every digest, and name each thing that does not match. Verdicts are recomputed with
// the same witness, gates and `decide` the legs used; nothing here grades a run on its own.

import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { judgeEvalRun } from '../lib/eval-gate-witness.ts';
import { loadFixture } from '../lib/fixtures.ts';
import { checkGates } from '../lib/decide/gates.ts';
import { LEGS } from '../lib/legs.ts';
import { decide } from '../lib/decide/run-leg.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import { judgeGatedFieldsShape } from '../lib/witness/shape-leg.ts';
import type { Disposition, Finding } from '../lib/types.ts';
import type { EvalGateReport, ReportRow } from '../lib/report/report.ts';
import {
  discoveryDigest,
  reportDigest,
  rowsDigest,
  schemaDigests,
  totalsOf,
} from '../lib/report/report.ts';
import { checkFixtureDigests } from './fixture-set.ts';
import { checkSignature } from '../lib/report/signing.ts';

export interface Verification {
  /** Each mismatch, naming the row or digest and the field; empty when the report verifies. */
  readonly problems: readonly string[];
  /** How each row was checked, for the summary line. */
  readonly recomputed: number;
  readonly consistencyOnly: number;
}

/** What a row recomputes to. */
interface Recomputed {
  readonly disposition: Disposition;
  readonly assertions: number;
  readonly reason?: string;
  readonly findings: readonly Finding[];
}

/** Reads and checks a report file. Throws only when the file cannot be read or is not JSON. */
export async function verifyReportFile(path: string, key?: KeyObject): Promise<Verification> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  return verifyReport(parsed, key);
}

export async function verifyReport(parsed: unknown, key?: KeyObject): Promise<Verification> {
  const errors = validate('eval-gate-report', parsed);
  if (errors.length > 0) {
    const detail = formatSchemaErrors(errors).replace(/\n/g, '; ');
    return {
      problems: [`the report does not match its schema: ${detail}`],
      recomputed: 0,
      consistencyOnly: 0,
    };
  }
  // The schema has accepted it, so it has the report's shape.
  const report = parsed as EvalGateReport;
  const problems: string[] = [];
  problems.push(...(await checkDigests(report)));
  problems.push(...checkTotals(report));
  if (key !== undefined) problems.push(...checkSignature(report, key));
  else if (
    report.signature !== undefined &&
    report.signature.reportDigest !== reportDigest(report)
  ) {
    problems.push(
      `signature.reportDigest: recorded ${report.signature.reportDigest}, the report now digests to ${reportDigest(report)}`,
    );
  }
  const discovery = parseDiscovery(report);
  let recomputed = 0;
  let consistencyOnly = 0;
  const seen = new Set<string>();
  for (const row of report.requirements) {
    if (seen.has(row.id)) problems.push(`row ${row.id}: appears more than once`);
    seen.add(row.id);
    const result = await recompute(row, report, discovery);
    if (typeof result === 'string') {
      problems.push(`row ${row.id}: ${result}`);
    } else if (result === undefined) {
      consistencyOnly += 1;
      problems.push(...checkConsistency(row));
    } else {
      recomputed += 1;
      problems.push(...compareRow(row, result));
    }
  }
  for (const leg of LEGS) {
    if (!seen.has(leg.id)) problems.push(`row ${leg.id}: missing from the report`);
  }
  return { problems, recomputed, consistencyOnly };
}

async function checkDigests(report: EvalGateReport): Promise<string[]> {
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
  problems.push(...(await checkFixtureDigests(d.fixtures)));
  for (const row of report.requirements) {
    if (row.fixtureId !== undefined && d.fixtures[row.fixtureId] === undefined) {
      problems.push(`row ${row.id}: fixture ${row.fixtureId} has no recorded digest`);
    }
  }
  const schemas = await schemaDigests();
  const paths = new Set([...Object.keys(schemas), ...Object.keys(d.schemas)]);
  for (const path of [...paths].sort()) {
    const recorded = d.schemas[path];
    const now = schemas[path];
    if (recorded === undefined)
      problems.push(`digests.schemas.${path}: not recorded, but the suite compiles it`);
    else if (now === undefined)
      problems.push(`digests.schemas.${path}: recorded, but the suite ships no such schema`);
    else if (recorded !== now)
      problems.push(
        mismatch(`digests.schemas.${path}`, recorded, now, `${path} is not the schema that ran`),
      );
  }
  return problems;
}

function mismatch(field: string, recorded: string, now: string, meaning: string): string {
  return `${field}: recorded ${recorded}, recomputed ${now} (${meaning})`;
}

function checkTotals(report: EvalGateReport): string[] {
  const totals = totalsOf(report.requirements);
  return Object.entries(totals)
    .filter(([d, n]) => report.totals[d as Disposition] !== n)
    .map(
      ([d, n]) => `totals.${d}: recorded ${report.totals[d as Disposition]}, the rows hold ${n}`,
    );
}

type Discovery = { readonly ok: true; readonly document: unknown } | { readonly ok: false };

function parseDiscovery(report: EvalGateReport): Discovery {
  if (!report.discovery.ok) return { ok: false };
  try {
    return { ok: true, document: JSON.parse(report.discovery.text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The row as the suite's own code decides it from the recorded data; a string when the recorded
 * data contradicts itself; undefined when nothing recorded lets it be recomputed (a transport
 * loss or a host fault carries no observation), so only its consistency can be checked.
 */
async function recompute(
  row: ReportRow,
  report: EvalGateReport,
  discovery: Discovery,
): Promise<Recomputed | string | undefined> {
  const leg = LEGS.find((l) => l.id === row.id);
  if (leg === undefined) return 'no such requirement in this suite';
  if (leg.fixtureId === undefined) return decide(judgeGatedFieldsShape());
  const gate = discovery.ok
    ? checkGates(leg, discovery.document, {
        requireBehavior: report.strict,
        optedOut: report.optedOut,
      })
    : undefined;
  if (gate !== undefined && !gate.proceed) {
    return { disposition: gate.disposition, assertions: 0, reason: gate.reason, findings: [] };
  }
  if (row.observation === undefined) return undefined;
  if (row.fixtureId !== leg.fixtureId) {
    return `fixtureId: recorded ${String(row.fixtureId)}, the requirement drives ${leg.fixtureId}`;
  }
  const loaded = await loadFixture(leg.fixtureId);
  if (!loaded.ok) return `fixture ${leg.fixtureId} does not load here: ${loaded.reason}`;
  return decide(judgeEvalRun(loaded.fixture, row.observation), row.observation);
}

function compareRow(row: ReportRow, again: Recomputed): string[] {
  const out: string[] = [];
  const at = `row ${row.id}`;
  if (row.disposition !== again.disposition) {
    out.push(`${at}: disposition recorded ${row.disposition}, recomputed ${again.disposition}`);
  }
  if (row.assertions !== again.assertions) {
    out.push(`${at}: assertions recorded ${row.assertions}, recomputed ${again.assertions}`);
  }
  if (row.reason !== again.reason) {
    out.push(
      `${at}: reason recorded ${JSON.stringify(row.reason)}, recomputed ${JSON.stringify(again.reason)}`,
    );
  }
  if (row.findings.length !== again.findings.length) {
    out.push(
      `${at}: findings recorded ${row.findings.length}, recomputed ${again.findings.length}`,
    );
  }
  const count = Math.min(row.findings.length, again.findings.length);
  for (let i = 0; i < count; i += 1) {
    const was = row.findings[i] as Finding;
    const now = again.findings[i] as Finding;
    for (const field of ['rule', 'ok', 'severity', 'ref', 'message'] as const) {
      if (was[field] !== now[field]) {
        out.push(
          `${at}: findings[${i}] (${now.rule}) ${field} recorded ${JSON.stringify(was[field])}, recomputed ${JSON.stringify(now[field])}`,
        );
      }
    }
  }
  return out;
}

/**
 * A row no recorded data can recompute must still agree with its own findings. Without an
 * observation the legs record a finding only for a host fault: one failing `run.served`. Anything
 * else (a pass above all) would be a verdict on host data that is not in the report.
 */
function checkConsistency(row: ReportRow): string[] {
  const at = `row ${row.id}`;
  const [only] = row.findings;
  if (
    row.findings.length > 0 &&
    (row.findings.length > 1 || only?.rule !== 'run.served' || only.ok)
  ) {
    return [
      `${at}: ${row.findings.length} finding(s) but no observation; without one only a host fault (one failing run.served) can be recorded`,
    ];
  }
  if (row.findings.length > 0) {
    const again = decide(row.findings);
    return compareRow(row, again).map((p) => p.replace(/recomputed/, 'its findings imply'));
  }
  if (row.disposition !== 'blocked') {
    return [`${at}: disposition ${row.disposition} with no finding and no gate that explains it`];
  }
  return row.assertions === 0 ? [] : [`${at}: assertions ${row.assertions} with no finding`];
}
