// A loopback HTTP server whose every answer the test scripts. It records each request it saw, so
// a test can assert what the client sent (headers, path, query) as well as what it did with the
// answer. `sendJson` sends exactly what it is given; `sendV2` and `sendErrorEnvelope` answer the
// way a published OpenWOP v2 host does (the version header, the error envelope). Listens on 127.0.0.1:0;
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

/** Answers with a JSON body and exactly the headers given: no version header unless asked. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Answers as a published v2 host does: the JSON body with `OpenWOP-Version: 2.0`. */
export function sendV2(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, V2_HEADERS);
}

/** The v2 error envelope `{error, message}` with the registered code, as v2 answers. */
export function sendErrorEnvelope(
  response: ServerResponse,
  status: number,
  error: string,
  message: string,
): void {
  sendV2(response, status, { error, message });
}
