// The verdict half of the replay: what each recorded row decides to again. A row is decided by
// decideLeg (lib/decide/decide-leg.ts), the function that decided it in the run, from the facts the
// report recorded; a row nothing recorded can decide again (a transport loss or a host fault
// carries no observation) is rebuilt from what its own findings imply. Pure but for the fixture
// loader it is handed, so StrykerJS can mutate it against millisecond tests
// (tests/report/recompute.test.ts); lib/report/verify/replay.ts builds the report from these rows.

import type { FixtureLoad } from '../../fixtures.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../legs.ts';
import { blocked, hostFaultDecision, type Decision } from '../../decide/decide.ts';
import { decideLeg, type HostDiscovery, type LegFacts } from '../../decide/decide-leg.ts';
import { recomputeGeneratedRow, type RecordedDocument } from '../../decide/generated-leg.ts';
import { recomputeStreamedRow } from '../../decide/streamed-pack.ts';
import { unreadableSidecars, type SidecarOpener } from '../../decide/sidecar-opener.ts';
import type { DecidedCases, GeneratedRecord } from '../../types.ts';
import type { EvalGateReport, ReportRow } from '../report.ts';
import { isSelected } from '../run-options.ts';
import { packDrawnBy, type DifferentReferee } from './generator-version.ts';

/** The recorded discovery document, when it was served and parses; the generated row reads the same. */
export type Discovery = RecordedDocument;

/** The report members a recomputation reads besides the row. */
export type RunSettings = Pick<EvalGateReport, 'strict' | 'optedOut' | 'selection'>;

export type FixtureLoader = (id: string) => Promise<FixtureLoad>;

/**
 * A row decided again; the generated row carries its pack's record rebuilt case by case, and,
 * when the report did not name the generator that drew it, which one did.
 */
export type RowDecision = Decision & {
  readonly generated?: GeneratedRecord;
  /** The generated row's failing cases a page opens, as decided again here. */
  readonly decidedCases?: DecidedCases;
  readonly drawnBy?: string;
};

/**
 * The row as the suite's own code decides it from the recorded data; a string when the recorded
 * data contradicts itself; undefined when nothing recorded lets it be recomputed (a transport
 * loss or a host fault carries no observation), so only its consistency can be checked; a
 * DifferentReferee for a generated pack this verifier cannot draw again.
 */
export async function recompute(
  row: ReportRow,
  settings: RunSettings,
  discovery: Discovery,
  load: FixtureLoader,
  openSidecar: SidecarOpener = noSidecar,
): Promise<RowDecision | DifferentReferee | string | undefined> {
  if (row.id === GENERATED_REQUIREMENT) {
    return recomputeGenerated(row, settings, discovery, openSidecar);
  }
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
  if (row.observation === undefined) return undefined;
  // The gates held, so decideLeg asks for the fixture the requirement drives.
  // Stryker disable next-line ConditionalExpression: without a fixture, decideLeg decides or asks for one; the kind narrows the type
  if (before.kind !== 'load-fixture') return undefined;
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
  if (discovery.ok) return { kind: 'read', document: discovery.document };
  // Stryker disable next-line ObjectLiteral,StringLiteral: decideLeg reads a gate only for the kinds no-host, unreadable and read
  return { kind: 'unrecorded' };
}

/**
 * The generated row: its pack regenerated from the recorded seed and size, each case decided
 * again from what it recorded, and the record rebuilt; a string naming every case whose record
 * contradicts the pack or itself; undefined for a row that drove no pack (no host).
 */
async function recomputeGenerated(
  row: ReportRow,
  settings: RunSettings,
  discovery: Discovery,
  openSidecar: SidecarOpener,
): Promise<RowDecision | DifferentReferee | string | undefined> {
  const pack = row.generated;
  if (pack === undefined) return undefined;
  const drawn = await packDrawnBy(pack, (generator) =>
    'cases' in pack
      ? recomputeGeneratedRow(pack, discovery, settings, generator)
      : recomputeStreamedRow(pack, discovery, settings, openSidecar, generator),
  );
  if ('differentReferee' in drawn) return drawn;
  const { again, drawnBy } = drawn;
  if (again.problems.length > 0) return again.problems.join('; ');
  return {
    ...again.decision,
    generated: again.record,
    decidedCases: again.decidedCases,
    ...(drawnBy === undefined ? {} : { drawnBy }),
  };
}

/** A recomputation handed no sidecar reader: a streamed pack's row is then not borne out. */
const noSidecar = unreadableSidecars('no sidecar reader was given');

/**
 * What a row no recorded data can decide again comes to: what its own findings imply, or a string
 * when they cannot be so. Without an observation the legs record a finding only for a host fault
 * (one failing `run.served`), and without a finding only a block, with its reason. Anything else
 * (a pass above all) would be a verdict on host data that is not in the report.
 */
export function impliedDecision(row: ReportRow): Decision | string {
  if (row.findings.length === 0) return blocked(row.reason ?? '');
  return (
    hostFaultDecision(row.findings) ??
    `${row.findings.length} finding(s) but no observation; without one only a host fault (one failing run.served) can be recorded`
  );
}
