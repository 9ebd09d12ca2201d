// The suite's vocabulary. Every other module speaks in these types; nothing here does any work.
//
// Two families live here: the documents of the wire contract (fixtures, suites, summaries,
// events), typed as the suite expects them once they validate; and the suite's own data
// (observations, findings, dispositions, leg outcomes), which is always plain JSON so it can be
// written to a report and recomputed offline.

import type { ProbeName } from './host-probes.ts';

/** Any JSON value. Host answers are `unknown` until a schema has accepted them. */
export type Json =
  null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };

// ---------------------------------------------------------------------------------------------
// Documents (wire contract §3–§7)

export type MatchMode = 'exact' | 'in-order' | 'any-order';
export type PassRule = 'all' | 'any' | 'mean';
export type GoldenMatch = 'exact' | 'contains' | 'json-match';

export interface ToolCall {
  readonly tool: string;
  readonly args?: { readonly [k: string]: Json };
}

export interface ExpectedTrajectory {
  readonly match: MatchMode;
  readonly calls: readonly ToolCall[];
  readonly forbidden?: readonly string[];
}

/** The golden comparison of a task's output (RFC 0081, contract §4). */
export interface GoldenExpectation {
  readonly strategy: GoldenMatch;
  readonly value: Json;
}

export interface RubricCriterion {
  readonly criterion: string;
  readonly weight: number;
}

/** One recorded tool answer; an entry without `response` answers `null` (contract §3). */
export interface ToolResponse {
  readonly tool: string;
  readonly response?: Json;
}

export interface EvalTask {
  readonly taskId: string;
  readonly input: Json;
  readonly expected: {
    readonly kind: 'golden' | 'rubric';
    /** Absent on a task the suite cannot grade; the witness refuses such a fixture. */
    readonly match?: GoldenExpectation;
    readonly rubric?: readonly RubricCriterion[];
    readonly trajectory?: ExpectedTrajectory;
  };
  readonly fixtures?: {
    /** When present, a call to a tool with no entry here is a fixture miss (contract §4). */
    readonly toolResponses?: readonly ToolResponse[];
    readonly memorySeed?: readonly { readonly [k: string]: Json }[];
  };
}

/** The bars as a suite document states them; the published structure makes each optional. */
export interface SuiteThresholds {
  readonly passScore?: number;
  readonly maxCostUsd?: number;
  readonly maxP95LatencyMs?: number;
}

/** The bars of a suite the witness grades: no pass decision follows without `passScore`. */
export interface Thresholds extends SuiteThresholds {
  readonly passScore: number;
}

export interface AgentEvalSuite {
  readonly suiteId: string;
  readonly version: string;
  readonly targetAgentId?: string;
  readonly modes: readonly string[];
  readonly allowedModels?: readonly string[];
  readonly thresholds?: SuiteThresholds;
  readonly trials?: { readonly count: number; readonly passRule: PassRule };
  readonly tasks: readonly EvalTask[];
}

/**
 * The suite of a fixture. The witness grades it, so it must state `passScore`; the published
 * structure does not require that, so the fixture loader checks it (lib/fixtures.ts).
 */
export interface FixtureSuite extends AgentEvalSuite {
  readonly thresholds: Thresholds;
}

/** One scripted trial: the calls the agent makes, in order, then the output it returns. */
export interface ScriptedTrial {
  readonly calls: readonly ToolCall[];
  readonly output: Json;
  /** What the trial costs, which a host reports as stated ([0244-assumed], contract §3). */
  readonly costUsd?: number;
  /** What the trial takes, which a host reports as stated rather than measured ([0244-assumed]). */
  readonly latencyMs?: number;
}

export interface Fixture {
  readonly id: string;
  readonly requirement: string;
  readonly agentId: string;
  readonly suite: FixtureSuite;
  /** Per task: one entry per trial (entry i for trial i), or one entry used for every trial. */
  readonly script: { readonly [taskId: string]: readonly ScriptedTrial[] };
}

export interface TrialStats {
  readonly passed: number;
  readonly trajectoryFailed: number;
  readonly failedClosed: number;
  readonly minScore: number;
  readonly maxScore: number;
}

export interface TaskTrials {
  readonly count: number;
  readonly passRule: PassRule;
  readonly meanScore: number;
  readonly passAtK?: number;
  readonly passHatK?: number;
  readonly trialStats?: TrialStats;
}

export interface SummaryTask {
  readonly taskId: string;
  readonly score: number;
  readonly passed: boolean;
  readonly gatedScore?: number;
  readonly trials?: TaskTrials;
  readonly costUsd?: number;
  readonly latencyMs?: number;
  readonly schemaValid?: boolean;
  readonly safetyFindings?: readonly Json[];
}

export interface EvalSummary {
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly aggregateScore: number;
  readonly gatedAggregateScore?: number;
  readonly passed: boolean;
  readonly taskCount: number;
  readonly passedCount: number;
  readonly tasks: readonly SummaryTask[];
  readonly totalCostUsd?: number;
  readonly regression?: Json;
}

export interface ScoredPayload {
  readonly taskId: string;
  readonly score: number;
  readonly passed: boolean;
  readonly trial?: number;
  readonly trajectoryMatched?: boolean;
  readonly failedClosed?: boolean;
  readonly costUsd?: number;
  readonly latencyMs?: number;
  readonly schemaValid?: boolean;
  readonly safetyFindingCount?: number;
}

export interface CompletedPayload {
  readonly aggregateScore: number;
  readonly passed: boolean;
  readonly taskCount: number;
  readonly passedCount: number;
}

// ---------------------------------------------------------------------------------------------
// Observation: what the driver saw, unjudged. Host-supplied values stay `unknown`.

/** The JSON type of a value as the wire carried it. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/**
 * The envelope of one event, for the wire rules: every member but `sequence`, `type`, `runId`
 * and `payload` (those sit on the event itself) as sent, and the payload only as its JSON type,
 * because the suite keeps no payload it does not read.
 */
export interface ObservedEnvelope {
  /** The event's own JSON type; only an object has members and a payload. */
  readonly json: JsonType;
  readonly members?: { readonly [member: string]: unknown };
  /** The payload's JSON type, or `absent` when the event has no payload member. */
  readonly payload?: JsonType | 'absent';
  /**
   * On `run.completed` only: its payload's `outputs` JSON type, or `absent`. The outputs are not
   * kept, since a host may put the agent's output there; whether the member is there is enough.
   */
  readonly outputs?: JsonType | 'absent';
}

/** One event as received. `payload` is kept only for `eval.*` events (the suite reads no other). */
export interface ObservedEvent {
  readonly sequence: unknown;
  readonly type: unknown;
  readonly runId: unknown;
  readonly payload?: unknown;
  /** Absent in observations recorded before the wire rules; those are then not judged. */
  readonly envelope?: ObservedEnvelope;
}

/** One answer of the long-poll cursor, without its events. */
export interface ObservedPage {
  readonly afterSequence: number | null;
  readonly lastSequence: unknown;
  readonly isTerminal: unknown;
  readonly eventCount: number;
  /** The page's members but `events`, `lastSequence` and `isTerminal`, as sent. */
  readonly members?: { readonly [member: string]: unknown };
}

/** Which cursor a replay re-read the finished log from, and so what it must return. */
export type ReplayCursor = 'mid-log' | 'last-sequence' | 'past-end';

/** An event of a replay, by its identity only: enough to compare with the first read. */
export interface ReplayedEvent {
  readonly sequence?: unknown;
  readonly eventId?: unknown;
  readonly type?: unknown;
}

/**
 * One re-read of the finished log from a cursor the first read gave the suite (contract §6), so
 * the cursor is driven whatever the host's speed: a fast host answers the first read in one page
 * and would otherwise never be sent an afterSequence.
 */
export interface ObservedReplay {
  readonly cursor: ReplayCursor;
  readonly afterSequence: number;
  /** The replay's pages, without members (the first read's pages carry those). */
  readonly pages: readonly ObservedPage[];
  readonly events: readonly ReplayedEvent[];
  /** Set when the host answered a replay poll with something other than a page. */
  readonly refusal?: string;
}

/** A request of the drive, named by what it asks for; `discovery` is the one read before it. */
export type ObservedCall = 'discovery' | 'create' | 'events' | 'status' | 'summary';

/** A body as received: its JSON, or why there is none the suite kept. */
export type ObservedBody =
  | { readonly json: unknown }
  | { readonly notJson: string }
  /** Larger than the suite keeps of an error body; its size in bytes. */
  | { readonly bytes: number };

/** Error answers (status 400 or above) of one call and status, the first few kept whole. */
export interface ObservedErrorKind {
  readonly call: ObservedCall;
  readonly status: number;
  /** How many answers of this kind the drive saw. */
  readonly count: number;
  readonly samples: readonly ObservedBody[];
}

/** The `OpenWOP-Version` header of a call's responses: one value (null: absent) and how often. */
export interface ObservedVersion {
  readonly call: ObservedCall;
  readonly value: string | null;
  readonly count: number;
}

/** A bounded tally: the kinds kept, and how many answers fell outside them. */
export interface Tally<T> {
  readonly kinds: readonly T[];
  readonly omitted: number;
}

export interface RunObservation {
  readonly runId: string;
  readonly evalSuiteRef: string;
  readonly agentId: string;
  readonly pages: readonly ObservedPage[];
  readonly events: readonly ObservedEvent[];
  /** `status` of `GET /runs/{runId}` once the log said it was terminal. */
  readonly runStatus: unknown;
  /** The parsed body of `GET /runs/{runId}/eval-summary`. */
  readonly summary: unknown;
  // The wire record (contract §1, §6). Optional so that an observation recorded without it
  // (an older report) still recomputes; the wire rules then judge nothing of it.
  /** The parsed 201 body of `POST /runs`. */
  readonly created?: unknown;
  readonly errors?: Tally<ObservedErrorKind>;
  readonly versions?: Tally<ObservedVersion>;
  /**
   * The re-reads of the finished log through the cursor, in the order made. Absent in an
   * observation recorded before replays, which then recomputes as it was judged; empty when the
   * first read held no sequence to resume from.
   */
  readonly replays?: readonly ObservedReplay[];
  /**
   * The rules the record is judged under, so a report an earlier release wrote still replays as
   * it was judged. Absent on such a record (1); from 2 a missing eval.started trials block is a
   * failed events.started-trials on a suite that has one, and the summary's task order is judged.
   */
  readonly recordVersion?: number;
}

/** The record version the observer writes (RunObservation.recordVersion). */
export const OBSERVATION_RECORD_VERSION = 2;

/** Whether a record is judged by the rules of its version `v` or later. */
export function recordedSince(
  observation: { readonly recordVersion?: unknown },
  v: number,
): boolean {
  const recorded = observation.recordVersion;
  return typeof recorded === 'number' && recorded >= v;
}

/**
 * What driving one run produced. `observed` goes to the witness; `host-fault` is the host
 * answering and being wrong in a way that ends observation (executed-fail); `unobserved` is the
 * suite or the network failing to see (blocked). The split is the "whose fact is it?" rule.
 */
export type DriveResult =
  | { readonly kind: 'observed'; readonly observation: RunObservation }
  | { readonly kind: 'host-fault'; readonly stage: DriveStage; readonly reason: string }
  | { readonly kind: 'unobserved'; readonly stage: DriveStage; readonly reason: string };

export type DriveStage = 'discovery' | 'create' | 'events' | 'status' | 'summary';

// ---------------------------------------------------------------------------------------------
// Judgement

export type Severity = 'MUST' | 'SHOULD';

/** One checked rule. `rule` is a stable slug, the same whether it held or not. */
export interface Finding {
  readonly rule: string;
  readonly ok: boolean;
  readonly severity: Severity;
  /** The clause the rule comes from, e.g. `RFC 0246 §B`, `RFC 0081 §F`, `contract §7`. */
  readonly ref: string;
  /** States the rule and what was seen, with numbers. */
  readonly message: string;
  /**
   * On a failed finding that only follows from an earlier failure: the rule id of that root
   * cause, as the rule catalogue declares it (lib/witness/consequences.ts). Such findings are
   * listed after every other, so a reader meets the cause first.
   */
  readonly consequenceOf?: string;
}

export type Disposition =
  'executed-pass' | 'executed-fail' | 'inapplicable' | 'skipped' | 'blocked';

/** Names usable in OPENWOP_OPTED_OUT_PROFILES (contract §9). */
export const GATE_NAMES = [
  'agents.evalSuite',
  'agents.evalSuite.trajectory',
  'agents.evalSuite.trials',
] as const;
export type GateName = (typeof GATE_NAMES)[number];

/**
 * The one opt-out that is not a capability: a host that cannot seed the generated pack its
 * requirement set names declares so, and a strict run then neither drives the pack nor withholds
 * its certification for it; the certification lists the claim as it lists a gate.
 */
export const PACK_OPT_OUT = 'generated-pack';

/** Every name OPENWOP_OPTED_OUT_PROFILES takes: the capability gates, then the pack. */
export const OPT_OUT_NAMES = [...GATE_NAMES, PACK_OPT_OUT] as const;
export type OptOutName = (typeof OPT_OUT_NAMES)[number];

/** A catalogue rule that judged nothing (or too little) on a run, and why, in a host's terms. */
export interface UnexercisedRule {
  readonly rule: string;
  readonly reason: string;
}

/** The decision of one leg on one run; plain JSON, carried in the test's `meta`. */
export interface LegOutcome {
  readonly requirement: string;
  readonly disposition: Disposition;
  /** Findings judged on host data; zero means nothing was observed, which is never a pass. */
  readonly assertions: number;
  /** Present for every disposition but `executed-pass`. */
  readonly reason?: string;
  readonly findings: readonly Finding[];
  /**
   * The rules that applied to the leg's run and judged nothing, in catalogue order; present on
   * every leg that judged an observation (empty when every rule was exercised).
   */
  readonly unexercised?: readonly UnexercisedRule[];
  readonly fixtureId?: string;
  readonly observation?: RunObservation;
  /** The generated requirement's cases, each with what it observed, so `verify` can recompute. */
  readonly generated?: GeneratedRecord;
  /**
   * The generated cases a report's page opens, as the pack's decider decided them, by place
   * (lib/decide/pack-tally.ts decidedCases). Held in memory for the page; never written.
   */
  readonly decidedCases?: DecidedCases;
  readonly durationMs: number;
}

/** A failing generated case the page opens: the fixture it drove and its decision's findings. */
export interface DecidedCase {
  readonly fixture: Fixture;
  readonly findings: readonly Finding[];
}

/**
 * Decided cases by their 0-based place: among the recorded cases of an inline pack, in the pack
 * for a streamed one (where a run of one case records it on the sidecar's first line).
 */
export type DecidedCases = ReadonlyMap<number, DecidedCase>;

/** The decided cases of each row that holds a pack, by requirement id. */
export type DecidedCasesByRow = ReadonlyMap<string, DecidedCases>;

/**
 * One generated fixture as the pack's requirement decided it. The observation is what a verifier
 * recomputes from; a case without one records its findings (a host fault) or only its reason.
 */
export interface GeneratedCaseRecord {
  readonly fixtureId: string;
  /** The file `openwop-eval-gate fixtures --out DIR --generate N --seed S` writes it to in DIR. */
  readonly file: string;
  readonly disposition: Disposition;
  readonly reason?: string;
  /** Present only on a case without an observation that still judged something. */
  readonly findings?: readonly Finding[];
  readonly observation?: RunObservation;
  /**
   * SHA-256 of the canonical JSON of the fixture the case drove; recorded with the pack's
   * generator version, so a verifier that draws another fixture there knows it is another referee.
   */
  readonly fixtureDigest?: string;
}

/** The generated pack a run drove, its cases inline: what reports before the sidecar wrote. */
export interface InlineGeneratedRecord {
  readonly seed: number;
  readonly count: number;
  /** The generator version that drew the pack; absent in reports written before it was recorded. */
  readonly generator?: number;
  /** `run --case ID`: the one case of the pack this run drove alone; `cases` holds it alone. */
  readonly case?: string;
  readonly cases: readonly GeneratedCaseRecord[];
}

/** The gzip-compressed JSON Lines file beside the report, one GeneratedCaseRecord a line. */
export interface GeneratedSidecar {
  /** The file's name in the report's folder. */
  readonly file: string;
  /** Lowercase hex SHA-256 of the compressed bytes: the signature covers the report, hence them. */
  readonly sha256: string;
  readonly bytes: number;
}

/** The smallest case in which a MUST rule failed: fewest tasks, then trials, then calls. */
export interface SmallestFailingCase {
  readonly rule: string;
  readonly fixtureId: string;
  readonly tasks: number;
  readonly trials: number;
  readonly calls: number;
  /** The one command that drives this case alone. */
  readonly command: string;
}

/**
 * The generated pack a run drove, its cases streamed to a sidecar as each finished: the seed and
 * size replay every fixture, the sidecar holds what each case observed, and the tally and smallest
 * failing cases are what a reader needs without opening it.
 */
export interface StreamedGeneratedRecord {
  readonly seed: number;
  readonly count: number;
  /** The generator version that drew the pack; absent in reports written before it was recorded. */
  readonly generator?: number;
  /** `run --case ID`: the one case of the pack this run drove alone; the sidecar holds it alone. */
  readonly case?: string;
  readonly sidecar: GeneratedSidecar;
  readonly tally: Readonly<Record<Disposition, number>>;
  /** One per MUST rule that failed in the pack, by rule. */
  readonly smallest: readonly SmallestFailingCase[];
}

export type GeneratedRecord = InlineGeneratedRecord | StreamedGeneratedRecord;

// ---------------------------------------------------------------------------------------------
// Host checks: what the suite asks of the host once per run, apart from any leg (contract §1, §2,
// §6). They are SHOULD findings: they never decide an RFC 0246 leg.

/**
 * A refusal the suite provokes once per run, by the name of its object in the probe table
 * (lib/host-probes.ts), which says what each one sends and what its answer is judged by.
 */
export type { ProbeName };

/**
 * One provoked request as the suite saw it: the answer, or why there is none. `unobserved` is the
 * suite or the network failing to see; `not-made` is a probe the suite had no grounds to send;
 * `inapplicable` is a probe whose precondition a host fact rules out (the host advertises the
 * capability whose absence the probe asks about), so its rule has nothing to ask of that host.
 */
export type ObservedProbe =
  | {
      readonly probe: ProbeName;
      readonly outcome: 'answered';
      /** Method and path, e.g. `GET /runs/reference%2Fprobe-.../eval-summary`. */
      readonly request: string;
      readonly status: number;
      readonly body: ObservedBody;
    }
  | {
      readonly probe: ProbeName;
      readonly outcome: 'unobserved';
      readonly request: string;
      readonly reason: string;
    }
  | { readonly probe: ProbeName; readonly outcome: 'not-made'; readonly reason: string }
  | { readonly probe: ProbeName; readonly outcome: 'inapplicable'; readonly reason: string };

/**
 * A host-check rule that a host fact puts out of reach, and that fact: neither a pass nor a gap
 * in what the suite observed.
 */
export interface InapplicableRule {
  readonly rule: string;
  readonly reason: string;
}

/** The suite-level host checks of one run: what was observed, and what was judged from it. */
export interface HostChecks {
  readonly probes: readonly ObservedProbe[];
  readonly findings: readonly Finding[];
  readonly unexercised: readonly UnexercisedRule[];
  readonly inapplicable: readonly InapplicableRule[];
}
