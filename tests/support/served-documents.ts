// Every document a host served, captured at the HTTP layer and held against the published v2
// structures docs/upstream.md lists. Two recorders feed one list of exchanges: a HostClient
// wrapper, so a whole conformance run can be recorded as the suite drives it, and a fetch-like
// function for requests the suite never makes (a bad version header, a missing key). Then each
// exchange is classified by route and status into the documents it carries, and each document is
// validated against its schema. Host-agnostic: any host double can be recorded this way.

import type { HostClient, HostResponse, RequestOptions } from '../../lib/observe/host-client.ts';
import { formatSchemaErrors, validate, type SchemaName } from '../../lib/schemas.ts';

/** One answer as it came off the wire. */
export interface Exchange {
  readonly method: string;
  /** The path relative to the base URL, without the query. */
  readonly path: string;
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * The structures one conformance run, with its refusals probed, must have served: checked, so
 * that "every document holds" is never said of a run that served none of some kind.
 */
export const SERVED_BY_EVERY_RUN = [
  'discovery',
  'create-run-answer',
  'poll-response',
  'run-event',
  'eval-started',
  'eval-scored',
  'eval-completed',
  'agent-invocation-started',
  'agent-tool-called',
  'agent-tool-returned',
  'agent-decided',
  'agent-invocation-completed',
  'run-completed',
  'eval-summary',
  'error-envelope',
] as const satisfies readonly SchemaName[];

/** The schema (a `validate` name) each recorded document must hold against. */
export type ServedSchema = (typeof SERVED_BY_EVERY_RUN)[number];

export interface ServedDocument {
  readonly schema: ServedSchema;
  /** Where it was served, e.g. `GET /runs/x/events/poll 200 events[3].payload`. */
  readonly where: string;
  readonly document: unknown;
}

/** The payload schema of each v2 event type the suite holds one for (the root `_typeIndex` of run-event-payloads). */
const PAYLOAD_SCHEMA: Readonly<Record<string, ServedSchema>> = {
  'eval.started': 'eval-started',
  'eval.scored': 'eval-scored',
  'eval.completed': 'eval-completed',
  'agent.invocation-started': 'agent-invocation-started',
  'agent.tool-called': 'agent-tool-called',
  'agent.tool-returned': 'agent-tool-returned',
  'agent.decided': 'agent-decided',
  'agent.invocation-completed': 'agent-invocation-completed',
  'run.completed': 'run-completed',
};

/** Records every answer `inner` gets; requests and verdicts are untouched. */
export function recordingClient(inner: HostClient, exchanges: Exchange[]): HostClient {
  const keep = (method: string, path: string, answer: HostResponse): HostResponse => {
    exchanges.push({
      method,
      path,
      status: answer.status,
      headers: answer.headers,
      text: answer.text,
    });
    return answer;
  };
  return {
    baseUrl: inner.baseUrl,
    get: async (path: string, options?: RequestOptions) =>
      keep('GET', path, await inner.get(path, options)),
    post: async (path: string, body: unknown, options?: RequestOptions) =>
      keep('POST', path, await inner.post(path, body, options)),
    close: () => inner.close(),
  };
}

/** A fetch-like function on `baseUrl` that records every answer into `exchanges`. */
export function recordingFetch(
  baseUrl: string,
  exchanges: Exchange[],
): (path: string, init?: RequestInit) => Promise<Exchange> {
  return async (path, init = {}) => {
    const res = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(5000), ...init });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const exchange: Exchange = {
      method: init.method ?? 'GET',
      path: path.replace(/\?.*$/, ''),
      status: res.status,
      headers,
      text: await res.text(),
    };
    exchanges.push(exchange);
    return exchange;
  };
}

export interface Classified {
  readonly documents: readonly ServedDocument[];
  /** Answers that carry a document the published structures do not cover, with the reason. */
  readonly unclassified: readonly string[];
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function record(v: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Readonly<Record<string, unknown>>)
    : undefined;
}

/** Sorts each exchange into the documents it carries, by route and status. */
export function classifyServed(exchanges: readonly Exchange[]): Classified {
  const documents: ServedDocument[] = [];
  const unclassified: string[] = [];
  for (const x of exchanges) {
    const at = `${x.method} ${x.path} ${x.status}`;
    const body = parsed(x.text);
    if (!body.ok) {
      unclassified.push(`${at}: the body is not JSON`);
      continue;
    }
    const add = (schema: ServedSchema, document: unknown, part = ''): void => {
      documents.push({ schema, where: part === '' ? at : `${at} ${part}`, document });
    };
    if (x.status >= 400) {
      add('error-envelope', body.value);
    } else if (x.path === '/.well-known/openwop' && x.status === 200) {
      add('discovery', body.value);
    } else if (x.method === 'POST' && x.path === '/runs' && x.status === 201) {
      add('create-run-answer', body.value);
    } else if (/^\/runs\/[^/]+\/events\/poll$/.test(x.path) && x.status === 200) {
      add('poll-response', body.value);
      const events = record(body.value)?.['events'];
      for (const [i, event] of (Array.isArray(events) ? events : []).entries()) {
        add('run-event', event, `events[${i}]`);
        const type = record(event)?.['type'];
        const schema = typeof type === 'string' ? PAYLOAD_SCHEMA[type] : undefined;
        if (schema === undefined) {
          unclassified.push(`${at} events[${i}]: no payload schema for type ${String(type)}`);
        } else {
          add(schema, record(event)?.['payload'], `events[${i}].payload`);
        }
      }
    } else if (/^\/runs\/[^/]+\/eval-summary$/.test(x.path) && x.status === 200) {
      add('eval-summary', body.value);
    } else if (!/^\/runs\/[^/]+$/.test(x.path)) {
      // The run snapshot (GET /runs/{id}) has no published schema to hold it against.
      unclassified.push(`${at}: not a route the published structures cover`);
    }
  }
  return { documents, unclassified };
}

export interface ServedCheck {
  /** Documents validated, by schema. */
  readonly counts: Readonly<Partial<Record<ServedSchema, number>>>;
  /** One line per document that does not hold, or answer without a 2.x version header. */
  readonly problems: readonly string[];
  readonly unclassified: readonly string[];
}

/** Validates every served document against its published structure, and every version header. */
export function checkServedDocuments(exchanges: readonly Exchange[]): ServedCheck {
  const { documents, unclassified } = classifyServed(exchanges);
  const counts: Partial<Record<ServedSchema, number>> = {};
  const problems: string[] = [];
  for (const d of documents) {
    counts[d.schema] = (counts[d.schema] ?? 0) + 1;
    const errors = validate(d.schema, d.document);
    if (errors.length > 0) problems.push(`${d.where}: ${formatSchemaErrors(errors)}`);
  }
  for (const x of exchanges) {
    const version = x.headers['openwop-version'];
    if (version === undefined || !/^2\.(0|[1-9][0-9]*)$/.test(version)) {
      problems.push(`${x.method} ${x.path} ${x.status}: OpenWOP-Version is ${String(version)}`);
    }
  }
  return { counts, problems, unclassified };
}
