// A loopback HTTP server whose every answer the test scripts. It records each request it saw, so
// a test can assert what the client sent (headers, path, query) as well as what it did with the
// answer. Its helpers answer the way a published OpenWOP v2 host does (the version header, the
// error envelope), so a test departs from v2 only where it says so. Listens on 127.0.0.1:0;
// `close` ends every open connection so teardown never waits.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The request target exactly as received. */
  readonly rawUrl: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** May return anything; a returned promise that rejects destroys the connection. */
export type Handler = (request: RecordedRequest, response: ServerResponse) => unknown;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(handler: Handler): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const cut = rawUrl.indexOf('?');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: cut === -1 ? rawUrl : rawUrl.slice(0, cut),
        query: new URLSearchParams(cut === -1 ? '' : rawUrl.slice(cut + 1)),
        rawUrl,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** What every OpenWOP v2 response carries (path-manifest: the response header is required). */
export const V2_HEADERS: Readonly<Record<string, string>> = { 'openwop-version': '2.0' };

/**
 * Answers with a JSON body, the v2 version header and any extra headers; a test that needs the
 * header absent passes `{ 'openwop-version': '' }`, which drops it.
 */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  const sent: Record<string, string | number> = {
    ...V2_HEADERS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  };
  for (const [name, value] of Object.entries(sent)) if (value === '') delete sent[name];
  response.writeHead(status, sent);
  response.end(text);
}

/** The v2 error envelope `{error, message, details?}` with the registered code. */
export function sendErrorEnvelope(
  response: ServerResponse,
  status: number,
  error: string,
  message: string,
  details?: Readonly<Record<string, unknown>>,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(
    response,
    status,
    { error, message, ...(details === undefined ? {} : { details }) },
    headers,
  );
}
