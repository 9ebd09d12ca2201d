// The generated pack as a row of the report: the requirement's outcome with every case recorded
// beside it, and the recomputation `verify` runs from those records. A case's record holds what
// its decision was made from (the observation, or a host fault's finding), so the row can be
// decided again without the host. A run streams each case's record to a sink (the sidecar file
// beside the report) as the case finishes and keeps only the pack's tally; reports before the
// sidecar hold every record inline, and are decided again as they were.

import { selectedFixtures, type PackSelection } from '../generate/pack.ts';
import { CURRENT_GENERATOR } from '../generate/versions.ts';
import { fixtureDigest } from '../canonical-json.ts';
import { packSelection } from './pack-request.ts';
import { GENERATED_REQUIREMENT } from '../legs.ts';
import type {
  DriveResult,
  Fixture,
  GeneratedCaseRecord,
  GeneratedRecord,
  GeneratedSidecar,
  InlineGeneratedRecord,
  LegOutcome,
  OptOutName,
} from '../types.ts';
import { blocked, hostFaultDecision, type Decision } from './decide.ts';
import {
  decidePack,
  driveGeneratedPack,
  generatedLeg,
  type GeneratedCase,
  streamGeneratedPack,
  type PackRequest,
  type PackWatch,
} from './generated-pack.ts';
import { PackTally } from './pack-tally.ts';
import type { RunBudget } from './run-budget.ts';
import { decideLeg, type LegFacts } from './decide-leg.ts';
import type { LegTarget } from './leg-target.ts';

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
        tally.add(c, fixture);
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
    durationMs: Math.max(0, now() - started),
  };
}

/** What a case records of itself: enough to decide it again without the host. */
export function caseRecord(c: GeneratedCase): GeneratedCaseRecord {
  const { decision } = c;
  const judgedWithout = decision.observation === undefined && decision.findings.length > 0;
  return {
    fixtureId: c.fixtureId,
    file: c.file,
    disposition: decision.disposition,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(judgedWithout ? { findings: decision.findings } : {}),
    ...(decision.observation === undefined ? {} : { observation: decision.observation }),
    ...(c.fixtureDigest === undefined ? {} : { fixtureDigest: c.fixtureDigest }),
  };
}

/** The recorded discovery document, when it was served and parses. */
export type RecordedDocument =
  { readonly ok: true; readonly document: unknown } | { readonly ok: false };

export interface GateSettings {
  readonly strict: boolean;
  readonly optedOut: readonly OptOutName[];
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
}

/**
 * The digest a rebuilt case records: the regenerated fixture's, for a record that names its
 * generator version (reports before versions recorded none).
 */
export function rebuiltDigest(record: PackSelection, fixture: Fixture): string | undefined {
  return record.generator === undefined ? undefined : fixtureDigest(fixture);
}

/** Why a recorded case is another referee's draw, or undefined when its digest is the one drawn. */
export function otherDraw(
  recorded: GeneratedCaseRecord,
  digest: string | undefined,
  generator: number,
): string | undefined {
  if (recorded.fixtureDigest === undefined || digest === undefined) return undefined;
  if (recorded.fixtureDigest === digest) return undefined;
  return `records fixture digest ${recorded.fixtureDigest.slice(0, 12)}…, generator v${generator} draws ${digest.slice(0, 12)}… there`;
}

/**
 * The row again from its records: the pack regenerated from the seed, and each case decided as
 * the run decides it (decideLeg, with the fixture in hand and the recorded drive), then the pack
 * decided as a run decides it. `verify` compares the rebuilt record with the recorded one.
 */
export function recomputeGeneratedRow(
  record: InlineGeneratedRecord,
  discovery: RecordedDocument,
  settings: GateSettings,
  generator: number = record.generator ?? CURRENT_GENERATOR,
): PackRecomputation<InlineGeneratedRecord> {
  const pack = [...selectedFixtures({ ...packSelection(record), generator })];
  const problems: string[] = [];
  const differentReferee: string[] = [];
  if (record.case !== undefined && pack.length === 0) {
    problems.push(
      `generated: case ${record.case} is not in the pack of ${record.count} at seed ${record.seed}`,
    );
  } else if (record.cases.length < pack.length) {
    problems.push(
      `generated: ${record.cases.length} cases recorded, the pack of ${record.count} at seed ${record.seed} has ${pack.length}`,
    );
  }
  const cases: GeneratedCase[] = [];
  const rebuilt: GeneratedCaseRecord[] = [];
  pack.forEach((fixture, i) => {
    const recorded = record.cases[i];
    if (recorded === undefined) return;
    const at = `generated case ${i + 1} (${recorded.fixtureId})`;
    const digest = rebuiltDigest(record, fixture);
    const other = otherDraw(recorded, digest, generator);
    if (other !== undefined) {
      differentReferee.push(`${at}: ${other}`);
      rebuilt.push(recorded);
      return;
    }
    const again =
      recorded.fixtureId !== fixture.id || recorded.file !== `${fixture.id}.json`
        ? `recorded as ${recorded.file}, the pack places ${fixture.id} there`
        : recomputeCase(fixture, recorded, discovery, settings);
    if (typeof again === 'string') {
      problems.push(`${at}: ${again}`);
      rebuilt.push(recorded);
      return;
    }
    const replayed = {
      fixtureId: fixture.id,
      seed: record.seed,
      file: recorded.file,
      decision: again,
      ...(digest === undefined ? {} : { fixtureDigest: digest }),
    };
    cases.push(replayed);
    rebuilt.push(caseRecord(replayed));
  });
  return {
    decision: decidePack(cases),
    record: { ...packSelection(record), cases: rebuilt },
    problems,
    differentReferee,
  };
}

/**
 * One case decided again with decideLeg, from the drive it recorded: its observation, or its host
 * fault (one failing run.served finding), or, for a case that never drove, its recorded reason.
 */
export function recomputeCase(
  fixture: Fixture,
  recorded: GeneratedCaseRecord,
  discovery: RecordedDocument,
  settings: GateSettings,
): Decision | string {
  const facts: LegFacts = {
    leg: generatedLeg(fixture),
    selected: true,
    settings: { requireBehavior: settings.strict, optedOut: settings.optedOut },
    discovery: discovery.ok
      ? { kind: 'read', document: discovery.document }
      : { kind: 'unrecorded' },
    fixture: { ok: true, fixture, path: recorded.file },
  };
  const gated = decideLeg(facts);
  if (gated.kind === 'decided') return gated.decision;
  if (recorded.observation !== undefined) {
    return decidedWith(facts, { kind: 'observed', observation: recorded.observation });
  }
  if (recorded.findings !== undefined) {
    return (
      hostFaultDecision(recorded.findings) ??
      'findings without an observation; only a host fault (one failing run.served) is recorded so'
    );
  }
  if (recorded.disposition === 'blocked' && recorded.reason !== undefined) {
    return blocked(recorded.reason);
  }
  return `disposition ${recorded.disposition} with no observation, finding or gate that explains it`;
}

function decidedWith(facts: LegFacts, drive: DriveResult): Decision | string {
  const step = decideLeg({ ...facts, drive });
  // Stryker disable next-line ConditionalExpression: with a fixture and a drive, decideLeg decides
  return step.kind === 'decided'
    ? step.decision
    : `decideLeg asked for ${step.kind} after the drive`;
}
