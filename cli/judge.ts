// `openwop-eval-gate judge SUMMARY.json --fixture ID|FILE.json [--events EVENTS.json]`: judge a
// recorded EvalSummary offline, as a deployment gate might before it trusts `passed`.
//
// With a fixture (an id from fixtures/, or a fixture file) the witness grades the run from the
// script and judges the summary exactly as a leg does. With a bare AgentEvalSuite file only the
// summary's own arithmetic can be judged (lib/witness/suite-judge.ts). Rules about the live run (its
// status, the poll cursor, event run ids) are never judged offline; rules about the event log
// are judged only when the events are given.

import { Refusal } from '../lib/refusal.ts';
import {
  EVENT_LOG_RULES,
  judgeEvalRun,
  judgeSummaryAgainstSuite,
  LIVE_RUN_RULES,
  SUMMARY_READING_RULES,
} from '../lib/eval-gate-witness.ts';
import { fixtureProblem, type UncheckedFixture } from '../lib/fixtures.ts';
import { readFixtureRef } from './fixture-set.ts';
import { decide } from '../lib/decide/decide.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import { readJsonInput } from './read-json.ts';
import type {
  AgentEvalSuite,
  Disposition,
  Finding,
  Fixture,
  RunObservation,
} from '../lib/types.ts';

/** An input that cannot be judged at all; the CLI prints its message and exits 2. */
export class JudgeInputError extends Refusal {
  override readonly name: string = 'JudgeInputError';
}

export interface Judgement {
  /** Causes first, each failure that follows from another marked and after them. */
  readonly findings: readonly Finding[];
  readonly disposition: Disposition;
  /** Why the disposition is not a pass, as a leg's reason says it. */
  readonly reason?: string;
  /** Rule ids that were not judged, each with why. */
  readonly notJudged: readonly string[];
}

/** What a recorded summary and event list cannot show (the rule catalogue says which rules). */
const LIVE_RULES: ReadonlySet<string> = new Set(LIVE_RUN_RULES);
const EVENT_RULES: ReadonlySet<string> = new Set(EVENT_LOG_RULES);
const READS_SUMMARY: ReadonlySet<string> = new Set(SUMMARY_READING_RULES);

export interface JudgeOptions {
  readonly summaryPath: string;
  /** A fixture id, or the path of a fixture or suite JSON file. */
  readonly fixture: string;
  readonly eventsPath?: string;
}

export async function judgeRecorded(options: JudgeOptions): Promise<Judgement> {
  const summary = await readJson(options.summaryPath, 'summary');
  const events =
    options.eventsPath === undefined
      ? undefined
      : eventsOf(await readJson(options.eventsPath, 'events'));
  return judgeSummary(summary, events, options.fixture);
}

/** Judges a summary (and its events, when given) already read, against a fixture reference. */
export async function judgeSummary(
  summary: unknown,
  events: readonly RunObservation['events'][number][] | undefined,
  fixtureRef: string,
): Promise<Judgement> {
  const basis = await loadBasis(fixtureRef);
  let findings: readonly Finding[];
  const notJudged: string[] = [];
  if (basis.kind === 'fixture') {
    const observation: RunObservation = {
      runId: '',
      evalSuiteRef: `${basis.fixture.suite.suiteId}@${basis.fixture.suite.version}`,
      agentId: basis.fixture.agentId,
      pages: [],
      events: events ?? [],
      runStatus: undefined,
      summary,
    };
    const skip = new Set([...LIVE_RULES, ...(events === undefined ? EVENT_RULES : [])]);
    findings = gradeWith(basis.fixture, observation).filter((f) => !skip.has(f.rule));
    notJudged.push(...[...LIVE_RULES].map((id) => `${id}: needs the live run`));
    if (events === undefined)
      notJudged.push(...[...EVENT_RULES].map((id) => `${id}: needs --events`));
  } else {
    findings = judgeSummaryAgainstSuite(basis.suite, summary, events);
    notJudged.push(
      'trajectory matching per trial: a bare suite has no script, so only the summary arithmetic and the eval.scored flags are judged',
    );
    if (events === undefined) {
      notJudged.push(
        'task.gated-score-value (exact), task.score-unchanged, task.passed for rules all and any: need --events',
      );
    }
  }
  const decision = decide(findings);
  return {
    findings: isRecord(summary) ? decision.findings : followingTheSchema(decision.findings),
    disposition: decision.disposition,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    notJudged,
  };
}

/**
 * A summary that is no JSON object (`null`, an array, a string) fails `summary.schema`, and every
 * other rule that reads it can only say the host reported nothing: those failures follow from the
 * schema's, and are marked and listed after it. The judge holds the summary itself, so it knows
 * this where the catalogue's declared causes (lib/witness/rules.ts) cannot.
 */
function followingTheSchema(findings: readonly Finding[]): Finding[] {
  if (!findings.some((f) => f.rule === 'summary.schema' && !f.ok)) return [...findings];
  const marked = findings.map((f): Finding =>
    !f.ok && f.consequenceOf === undefined && READS_SUMMARY.has(f.rule)
      ? { ...f, consequenceOf: 'summary.schema' }
      : f,
  );
  return [
    ...marked.filter((f) => f.consequenceOf === undefined),
    ...marked.filter((f) => f.consequenceOf !== undefined),
  ];
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The witness throws only on a fixture it cannot grade, which here is the caller's input. */
function gradeWith(fixture: Fixture, observation: RunObservation): readonly Finding[] {
  try {
    return judgeEvalRun(fixture, observation);
  } catch (error) {
    throw new JudgeInputError(`the fixture cannot be graded: ${(error as Error).message}`);
  }
}

type Basis =
  | { readonly kind: 'fixture'; readonly fixture: Fixture }
  | { readonly kind: 'suite'; readonly suite: AgentEvalSuite };

async function loadBasis(ref: string): Promise<Basis> {
  // A shipped id, or a generated case's id (generated-sS-nNNNN), replayed from its seed as
  // `expect` and `run --generate` make it.
  if (!ref.endsWith('.json')) return { kind: 'fixture', fixture: await readFixtureRef(ref) };
  const doc = await readJson(ref, 'fixture or suite');
  const asFixture = validate('fixture', doc);
  if (asFixture.length === 0) {
    const problem = fixtureProblem(doc as UncheckedFixture);
    if (problem !== undefined) throw new JudgeInputError(`--fixture ${ref}: ${problem}`);
    return { kind: 'fixture', fixture: doc as Fixture };
  }
  const asSuite = validate('agent-eval-suite', doc);
  if (asSuite.length === 0) return { kind: 'suite', suite: doc as AgentEvalSuite };
  const looksLikeFixture = typeof doc === 'object' && doc !== null && 'script' in doc;
  const errors = formatSchemaErrors(looksLikeFixture ? asFixture : asSuite, 1);
  throw new JudgeInputError(
    `--fixture ${ref} is neither a fixture nor an AgentEvalSuite (${errors})`,
  );
}

/** An event list: an array of events, or a poll page `{events: [...]}`. */
function eventsOf(doc: unknown): readonly RunObservation['events'][number][] {
  const list = Array.isArray(doc) ? doc : (doc as { events?: unknown } | null)?.events;
  if (!Array.isArray(list)) {
    throw new JudgeInputError(
      '--events must hold an array of events or a poll page with an events array',
    );
  }
  return list.map((e: unknown) => {
    const r = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    return { sequence: r.sequence, type: r.type, runId: r.runId, payload: r.payload };
  });
}

function readJson(path: string, what: string): Promise<unknown> {
  return readJsonInput(path, what, (message) => new JudgeInputError(message));
}
