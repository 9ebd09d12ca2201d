// The wire rules (contract §1, §6): the 201 answer, each poll page, each event envelope, each
// error body and each response's OpenWOP-Version header, judged against the published v2
// structures. They are SHOULD rules: a host that grades correctly and says it in a dialect is
// told so in the report, and its RFC 0246 legs still stand on their MUST findings. An observation
// without a wire record (one recorded before these rules) yields no wire finding at all.

import type {
  Finding,
  JsonType,
  ObservedBody,
  ObservedCall,
  ObservedErrorKind,
  ObservedEvent,
  ObservedPage,
  ObservedVersion,
  RunObservation,
} from '../types.ts';
import { validate } from '../schemas.ts';
import { allOf, describe, eventAt, finding, isRecord, member, plural } from './finding.ts';
import { schemaProblems } from './schema-words.ts';

/** How each call reads in a message. */
const CALLS: Readonly<Record<ObservedCall, string>> = {
  discovery: 'GET /.well-known/openwop',
  create: 'POST /runs',
  events: 'GET /runs/{runId}/events/poll',
  status: 'GET /runs/{runId}',
  summary: 'GET /runs/{runId}/eval-summary',
};

/**
 * The registered status of each code the suite can meet (`openwop/openwop spec/v2/errors.json`,
 * verified row by row). `capability_not_provided` is 422 there; RFC 0081 §B and the v1 openapi
 * say 501, which the registry does not keep, so a 501 is a SHOULD warning that says where 501
 * came from (STATUS_ORIGINS).
 */
const REGISTERED_STATUS: ReadonlyMap<string, readonly number[]> = new Map([
  ['validation_error', [400]],
  ['unauthenticated', [401]],
  ['forbidden', [403]],
  ['not_found', [404]],
  ['protocol_version_unsupported', [406]],
  ['run_state_conflict', [409]],
  ['run_terminal', [409]],
  ['capability_not_provided', [422]],
  ['rate_limited', [429]],
]);

/** Statuses a code was once given elsewhere, and where, so a warning can say why it is stale. */
const STATUS_ORIGINS: ReadonlyMap<string, string> = new Map([
  ['capability_not_provided 501', "501 is RFC 0081's v1 status; the v2 registry keeps 422"],
]);

/** `2.<minor>`: the major the legs speak, any minor (contract §1). */
const VERSION_HEADER = /^2\.(0|[1-9][0-9]*)$/;

export function judgeWire(observation: RunObservation): Finding[] {
  const out: Finding[] = [];
  if (Object.hasOwn(observation, 'created')) out.push(judgeCreated(observation.created));
  // Stryker disable next-line ArrayDeclaration: a string in place of a page has no members and no afterSequence, so it reads as no page
  const pages = Array.isArray(observation.pages) ? observation.pages : [];
  const page = judgePages(pages);
  if (page !== undefined) out.push(page);
  // Stryker disable next-line ArrayDeclaration: a string in place of an event has no envelope, so it reads as no event
  const events = Array.isArray(observation.events) ? observation.events : [];
  const envelope = judgeEnvelopes(events, pages);
  if (envelope !== undefined) out.push(envelope);
  for (const kind of observation.errors?.kinds ?? []) {
    const judged = judgeErrorKind(kind);
    if (judged !== undefined) out.push(judged);
  }
  out.push(...judgeVersions(observation.versions?.kinds ?? [], observation.versions?.omitted ?? 0));
  return out;
}

function judgeCreated(created: unknown): Finding {
  const errors = validate('create-run-answer', created);
  return finding(
    'wire.create-answer',
    errors.length === 0,
    errors.length === 0
      ? 'the 201 answer of POST /runs is {runId, status, eventsUrl, statusUrl?}'
      : `the 201 answer of POST /runs SHOULD be {runId, status, eventsUrl, statusUrl?}; ${schemaProblems(errors, created)}`,
  );
}

/** The page as the host sent it, its events left out: they are judged one by one. */
function pageDocument(page: ObservedPage): Record<string, unknown> {
  const doc: Record<string, unknown> = { ...page.members, events: [] };
  // Stryker disable next-line ConditionalExpression: a member set to undefined is absent to the schema, which checks members against undefined
  if (page.lastSequence !== undefined) doc.lastSequence = page.lastSequence;
  // Stryker disable next-line ConditionalExpression: a member set to undefined is absent to the schema, which checks members against undefined
  if (page.isTerminal !== undefined) doc.isTerminal = page.isTerminal;
  return doc;
}

function judgePages(pages: readonly ObservedPage[]): Finding | undefined {
  const recorded = pages.filter((p) => isRecord(member(p, 'members')));
  if (recorded.length === 0) return undefined;
  let failed = 0;
  // Stryker disable next-line StringLiteral: overwritten by the first failure before any message reads it
  let first = '';
  pages.forEach((page, i) => {
    if (!isRecord(member(page, 'members'))) return;
    const doc = pageDocument(page);
    const errors = validate('poll-response', doc);
    if (errors.length === 0) return;
    if (failed === 0) first = `page ${i + 1}: ${schemaProblems(errors, doc)}`;
    failed += 1;
  });
  const total = plural(recorded.length, 'page');
  return finding(
    'wire.poll-page',
    failed === 0,
    failed === 0
      ? `${allOf(recorded.length, 'page', { one: 'is', many: 'are' })} exactly {runId, events, lastSequence, status, isTerminal}`
      : `every poll page SHOULD be exactly {runId, events, lastSequence, status, isTerminal}; ${failed} of ${total} ${failed === 1 ? 'is' : 'are'} not (${first})`,
  );
}

/** Any value of a JSON type: the envelope schema constrains the payload's presence, not its shape. */
const PLACEHOLDER: Readonly<Record<JsonType, unknown>> = {
  object: {},
  // Stryker disable next-line ArrayDeclaration: the schema reads only the type of a payload, and rejects any array as an envelope
  array: [],
  // Stryker disable next-line StringLiteral: as above, for a string
  string: '',
  number: 0,
  // Stryker disable next-line BooleanLiteral: as above, for a boolean
  boolean: false,
  null: null,
};

/** The envelope as the host sent it, with a stand-in payload of the same JSON type. */
function envelopeDocument(event: ObservedEvent): unknown {
  // An observation may be a hand-edited report: anything not shaped as recorded is not judged.
  const envelope = member(event, 'envelope') as ObservedEvent['envelope'];
  if (
    !isRecord(envelope) ||
    typeof envelope.json !== 'string' ||
    !Object.hasOwn(PLACEHOLDER, envelope.json)
  )
    return undefined;
  if (envelope.json !== 'object') return PLACEHOLDER[envelope.json];
  const doc = ownCopy(envelope.members);
  // Stryker disable next-line ConditionalExpression: a member set to undefined is absent to the schema, which checks members against undefined
  if (event.sequence !== undefined) doc.sequence = event.sequence;
  // Stryker disable next-line ConditionalExpression: a member set to undefined is absent to the schema, which checks members against undefined
  if (event.type !== undefined) doc.type = event.type;
  // Stryker disable next-line ConditionalExpression: a member set to undefined is absent to the schema, which checks members against undefined
  if (event.runId !== undefined) doc.runId = event.runId;
  // The recorded type, never the observation's own payload: that member exists for eval.* events
  // alone, and one the host left out is undefined in the run but absent once the report is JSON.
  const payload = envelope.payload;
  if (payload !== undefined && Object.hasOwn(PLACEHOLDER, payload))
    doc.payload = PLACEHOLDER[payload as JsonType];
  return doc;
}

/**
 * The own enumerable members of `value` in their order, as a spread copies them, into an object
 * that takes further members cheaply: V8 gives a spread copy of a parsed object a shape that turns
 * slow as soon as a member is added, which over a long log was most of the witness's time. A
 * member named `__proto__` is made an own member, as a spread makes it, never the prototype.
 */
function ownCopy(value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  // As a spread reads it: null and undefined have no members, a string its characters.
  const record = Object(value) as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record)) {
    // Stryker disable next-line ConditionalExpression: defining every member makes the same copy; assigning is the cheap way
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: record[key], enumerable: true });
    else copy[key] = record[key];
  }
  return copy;
}

function judgeEnvelopes(
  events: readonly ObservedEvent[],
  pages: readonly ObservedPage[],
): Finding | undefined {
  const problems: string[] = [];
  let recorded = 0;
  let failed = 0;
  events.forEach((event, i) => {
    const doc = envelopeDocument(event);
    if (doc === undefined) return;
    recorded += 1;
    // Each envelope validated on its own: its payload is a stand-in, so a validation is cheaper
    // than any key a verdict could be shared under.
    const errors = validate('run-event', doc);
    if (errors.length === 0) return;
    if (failed === 0) problems.push(`${eventAt(event, i)}: ${schemaProblems(errors, doc)}`);
    failed += 1;
  });
  if (recorded === 0) return undefined;
  // Only a log read from its start can show where it starts.
  const first = member(events[0], 'sequence');
  const fromStart = member(pages[0], 'afterSequence') === null;
  if (fromStart && first !== 0) {
    problems.push(`the log starts at sequence ${describe(first)}, not 0`);
  }
  const total = plural(recorded, 'event');
  const counted =
    failed === 0 ? '' : `${failed} of ${total} ${failed === 1 ? 'does' : 'do'} not validate; `;
  return finding(
    'wire.event-envelope',
    problems.length === 0,
    problems.length === 0
      ? `${recorded === 1 ? 'the 1 event is a closed RunEventDoc envelope' : `all ${total} are closed RunEventDoc envelopes`}${fromStart ? ', the log starting at sequence 0' : ''}`
      : `every event SHOULD be a closed RunEventDoc {eventId, runId, type, payload, timestamp, sequence, schemaVersion, ...} with sequence from 0; ${counted}${problems.join('; ')}`,
  );
}

/** What one error body breaks, or undefined when it holds; oversized bodies are not judged. */
function errorBodyProblem(body: ObservedBody, status: number): string | null | undefined {
  if ('bytes' in body) return undefined;
  if ('notJson' in body) return `the body is not JSON (${body.notJson})`;
  const errors = validate('error-envelope', body.json);
  if (errors.length > 0) return schemaProblems(errors, body.json);
  const code = member(body.json, 'error');
  // Stryker disable next-line ConditionalExpression: the schema has already made the code a string
  const statuses = typeof code === 'string' ? REGISTERED_STATUS.get(code) : undefined;
  if (statuses !== undefined && !statuses.includes(status)) {
    const origin = STATUS_ORIGINS.get(`${String(code)} ${status}`);
    return `error ${JSON.stringify(code)} is registered at ${statuses.join(' or ')} in openwop/openwop spec/v2/errors.json, answered with ${status}${origin === undefined ? '' : `: ${origin}`}`;
  }
  return null;
}

function judgeErrorKind(kind: ObservedErrorKind): Finding | undefined {
  const at = `${CALLS[kind.call] ?? String(kind.call)} answered ${kind.status}`;
  let judged = 0;
  let bad = 0;
  // Stryker disable next-line StringLiteral: overwritten by the first failure before any message reads it
  let first = '';
  for (const sample of kind.samples) {
    const problem = errorBodyProblem(sample, kind.status);
    if (problem === undefined) continue;
    judged += 1;
    if (problem === null) continue;
    if (bad === 0) first = problem;
    bad += 1;
  }
  if (judged === 0) return undefined;
  const seen = `${plural(kind.count, 'time')}, ${judged} judged`;
  return finding(
    'wire.error-body',
    bad === 0,
    bad === 0
      ? `${at} (${seen}): each body is the v2 error envelope with its registered status`
      : `${at} (${seen}): the body SHOULD be the v2 error envelope {error: "<registered code>", message, details?} at the code's registered status; ${bad} of ${judged} ${bad === 1 ? 'is' : 'are'} not (${first})`,
  );
}

/**
 * One error answer outside the drive (a provoked refusal), judged as `wire.error-body` judges a
 * drive's; undefined for an answer below 400 or a body too large to have been kept.
 */
export function judgeErrorAnswer(
  at: string,
  status: number,
  body: ObservedBody,
): Finding | undefined {
  if (status < 400) return undefined;
  const problem = errorBodyProblem(body, status);
  if (problem === undefined) return undefined;
  return finding(
    'wire.error-body',
    problem === null,
    problem === null
      ? `${at} answered ${status}: the body is the v2 error envelope with its registered status`
      : `${at} answered ${status}: the body SHOULD be the v2 error envelope {error: "<registered code>", message, details?} at the code's registered status; it is not (${problem})`,
  );
}

function judgeVersions(kinds: readonly ObservedVersion[], omitted: number): Finding[] {
  const calls = [...new Set(kinds.map((k) => k.call))];
  return calls.map((call) => {
    const own = kinds.filter((k) => k.call === call);
    const total = own.reduce((n, k) => n + k.count, 0);
    const bad = own.filter((k) => k.value === null || !VERSION_HEADER.test(k.value));
    const badCount = bad.reduce((n, k) => n + k.count, 0);
    const seen = bad
      .map((k) => `${k.value === null ? 'none' : JSON.stringify(k.value)} ×${k.count}`)
      .join(', ');
    const untold = omitted > 0 ? `; ${plural(omitted, 'further response')} not recorded` : '';
    return finding(
      'wire.version-header',
      badCount === 0,
      badCount === 0
        ? `${CALLS[call] ?? String(call)}: ${allOf(total, 'response', { one: 'carries', many: 'carry' })} OpenWOP-Version 2.<minor>${untold}`
        : `${CALLS[call] ?? String(call)}: every response SHOULD carry OpenWOP-Version: 2.<minor>; ${badCount} of ${total} carry ${seen}${untold}`,
    );
  });
}
