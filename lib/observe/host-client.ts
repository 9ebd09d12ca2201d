// The one module that talks HTTP to a host. It owns the base URL, the headers and the bearer key,
// a hard deadline per request, and the body limit. It judges nothing: any answer is returned as a
// HostResponse, and no answer is a TransportError (contract §1).

// Node's own HTTP client: it keeps connections alive, honours a host's keep-alive hint, follows no
// redirect and stops on an abort signal, which is all the suite asks. undici's package root would
// load its fetch, WebSocket, cookie and cache modules too: 0.13 s of every run's start on the
// 2-core machine, for nothing the suite calls (docs/benchmarks.md).
import type {
  Agent,
  ClientRequest,
  IncomingMessage,
  RequestOptions as NodeRequestOptions,
} from 'node:http';
import * as http from 'node:http';
import type { TransportErrorCode } from './errors.ts';
import {
  TransportError,
  describeTransportCode,
  describeTransportFailure,
  transportCodeOf,
} from './errors.ts';
import { scrubKeyAndToken } from '../secrets.ts';
import { keyAndTokens, secretScrubber } from '../secret-forms.ts';
import type { NearMissKind } from './near-miss-keys.ts';
import { nearMissKey } from './near-miss-keys.ts';

export interface HostClientOptions {
  /** Absolute http(s) URL without a trailing slash; may carry a path prefix. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly requestTimeoutMs: number;
  readonly maxBodyBytes: number;
}

export interface RequestOptions {
  readonly query?: Readonly<Record<string, string | number>>;
  /** Overrides the client's deadline for this request (headers and body together). */
  readonly timeoutMs?: number;
  /** False for discovery, which is read without credentials (contract §1). */
  readonly auth?: boolean;
  /**
   * A bearer token sent in place of the key, for the wrong-key probe. It is refused when it is
   * the key, so the probe can never send the key under another name.
   */
  readonly wrongBearer?: string;
  /**
   * Sends a token derived from the key in place of it (lib/observe/near-miss-keys.ts), for the
   * near-miss probes: the client owns the key, so only it makes the token, and it scrubs the token
   * from the answer as it scrubs the key. Refused when no key is configured.
   */
  readonly nearMissKey?: NearMissKind;
}

export interface HostResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed body, or undefined when the body is not JSON (then `jsonError` says why). */
  readonly json: unknown;
  readonly jsonError?: string;
}

export interface HostClient {
  readonly baseUrl: string;
  get(path: string, options?: RequestOptions): Promise<HostResponse>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<HostResponse>;
  /** Ends every connection; a request still in flight fails with code 'aborted'. */
  close(): Promise<void>;
}

/** Why the client ended a request before its answer was whole. */
type Ending = 'timeout' | 'aborted';

/** The request function and keep-alive agent of `http:` or, loaded only when asked, `https:`. */
interface Transport {
  readonly request: typeof http.request;
  readonly agent: Agent;
}

async function transportFor(protocol: string): Promise<Transport> {
  if (protocol === 'https:') {
    const https = await import('node:https');
    return { request: https.request, agent: new https.Agent({ keepAlive: true }) };
  }
  return { request: http.request, agent: new http.Agent({ keepAlive: true }) };
}

/**
 * One keep-alive agent per base URL. A 3xx comes back as an answer, never followed, so the bearer
 * key never reaches another origin.
 */
export function createHostClient(options: HostClientOptions): HostClient {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  // A bracketed IPv6 literal is the URL's spelling; the socket wants the bare address.
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const transport = transportFor(base.protocol);
  /** How to end each request in flight, so that close() can end them. */
  const inFlight = new Set<(why: Ending) => void>();
  let closed: Promise<void> | undefined;
  const scrubForms = secretScrubber(keyAndTokens(options.apiKey));

  async function send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    request: RequestOptions,
  ): Promise<HostResponse> {
    if (!path.startsWith('/')) throw new Error(`host paths start with "/"; got "${path}"`);
    const timeoutMs = request.timeoutMs ?? options.requestTimeoutMs;
    const sentInstead = tokenInstead(request, options.apiKey);
    // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined, so a GET sends no body either way
    const payload = method === 'POST' ? JSON.stringify(body) : undefined;
    const headers = requestHeaders(request, options.apiKey, sentInstead, payload);

    const failure = (code: TransportErrorCode, detail?: string): TransportError =>
      new TransportError(code, method, path, detail ?? describeTransportCode(code));
    if (closed !== undefined) throw failure('aborted');
    // The request is ended by destroying it, which fails its answer and its body with it. An
    // AbortSignal would do the same at the cost of listeners on the request, its socket and its
    // body, added and removed on every request: a tenth of the matrix's CPU.
    let ended: Ending | undefined;
    let outgoing: ClientRequest | undefined;
    const end = (why: Ending): void => {
      ended ??= why;
      outgoing?.destroy();
    };
    inFlight.add(end);
    const timer = setTimeout(() => end('timeout'), timeoutMs);

    try {
      const { request: ask, agent } = await transport;
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        if (ended !== undefined) {
          reject(new Error('ended before it was sent'));
          return;
        }
        const target: NodeRequestOptions = {
          protocol: base.protocol,
          hostname,
          port: base.port,
          method,
          path: `${prefix}${path}${queryString(request.query)}`,
          headers,
          agent,
        };
        outgoing = ask(target, resolve);
        outgoing.on('error', reject);
        outgoing.end(payload);
      });
      const raw = await boundedBody(answer, options.maxBodyBytes, (bytes) =>
        failure(
          'body-too-large',
          `answer body of ${bytes} bytes exceeds the ${options.maxBodyBytes}-byte limit`,
        ),
      );
      // A host may echo the token it was sent; one derived from the key is as secret as the key,
      // and either may come back escaped or encoded (lib/secret-forms.ts).
      const scrub = (t: string): string =>
        scrubForms(scrubKeyAndToken(t, options.apiKey, sentInstead));
      const text = scrub(raw);
      return {
        status: answer.statusCode ?? 0,
        headers: flatten(answer.headers, scrub),
        text,
        ...parseJson(text),
      };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      if (ended === 'timeout') throw failure('timeout', `timed out after ${timeoutMs} ms`);
      if (ended === 'aborted') throw failure('aborted');
      const code = transportCodeOf(error);
      throw failure(code, describeTransportFailure(error, code));
    } finally {
      clearTimeout(timer);
      inFlight.delete(end);
    }
  }

  async function close(): Promise<void> {
    for (const end of inFlight) end('aborted');
    (await transport).agent.destroy();
  }

  return {
    baseUrl: options.baseUrl,
    get: (path, request = {}) => send('GET', path, undefined, request),
    post: (path, body, request = {}) => send('POST', path, body, request),
    close: () => (closed ??= close()),
  };
}

/** The headers of one request: the version, the credentials it is to carry, and the body's type. */
function requestHeaders(
  request: RequestOptions,
  apiKey: string | undefined,
  sentInstead: string | undefined,
  payload: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'openwop-version': '2.0',
    accept: 'application/json',
  };
  if (sentInstead !== undefined) {
    headers.authorization = `Bearer ${sentInstead}`;
  } else if (request.auth !== false && apiKey !== undefined) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return headers;
}

/**
 * An answer's body as text, read only up to `limit` bytes: a declared length over it is refused
 * before a byte is read, and a body that grows past it is cut off where it does.
 */
async function boundedBody(
  answer: IncomingMessage,
  limit: number,
  tooLarge: (bytes: string) => TransportError,
): Promise<string> {
  const declared = Number(answer.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // An unread body holds its socket; destroying it ends the connection, which no later
    // request then reuses.
    answer.destroy();
    throw tooLarge(String(declared));
  }
  // Read by its events rather than an async iterator, which costs a promise and a stream
  // cleanup per chunk and per request.
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      finish();
    };
    answer.on('data', (bytes: Buffer) => {
      size += bytes.length;
      if (size <= limit) {
        chunks.push(bytes);
        return;
      }
      // Destroying the body ends the connection, which no later request then reuses.
      answer.destroy();
      settle(() => reject(tooLarge(`more than ${limit}`)));
    });
    answer.on('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
    answer.on('error', (error) => settle(() => reject(error)));
    // A body closed short without an error is cut off all the same.
    answer.on('close', () =>
      settle(() =>
        reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
      ),
    );
  });
}

/**
 * Percent-encodes a run id as exactly one path segment: `/` and `%` are escaped, and an id that
 * is only dots is escaped too, because a `.` or `..` segment is resolved away by URL handling.
 * Lone surrogates (not encodable as UTF-8) become U+FFFD rather than throwing.
 */
export function encodeRunId(runId: string): string {
  const wellFormed = runId.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
  const encoded = encodeURIComponent(wellFormed);
  return /^\.+$/.test(encoded) ? encoded.replace(/\./g, '%2E') : encoded;
}

function queryString(query: RequestOptions['query']): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Header values scrubbed like the body: this is where host text enters the suite. The values are
 * scrubbed one by one only when their lines together hold something to scrub: a form of a secret
 * in one value is in the lines too, and almost no answer's headers hold one.
 */
function flatten(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  scrub: (text: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const lines = Object.values(out).join('\n');
  if (scrub(lines) === lines) return out;
  for (const [name, value] of Object.entries(out)) out[name] = scrub(value);
  return out;
}

/**
 * The bearer token a probe sends in place of the key, or undefined to send the key (or none). A
 * wrong token that is the key itself is refused, so a probe can never send the key under another
 * name; a near-miss token is made here from the key, which never leaves this module.
 */
function tokenInstead(request: RequestOptions, apiKey: string | undefined): string | undefined {
  if (request.wrongBearer !== undefined) {
    if (request.wrongBearer === apiKey) {
      throw new Error('the wrong-key probe was handed the key itself');
    }
    return request.wrongBearer;
  }
  if (request.nearMissKey === undefined) return undefined;
  if (apiKey === undefined) throw new Error('a near-miss probe needs a configured key');
  return nearMissKey(request.nearMissKey, apiKey);
}

/**
 * Deepest array/object nesting a body may have. Every consumer of a parsed body (schemas, the
 * witness, report redaction, canonical JSON) walks it recursively, so a body
 * nested thousands deep would hang or overflow them; no document of the contract needs a tenth of
 * this.
 */
export const MAX_JSON_DEPTH = 64;

/** True when brackets outside strings nest deeper than `limit`; one pass, no parsing. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

function parseJson(text: string): { json: unknown; jsonError?: string } {
  if (text.trim() === '') return { json: undefined, jsonError: 'empty body' };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { json: undefined, jsonError: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    // JSON.parse of a string throws only a SyntaxError, whose message quotes the body, which may
    // carry content; a fixed phrase does not.
    return { json: undefined, jsonError: 'not valid JSON' };
  }
}
