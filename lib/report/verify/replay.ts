// `verify` as a replay: the report a run would have written from the facts this report recorded
// (its discovery text, each row's drive or gates, the probes, the pack's cases, the options the
// job chose), built by the very code the run builds its report with: decideLeg for every row and
// every generated case, the host-check judge, buildReport, the certification. The caller compares
// the recorded report with the rebuilt one member by member (lib/report/verify/json-diff.ts), so a member
// the run writes is a member the replay checks, with no comparer written for it.

import { LEGS } from '../../legs.ts';
import { PROBE_NAMES } from '../../host-probes.ts';
import type { DecidedCases, DecidedCasesByRow, LegOutcome } from '../../types.ts';
import { decidedCasesByRow } from '../../decide/decided-cases.ts';
import { judgeHostChecks, type DiscoveryRead } from '../../eval-gate-witness.ts';
import type { Decision } from '../../decide/decide.ts';
import { plain } from '../verdict/baseline.ts';
import { plainOverride } from '../verdict/severity.ts';
import { withCertification } from '../verdict/certification.ts';
import type {
  Certification,
  DigestedLoad,
  DiscoveryRecord,
  EvalGateReport,
  ReportRow,
} from '../report.ts';
import { buildReport, fixtureDigests, reportDigest, type ReportInput } from '../report.ts';
import { impliedDecision, recompute, type Discovery } from './recompute.ts';
import type { SidecarOpener } from '../../decide/sidecar-opener.ts';
import type { RunOptions } from '../run-record.ts';
import type { Selection } from '../run-options.ts';
import { signerOf } from './signature.ts';
import { requirementSetOf } from '../../requirement-sets.ts';

export interface Replay {
  /** The report as the run would have written it from what this one recorded. */
  readonly rebuilt: EvalGateReport;
  /**
   * What the record contradicts that no rebuilt member can show: a row twice, a requirement this
   * suite lacks or a leg the report lacks, a record that cannot be decided again.
   */
  readonly contradictions: readonly string[];
  /**
   * Each leg of this suite the report has no row for: an edit for a report this suite wrote, and
   * a difference of referee for one an earlier suite with fewer legs wrote (the caller knows which).
   */
  readonly missingLegs: readonly string[];
  /**
   * Each probe this suite sends that the report does not record, or the host checks as a whole: a
   * run with a host to drive records every probe, sent or not (each `not-made` with its reason).
   * An edit for a report this suite wrote, a difference of referee for an earlier suite's.
   */
  readonly missingProbes: readonly string[];
  /**
   * What says another referee drew the generated pack: a generator version this verifier lacks, a
   * case whose fixture digest is not the one drawn, or the version identified for a report that
   * named none. An edit for a report this suite wrote, a difference of referee for an earlier one's.
   */
  readonly generatorDifferences: readonly string[];
  /**
   * The failing generated cases a page of the report opens, by row, as this replay decided them
   * again: the page shows them and decides nothing (lib/report/page-inputs.ts).
   */
  readonly decidedCases: DecidedCasesByRow;
  /** How each row was rebuilt, for the summary line. */
  readonly recomputed: number;
  readonly consistencyOnly: number;
  /** The digest of the recorded report (lib/report/report.ts reportDigest), when it is signed. */
  readonly reportDigest?: string;
}

type FixtureLoader = (id: string) => Promise<DigestedLoad>;

/**
 * Replays a report its schema has accepted. `load` reads the fixture each row drove, as the
 * report's recorded digest names it (an archived fixture for a report an earlier version wrote),
 * with its digest when the loader has taken it.
 */
export async function replayReport(
  report: EvalGateReport,
  load: FixtureLoader,
  openSidecar?: SidecarOpener,
): Promise<Replay> {
  const discovery = discoveryOf(report);
  const contradictions = repeatedRows(report);
  const recordedIds = new Set(report.requirements.map((r) => r.id));
  const missingLegs = LEGS.filter((leg) => !recordedIds.has(leg.id)).map(
    (leg) => `row ${leg.id}: missing from the report`,
  );
  const missingProbes = probesMissing(report);
  const generatorDifferences: string[] = [];
  let recomputed = 0;
  let consistencyOnly = 0;
  const outcomes: LegOutcome[] = [];
  for (const row of report.requirements) {
    const again = await replayRow(row, report, discovery.document, load, openSidecar);
    if (again.contradiction !== undefined) contradictions.push(again.contradiction);
    if (again.drawnBy !== undefined) generatorDifferences.push(again.drawnBy);
    if (again.how === 'recomputed') recomputed += 1;
    if (again.how === 'consistency') consistencyOnly += 1;
    outcomes.push(again.outcome);
  }
  const repetitions = await replayRepetitions(report, discovery.document, load, openSidecar);
  contradictions.push(...repetitions.contradictions);
  generatorDifferences.push(...repetitions.generatorDifferences);
  const built = await buildReport(reportInput(report, discovery, outcomes, repetitions.outcomes), {
    fixtureDigests: (ids) => fixtureDigests(ids, load),
    // Checked against the files this suite ships by the caller, as a difference of referee.
    schemaDigests: () => Promise.resolve({ ...report.digests.schemas }),
    referee: () => Promise.resolve(report.suite),
  });
  const signed = certified(report, built);
  return {
    rebuilt: asItsTimeWrote(report, signed.report),
    ...(signed.reportDigest === undefined ? {} : { reportDigest: signed.reportDigest }),
    contradictions,
    missingLegs,
    missingProbes,
    generatorDifferences,
    decidedCases: decidedCasesByRow(outcomes),
    recomputed,
    consistencyOnly,
  };
}

/**
 * Under --repeat each row holds the later drives of its requirement, decided as the row is: the
 * k-th drive of every row is the k-th later run, as the run recorded it.
 */
async function replayRepetitions(
  report: EvalGateReport,
  discovery: Discovery,
  load: FixtureLoader,
  openSidecar: SidecarOpener | undefined,
): Promise<{
  readonly outcomes: LegOutcome[][];
  readonly contradictions: readonly string[];
  readonly generatorDifferences: readonly string[];
}> {
  const contradictions: string[] = [];
  const generatorDifferences: string[] = [];
  const drives = report.requirements.map((r) => r.repetitions?.length ?? 0);
  const repeated = drives.length === 0 ? 0 : Math.min(...drives);
  if (drives.some((n) => n !== repeated)) {
    contradictions.push(
      `requirements: the rows hold ${[...new Set(drives)].join(', ')} repetitions; every row of one run holds the same number`,
    );
  }
  const outcomes: LegOutcome[][] = [];
  for (let k = 0; k < repeated; k += 1) {
    const later: LegOutcome[] = [];
    for (const row of report.requirements) {
      const drive = { ...(row.repetitions?.[k] as ReportRow), id: row.id };
      const again = await replayRow(drive, report, discovery, load, openSidecar);
      if (again.contradiction !== undefined) {
        contradictions.push(
          again.contradiction.replace(`row ${row.id}`, `row ${row.id} repetitions[${k}]`),
        );
      }
      if (again.drawnBy !== undefined) {
        generatorDifferences.push(`${again.drawnBy} (repetitions[${k}])`);
      }
      later.push(again.outcome);
    }
    outcomes.push(later);
  }
  return { outcomes, contradictions, generatorDifferences };
}

/** What the run would have handed buildReport: the recorded facts, with the rows decided again. */
function reportInput(
  report: EvalGateReport,
  discovery: ReturnType<typeof discoveryOf>,
  outcomes: readonly LegOutcome[],
  repetitions: readonly (readonly LegOutcome[])[],
): ReportInput {
  return {
    outcomes,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    baseUrl: report.target.baseUrl,
    embedded: report.target.embedded,
    strict: report.strict,
    optedOut: report.optedOut,
    ...(report.target.declared === undefined ? {} : { declared: report.target.declared }),
    discovery: discovery.record,
    runOptions: runOptionsOf(report),
    ...(repetitions.length === 0 ? {} : { repetitions }),
    ...(report.hostChecks === undefined
      ? {}
      : {
          hostChecks: {
            probes: report.hostChecks.probes,
            ...judgeHostChecks(discovery.read, report.hostChecks.probes),
          },
        }),
  };
}

/** The discovery as the report recorded it, in the three forms its readers take. */
export function discoveryOf(report: EvalGateReport): {
  readonly record: DiscoveryRecord;
  readonly document: Discovery;
  readonly read: DiscoveryRead;
} {
  const recorded = report.discovery;
  if (!recorded.ok) {
    return {
      record: recorded,
      document: { ok: false },
      read: { ok: false, reason: recorded.reason },
    };
  }
  let document: unknown;
  try {
    document = JSON.parse(recorded.text) as unknown;
  } catch {
    return {
      record: { ok: true, text: recorded.text, document: undefined },
      document: { ok: false },
      read: { ok: false, reason: 'the recorded discovery text is not JSON' },
    };
  }
  return {
    record: { ok: true, text: recorded.text, document },
    document: { ok: true, document },
    read: { ok: true, document },
  };
}

/** Each row id once. */
function repeatedRows(report: EvalGateReport): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const row of report.requirements) {
    if (seen.has(row.id)) out.push(`row ${row.id}: appears more than once`);
    seen.add(row.id);
  }
  return out;
}

/** One drive of a requirement decided again, or rebuilt from what its findings imply. */
async function replayRow(
  row: ReportRow,
  report: EvalGateReport,
  discovery: Discovery,
  load: FixtureLoader,
  openSidecar: SidecarOpener | undefined,
): Promise<{
  readonly outcome: LegOutcome;
  readonly how: 'recomputed' | 'consistency' | 'contradicted';
  readonly contradiction?: string;
  readonly drawnBy?: string;
}> {
  const again = await recompute(row, report, discovery, load, openSidecar);
  // Another referee's draw is kept as recorded; only its consistency with the row can be checked.
  if (typeof again === 'object' && 'differentReferee' in again) {
    return { outcome: recordedOutcome(row), how: 'consistency', drawnBy: again.differentReferee };
  }
  if (typeof again === 'string') {
    return {
      outcome: recordedOutcome(row),
      how: 'contradicted',
      contradiction: `row ${row.id}: ${again}`,
    };
  }
  if (again !== undefined) {
    const drawnBy = again.drawnBy === undefined ? {} : { drawnBy: again.drawnBy };
    return { outcome: outcomeOf(row, again), how: 'recomputed', ...drawnBy };
  }
  const implied = impliedDecision(row);
  return typeof implied === 'string'
    ? {
        outcome: recordedOutcome(row),
        how: 'consistency',
        contradiction: `row ${row.id}: ${implied}`,
      }
    : { outcome: outcomeOf(row, implied), how: 'consistency' };
}

/** A row decided again: the decision's members, and the facts the run recorded beside it. */
function outcomeOf(
  row: ReportRow,
  decision: Decision & { generated?: ReportRow['generated']; decidedCases?: DecidedCases },
): LegOutcome {
  return {
    requirement: row.id,
    disposition: decision.disposition,
    assertions: decision.assertions,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    findings: decision.findings,
    ...(decision.unexercised === undefined ? {} : { unexercised: decision.unexercised }),
    ...facts(row),
    ...(decision.generated === undefined ? {} : { generated: decision.generated }),
    ...(decision.decidedCases === undefined ? {} : { decidedCases: decision.decidedCases }),
  };
}

/** A row whose record contradicts itself, kept as recorded: its contradiction is named instead. */
function recordedOutcome(row: ReportRow): LegOutcome {
  return outcomeOf(row, row);
}

/** What a row records of the run itself, which nothing decides: its timing, fixture and drive. */
function facts(
  row: ReportRow,
): Pick<LegOutcome, 'durationMs' | 'fixtureId' | 'observation' | 'generated'> {
  return {
    durationMs: row.durationMs,
    ...(row.fixtureId === undefined ? {} : { fixtureId: row.fixtureId }),
    ...(row.observation === undefined ? {} : { observation: row.observation }),
    ...(row.generated === undefined ? {} : { generated: row.generated }),
  };
}

/**
 * The options the job chose, as recorded. A pinned requirement set is taken from the version the
 * suite shipped, so a report edited to claim a set with fewer requirements does not replay to itself.
 */
function runOptionsOf(report: EvalGateReport): RunOptions {
  const { failOn, selection, baseline, repeat } = report;
  return {
    ...(failOn === undefined ? {} : { failOn }),
    ...(repeat === undefined ? {} : { repeat: repeat.count }),
    ...(selection === undefined ? {} : { selection: selectionOf(selection) }),
    ...(baseline === undefined
      ? {}
      : {
          baseline: {
            file: baseline.file,
            sha256: baseline.sha256,
            entries: baseline.entries.map(plain),
            ...(baseline.severity === undefined
              ? {}
              : { severity: baseline.severity.map(plainOverride) }),
          },
        }),
  };
}

function selectionOf(selection: NonNullable<EvalGateReport['selection']>): Selection {
  const version = selection.requirementSet?.version;
  const shipped = version === undefined ? undefined : requirementSetOf(version);
  return {
    only: selection.only,
    skip: selection.skip,
    ...(shipped === undefined ? {} : { requirementSet: shipped }),
  };
}

/**
 * The rebuilt report certified as the run certifies it, bearing the recorded signature, and the
 * digest of the recorded report when it is signed, taken once for the signer and the signature.
 */
function certified(
  recorded: EvalGateReport,
  built: EvalGateReport,
): { readonly report: EvalGateReport; readonly reportDigest?: string } {
  const signature = recorded.signature;
  if (signature === undefined) return { report: withCertification(built, signerOf(recorded)) };
  const digest = reportDigest(recorded);
  const withVerdict = withCertification(built, signerOf(recorded, digest));
  // What a signature signs is the report as it now is: an edit after signing shows here.
  return {
    report: { ...withVerdict, signature: { ...signature, reportDigest: digest } },
    reportDigest: digest,
  };
}

function probesMissing(report: EvalGateReport): string[] {
  if (report.hostChecks === undefined) return ['hostChecks: missing from the report'];
  const recorded = new Set(report.hostChecks.probes.map((p) => p.probe));
  return PROBE_NAMES.filter((name) => !recorded.has(name)).map(
    (name) => `host check ${name}: missing from the report`,
  );
}

/**
 * The reasons a run began to record once it recorded its referee's judging digest: naming the
 * implementation, and driving the requirement set's generated pack.
 */
const NAMING_REASONS: ReadonlySet<string> = new Set([
  'unnamed',
  'implementation-mismatch',
  'pack-not-driven',
]);

/**
 * The rebuilt report under the rules of the suite that wrote the recorded one. A report written
 * before the run options and the certification were recorded has none of them, and ran with none;
 * one written before the judging digest was recorded did not yet withhold a certification for an
 * unnamed or mismatched implementation or an undriven pack. Such a report was judged by another referee, which
 * withholds this verifier's certification all the same (lib/report/verify/anchor.ts).
 */
function asItsTimeWrote(recorded: EvalGateReport, rebuilt: EvalGateReport): EvalGateReport {
  const runOptionsRecorded = [
    recorded.failOn,
    recorded.selection,
    recorded.baseline,
    recorded.certification,
  ].some((member) => member !== undefined);
  if (!runOptionsRecorded) {
    const before: { -readonly [K in keyof EvalGateReport]: EvalGateReport[K] } = { ...rebuilt };
    delete before.failOn;
    delete before.selection;
    delete before.baseline;
    delete before.certification;
    return before;
  }
  if (recorded.suite.judgingDigest !== undefined || rebuilt.certification === undefined) {
    return rebuilt;
  }
  const reasons = rebuilt.certification.reasons.filter((r) => !NAMING_REASONS.has(r.code));
  const certification: Certification = {
    ...rebuilt.certification,
    reasons,
    certified: reasons.length === 0,
  };
  return { ...rebuilt, certification };
}
