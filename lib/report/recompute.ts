// The verdict half of `verify`: what each recorded row recomputes to, how a row differs from its
// recomputation, the consistency a row nothing can recompute must keep, and the totals. A row is
// decided again by decideLeg (lib/decide/decide-leg.ts), the function that decided it in the run,
// from the facts the report recorded. Pure but for the fixture loader it is handed, so StrykerJS
// can mutate it against millisecond tests (tests/report/recompute.test.ts); cli/verify.ts keeps
// the file reading and the digests.

import type { FixtureLoad } from '../fixtures.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../legs.ts';
import { decide, type Decision } from '../decide/decide.ts';
import { decideLeg, type HostDiscovery, type LegFacts } from '../decide/decide-leg.ts';
import { recomputeGeneratedRow, type RecordedDocument } from '../decide/generated-leg.ts';
import type { Disposition, Finding, UnexercisedRule } from '../types.ts';
import type { EvalGateReport, ReportRow } from './report.ts';
import { totalsOf } from './report.ts';
import { isSelected } from './run-options.ts';

/** The recorded discovery document, when it was served and parses. */
/** The recorded discovery document, when it was served and parses; the generated row reads the same. */
export type Discovery = RecordedDocument;

/** The report members a recomputation reads besides the row. */
export type RunSettings = Pick<EvalGateReport, 'strict' | 'optedOut' | 'selection'>;

export type FixtureLoader = (id: string) => Promise<FixtureLoad>;

/** Each disposition whose recorded total differs from the count of rows holding it. */
export function checkTotals(report: Pick<EvalGateReport, 'requirements' | 'totals'>): string[] {
  const totals = totalsOf(report.requirements);
  return Object.entries(totals)
    .filter(([d, n]) => report.totals[d as Disposition] !== n)
    .map(
      ([d, n]) => `totals.${d}: recorded ${report.totals[d as Disposition]}, the rows hold ${n}`,
    );
}

/**
 * The row as the suite's own code decides it from the recorded data; a string when the recorded
 * data contradicts itself; undefined when nothing recorded lets it be recomputed (a transport
 * loss or a host fault carries no observation), so only its consistency can be checked.
 */
export async function recompute(
  row: ReportRow,
  settings: RunSettings,
  discovery: Discovery,
  load: FixtureLoader,
): Promise<Decision | string | undefined> {
  if (row.id === GENERATED_REQUIREMENT) return recomputeGenerated(row, settings, discovery);
  const leg = LEGS.find((l) => l.id === row.id);
  if (leg === undefined) return 'no such requirement in this suite';
  const facts: LegFacts = {
    leg,
    selected: isSelected(settings.selection, row.id),
    settings: { requireBehavior: settings.strict, optedOut: settings.optedOut },
    discovery: recordedDiscovery(discovery),
  };
  const before = decideLeg(facts);
  if (before.kind === 'decided') return before.decision;
  // The gates held, so decideLeg asks for the fixture the requirement drives.
  if (before.kind !== 'load-fixture' || row.observation === undefined) return undefined;
  const fixtureId = before.fixtureId;
  if (row.fixtureId !== fixtureId) {
    return `fixtureId: recorded ${String(row.fixtureId)}, the requirement drives ${fixtureId}`;
  }
  const loaded = await load(fixtureId);
  if (!loaded.ok) return `fixture ${fixtureId} does not load here: ${loaded.reason}`;
  const after = decideLeg({
    ...facts,
    fixture: loaded,
    drive: { kind: 'observed', observation: row.observation },
  });
  // Stryker disable next-line ConditionalExpression: with a fixture and a drive, decideLeg decides
  return after.kind === 'decided' ? after.decision : undefined;
}

/** A report that lost its discovery is recomputed from its drive alone: no gate is read again. */
function recordedDiscovery(discovery: Discovery): HostDiscovery {
  return discovery.ok ? { kind: 'read', document: discovery.document } : { kind: 'unrecorded' };
}

/**
 * The generated row: its pack regenerated from the recorded seed and size, each case decided
 * again from what it recorded; a string naming every case whose record contradicts the pack or
 * itself; undefined for a row that drove no pack (no host), whose consistency is checked.
 */
function recomputeGenerated(
  row: ReportRow,
  settings: RunSettings,
  discovery: Discovery,
): Decision | string | undefined {
  if (row.generated === undefined) return undefined;
  const again = recomputeGeneratedRow(row.generated, discovery, settings);
  return again.problems.length > 0 ? again.problems.join('; ') : again.decision;
}

/** Each field in which a row differs from what it recomputes to, naming the row. */
export function compareRow(row: ReportRow, again: Decision): string[] {
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
  out.push(...compareUnexercised(row, again));
  const count = Math.min(row.findings.length, again.findings.length);
  for (let i = 0; i < count; i += 1) {
    const was = row.findings[i] as Finding;
    const now = again.findings[i] as Finding;
    for (const field of ['rule', 'ok', 'severity', 'ref', 'message', 'consequenceOf'] as const) {
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
 * The unexercised rules, compared as lists of rule and reason: a row that drops one would hide
 * what its verdict did not see. An absent list reads as empty.
 */
function compareUnexercised(row: ReportRow, again: Decision): string[] {
  const recorded = row.unexercised ?? [];
  const recomputed = again.unexercised ?? [];
  const text = (list: readonly UnexercisedRule[]): string =>
    JSON.stringify(list.map((u) => [u.rule, u.reason]));
  if (text(recorded) === text(recomputed)) return [];
  const names = (list: readonly UnexercisedRule[]): string =>
    list.length === 0 ? 'none' : list.map((u) => u.rule).join(', ');
  return [
    `row ${row.id}: unexercised recorded ${names(recorded)}, recomputed ${names(recomputed)}${names(recorded) === names(recomputed) ? ' (their reasons differ)' : ''}`,
  ];
}

/**
 * A row no recorded data can recompute must still agree with its own findings. Without an
 * observation the legs record a finding only for a host fault: one failing `run.served`. Anything
 * else (a pass above all) would be a verdict on host data that is not in the report.
 */
export function checkConsistency(row: ReportRow): string[] {
  const at = `row ${row.id}`;
  const [only] = row.findings;
  if (
    row.findings.length > 0 &&
    // Stryker disable next-line OptionalChaining: reached only when a first finding exists; the `?.` is for the types
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
