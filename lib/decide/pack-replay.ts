// The one replay of a generated pack, for `verify`: each recorded case paired with the fixture the
// recorded generator draws at its place, its placement and fixture digest checked, the case
// decided again from what it recorded (recomputeCase, as the run decided it), its record rebuilt
// and the pack tallied. The two shapes a report records a pack in hand their cases to it through
// thin adapters: generated-leg.ts (cases inline in the report) and streamed-pack.ts (cases in a
// sidecar, read line by line). Only the current case, the tally and a bounded number of named
// problems are held here, so a streamed pack of any size replays in the memory of a small one.

import { drawnFixtureDigest, selectedFixtures, type PackSelection } from '../generate/pack.ts';
import { describeError } from '../observe/errors.ts';
import type { DriveResult, Fixture, GeneratedCaseRecord, OptOutName } from '../types.ts';
import { blocked, hostFaultDecision, type Decision } from './decide.ts';
import { decideLeg, type LegFacts } from './decide-leg.ts';
import { generatedLeg } from './generated-pack.ts';
import { PackTally, type GeneratedCase } from './pack-tally.ts';

/** The recorded discovery document, when it was served and parses. */
export type RecordedDocument =
  { readonly ok: true; readonly document: unknown } | { readonly ok: false };

export interface GateSettings {
  readonly strict: boolean;
  readonly optedOut: readonly OptOutName[];
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

/**
 * The digest a rebuilt case records: the regenerated fixture's, for a record that names its
 * generator version (reports before versions recorded none).
 */
export function rebuiltDigest(record: PackSelection, fixture: Fixture): string | undefined {
  return record.generator === undefined ? undefined : drawnFixtureDigest(fixture);
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

/**
 * A recorded case as its shape hands it over: the record, with the text it was read from when it
 * was read from a line (which must then be the rebuilt record's JSON), or why its place holds none.
 */
export type RecordedCase =
  | { readonly ok: true; readonly record: GeneratedCaseRecord; readonly text?: string }
  | { readonly ok: false; readonly problem: string };

/** How a record shape names what the replay finds, and what it keeps of the rebuilt cases. */
export interface RecordShape {
  /** A 1-based place of the recorded cases as a problem names it: `generated case 3`, `F line 3`. */
  readonly at: (place: number) => string;
  /**
   * Where a page finds a case (DecidedCases): from the 1-based place it was read at and the
   * fixture the pack holds there.
   */
  readonly pageKey: (read: number, fixture: Fixture) => number;
  /** A case recorded where the pack places another fixture, named at its place. */
  readonly misplaced: (at: string, recorded: GeneratedCaseRecord, fixture: Fixture) => string;
  /**
   * Whether a misplaced case whose recorded digest is another draw's is named as another
   * referee's case rather than as misplaced (each shape's reports have always said it its way).
   */
  readonly drawBeforePlace: boolean;
  /** A case recorded beyond the end of the pack, named at its place; absent: passed over. */
  readonly beyond?: (at: string) => string;
  /** How many contradicting cases are named before the rest are only counted. */
  readonly named: number;
  /** Every case's findings on the row, as an inline record's row holds them (PackTally). */
  readonly keepEveryFinding: boolean;
  /** Handed each case the pack draws, in pack order: rebuilt, or as recorded where it cannot be. */
  readonly rebuilt?: (record: GeneratedCaseRecord) => void;
}

/** What the replay made of the recorded cases. */
export interface PackReplay {
  /** The pack decided from the cases decided again. */
  readonly tally: PackTally;
  /** How many recorded cases were read, whether or not they could be decided again. */
  readonly read: number;
  /** How many of them had a fixture of the pack at their place. */
  readonly drawn: number;
  /** Whether the pack holds a fixture past the last recorded case (drawn when first asked). */
  readonly packGoesOn: () => boolean;
  /** The first contradicting cases, named at their places. */
  readonly problems: readonly string[];
  /** How many more contradicting cases there were. */
  readonly unnamed: number;
  /** Each case recorded with a fixture digest another referee's draw has there. */
  readonly differentReferee: readonly string[];
  /** What stopped the reading of the recorded cases before their end, when something did. */
  readonly stopped?: { readonly error: unknown };
}

/** The pack a record names, drawn by `generator`, replayed against its recorded cases. */
export async function replayPack(
  record: PackSelection,
  generator: number,
  cases: Iterable<RecordedCase> | AsyncIterable<RecordedCase>,
  judged: Judged,
  shape: RecordShape,
): Promise<PackReplay> {
  const tally = new PackTally({ ...record, keepEveryFinding: shape.keepEveryFinding });
  const fixtures = selectedFixtures({ ...record, generator })[Symbol.iterator]();
  const problems: string[] = [];
  const differentReferee: string[] = [];
  let unnamed = 0;
  let read = 0;
  let drawn = 0;
  const name = (problem: string): void => {
    if (problems.length < shape.named) problems.push(problem);
    else unnamed += 1;
  };
  let stopped: PackReplay['stopped'];
  try {
    for await (const recordedCase of cases) {
      read += 1;
      const next = fixtures.next();
      if (next.done === true) {
        if (shape.beyond !== undefined) name(shape.beyond(shape.at(read)));
        continue;
      }
      drawn += 1;
      const found = replayCase(
        { record, generator, judged, shape },
        read,
        next.value,
        recordedCase,
      );
      if (found.rebuilt !== undefined) shape.rebuilt?.(found.rebuilt);
      if (found.problem !== undefined) name(found.problem);
      if (found.otherDraw !== undefined) differentReferee.push(found.otherDraw);
      if (found.replayed !== undefined) {
        tally.add(found.replayed, next.value, shape.pageKey(read, next.value));
      }
    }
  } catch (error) {
    stopped = { error };
  }
  let goesOn: boolean | undefined;
  return {
    tally,
    read,
    drawn,
    packGoesOn: () => (goesOn ??= fixtures.next().done !== true),
    problems,
    unnamed,
    differentReferee,
    ...(stopped === undefined ? {} : { stopped }),
  };
}

/** What a replay decides a case from: the recorded discovery and the gates' settings. */
type Judged = { readonly discovery: RecordedDocument; readonly settings: GateSettings };

/** What one recorded case comes to, each part absent where the case has none. */
interface CaseReplay {
  /** The record kept for the pack's rebuilt record: rebuilt, or as recorded where it cannot be. */
  readonly rebuilt?: GeneratedCaseRecord;
  /** The case decided again, for the tally. */
  readonly replayed?: GeneratedCase;
  /** A contradiction, named at the case's place. */
  readonly problem?: string;
  /** Why the case is another referee's draw. */
  readonly otherDraw?: string;
}

/**
 * The recorded case read at `read` (1-based) beside the fixture the pack holds there: placed,
 * digest-checked and decided again, or what it contradicts.
 */
function replayCase(
  pack: {
    readonly record: PackSelection;
    readonly generator: number;
    readonly judged: Judged;
    readonly shape: RecordShape;
  },
  read: number,
  fixture: Fixture,
  recordedCase: RecordedCase,
): CaseReplay {
  const { record, generator, judged, shape } = pack;
  const at = shape.at(read);
  if (!recordedCase.ok) return { problem: `${at}: ${recordedCase.problem}` };
  const recorded = recordedCase.record;
  const caseAt = `${at} (${recorded.fixtureId})`;
  const digest = rebuiltDigest(record, fixture);
  const other = otherDraw(recorded, digest, generator);
  const placed = recorded.fixtureId === fixture.id && recorded.file === `${fixture.id}.json`;
  if (other !== undefined && (placed || shape.drawBeforePlace)) {
    return { rebuilt: recorded, otherDraw: `${caseAt}: ${other}` };
  }
  if (!placed) return { rebuilt: recorded, problem: shape.misplaced(at, recorded, fixture) };
  const again = decideAgain(fixture, recorded, judged.discovery, judged.settings);
  if (typeof again === 'string') return { rebuilt: recorded, problem: `${caseAt}: ${again}` };
  const replayed: GeneratedCase = {
    fixtureId: fixture.id,
    seed: record.seed,
    file: recorded.file,
    decision: again,
    ...(digest === undefined ? {} : { fixtureDigest: digest }),
  };
  const rebuilt = caseRecord(replayed);
  const unlike = recordedCase.text !== undefined && JSON.stringify(rebuilt) !== recordedCase.text;
  return {
    rebuilt,
    replayed,
    ...(unlike
      ? { problem: `${caseAt}: the line is not the record its case decides to again` }
      : {}),
  };
}

/** A record whose members have the wrong types is a contradiction of its own, not a crash. */
function decideAgain(...args: Parameters<typeof recomputeCase>): ReturnType<typeof recomputeCase> {
  try {
    return recomputeCase(...args);
  } catch (error) {
    return `cannot be decided again (${describeError(error)})`;
  }
}
