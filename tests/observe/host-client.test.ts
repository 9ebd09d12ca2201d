// The host client against a scripted loopback server: what it sends, what it returns, and how
// each way of getting no answer becomes a TransportError with a stable code and a clean message.

import { describe, expect, it } from 'vitest';
import { TransportError, transportCodeOf } from '../../lib/observe/errors.ts';
import { createHostClient, encodeRunId } from '../../lib/observe/host-client.ts';
import type { HostClient } from '../../lib/observe/host-client.ts';
import type { Handler, ScriptedServer } from '../support/scripted-server.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';
import { withScriptedClient } from '../support/scripted-client.ts';

const KEY = 'sk-test-host-client-secret';

function withHost(
  handler: Handler,
  test: (client: HostClient, server: ScriptedServer) => Promise<void>,
  limits: { requestTimeoutMs?: number; maxBodyBytes?: number } = {},
): Promise<void> {
  return withScriptedClient(handler, test, {
    apiKey: KEY,
    requestTimeoutMs: limits.requestTimeoutMs ?? 2_000,
    ...(limits.maxBodyBytes === undefined ? {} : { maxBodyBytes: limits.maxBodyBytes }),
  });
}

async function transportError(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error('expected a TransportError');
}

describe('createHostClient', () => {
  it('sends the version, accept and bearer headers and returns the parsed answer', async () => {
    await withHost(
      (_req, res) => sendJson(res, 201, { runId: 'r1' }, { 'x-trace': 'abc' }),
      async (client, server) => {
        const answer = await client.post('/runs', { mode: 'eval' }, { query: { a: 1, b: 'x y' } });
        expect(answer.status).toBe(201);
        expect(answer.json).toEqual({ runId: 'r1' });
        expect(answer.jsonError).toBeUndefined();
        expect(answer.headers['x-trace']).toBe('abc');
        const [seen] = server.requests;
        expect(seen?.method).toBe('POST');
        expect(seen?.path).toBe('/runs');
        expect(seen?.query.get('b')).toBe('x y');
        expect(seen?.headers['openwop-version']).toBe('2.0');
        expect(seen?.headers.accept).toBe('application/json');
        expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(seen?.headers['content-type']).toBe('application/json');
        expect(JSON.parse(seen?.body ?? '')).toEqual({ mode: 'eval' });
      },
    );
  });

  it('reads discovery without the bearer key', async () => {
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        await client.get('/.well-known/openwop', { auth: false });
        expect(server.requests[0]?.headers.authorization).toBeUndefined();
        expect(server.requests[0]?.headers['openwop-version']).toBe('2.0');
      },
    );
  });

  it('keeps the base URL path as a prefix', async () => {
    const server = await startScriptedServer((_req, res) => sendJson(res, 200, {}));
    const client = createHostClient({
      baseUrl: `${server.url}/tenant/api`,
      requestTimeoutMs: 2_000,
      maxBodyBytes: 1024,
    });
    try {
      await client.get('/runs/x');
      expect(server.requests[0]?.path).toBe('/tenant/api/runs/x');
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('returns a body that is not JSON as text with jsonError set', async () => {
    await withHost(
      (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('not json'),
      async (client) => {
        const answer = await client.get('/x');
        expect(answer.text).toBe('not json');
        expect(answer.json).toBeUndefined();
        expect(answer.jsonError).toMatch(/JSON/);
      },
    );
  });

  it('rejects a body nested 65 deep and parses one nested 64 deep', async () => {
    const nested = (depth: number): string =>
      `{"x-deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    await withHost(
      (req, res) => {
        const text = nested(Number(req.path.slice(1)));
        res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      },
      async (client) => {
        const deep = await client.get('/65');
        expect(deep.json).toBeUndefined();
        expect(deep.jsonError).toBe('JSON nested deeper than 64 levels');
        const allowed = await client.get('/64');
        expect(allowed.jsonError).toBeUndefined();
        expect(allowed.json).toEqual(JSON.parse(nested(64)));
      },
    );
  });

  it('counts no bracket inside a string, escaped quotes included, towards the depth', async () => {
    const text = JSON.stringify({ note: `a\\"${'['.repeat(200)}` });
    await withHost(
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(text),
      async (client) => {
        const answer = await client.get('/x');
        expect(answer.jsonError).toBeUndefined();
        expect(answer.json).toEqual(JSON.parse(text));
      },
    );
  });

  it('removes the key a host echoes deep inside an error message, so no fragment survives', async () => {
    const message = `${'m'.repeat(250)}${KEY} was not accepted`;
    await withHost(
      (_req, res) => sendJson(res, 401, { error: { code: 'unauthorized', message } }),
      async (client) => {
        const answer = await client.get('/runs/r1');
        expect(message.indexOf(KEY)).toBe(250);
        const fragments = [KEY, KEY.slice(0, 8), KEY.slice(-8)];
        for (const fragment of fragments) {
          expect(answer.text).not.toContain(fragment);
          expect(JSON.stringify(answer.json)).not.toContain(fragment);
        }
        expect(answer.json).toEqual({
          error: { code: 'unauthorized', message: `${'m'.repeat(250)}[redacted] was not accepted` },
        });
      },
    );
  });

  it('removes the key from the header values that echo it, raw or percent-encoded, and leaves the others', async () => {
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    await withHost(
      (_req, res) =>
        res
          .writeHead(401, {
            'www-authenticate': `Bearer realm="x", error="${KEY} was refused"`,
            'x-echo': `/login?key=${encoded}`,
            'x-trace': 'abc',
          })
          .end(),
      async (client) => {
        const { headers } = await client.get('/runs/r1');
        expect(headers['www-authenticate']).toBe(
          'Bearer realm="x", error="[redacted] was refused"',
        );
        expect(headers['x-echo']).toBe('/login?key=[redacted]');
        expect(headers['x-trace']).toBe('abc');
      },
    );
  });

  it('does not follow a redirect, so the key never reaches the redirect target', async () => {
    const elsewhere = await startScriptedServer((_req, res) => sendJson(res, 200, {}));
    try {
      await withHost(
        (_req, res) => res.writeHead(302, { location: `${elsewhere.url}/steal` }).end(),
        async (client) => {
          const answer = await client.get('/runs/r1');
          expect(answer.status).toBe(302);
          expect(answer.headers.location).toBe(`${elsewhere.url}/steal`);
          expect(elsewhere.requests).toHaveLength(0);
        },
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('ends a silent host at the deadline with code timeout and a clean message', async () => {
    await withHost(
      () => undefined,
      async (client) => {
        const started = Date.now();
        const error = await transportError(
          client.get('/runs/r1/events/poll', {
            query: { afterSequence: 3, token: KEY },
            timeoutMs: 150,
          }),
        );
        expect(Date.now() - started).toBeLessThan(1_500);
        expect(error.code).toBe('timeout');
        expect(error.message).toBe('GET /runs/r1/events/poll: timed out after 150 ms');
        expect(error.message).not.toContain(KEY);
      },
    );
  });

  it('ends a body that drips forever at the deadline', async () => {
    await withHost(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"events": [');
        const drip = setInterval(() => res.write(' '), 20);
        res.on('close', () => clearInterval(drip));
      },
      async (client) => {
        const started = Date.now();
        const error = await transportError(client.get('/drip'));
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(error.code).toBe('timeout');
        expect(error.message).toBe('GET /drip: timed out after 300 ms');
      },
      { requestTimeoutMs: 300 },
    );
  });

  it('aborts a body over the limit, declared or streamed', async () => {
    const big = 'x'.repeat(2048);
    await withHost(
      (req, res) => {
        if (req.path === '/declared') {
          res.writeHead(200, { 'content-length': big.length }).end(big);
          return;
        }
        res.writeHead(200);
        res.write(big);
        res.end(big);
      },
      async (client) => {
        const declared = await transportError(client.get('/declared'));
        expect(declared.code).toBe('body-too-large');
        expect(declared.message).toBe(
          'GET /declared: answer body of 2048 bytes exceeds the 1000-byte limit',
        );
        const streamed = await transportError(client.get('/streamed'));
        expect(streamed.code).toBe('body-too-large');
        expect(streamed.message).toBe(
          'GET /streamed: answer body of more than 1000 bytes exceeds the 1000-byte limit',
        );
      },
      { maxBodyBytes: 1000 },
    );
  });

  it('reports a connection reset mid-body as connection-reset', async () => {
    await withHost(
      (_req, res) => {
        res.writeHead(200, { 'content-length': 1000 });
        res.write('{"partial":', () => res.socket?.resetAndDestroy());
      },
      async (client) => {
        const error = await transportError(client.get('/runs/r1', { query: { apiKey: KEY } }));
        expect(error.code).toBe('connection-reset');
        expect(error.message).toBe('GET /runs/r1: connection reset before the answer was complete');
      },
    );
  });

  it('reports a closed port as connection-refused', async () => {
    const server = await startScriptedServer(() => undefined);
    await server.close();
    const client = createHostClient({
      baseUrl: server.url,
      apiKey: KEY,
      requestTimeoutMs: 2_000,
      maxBodyBytes: 1024,
    });
    try {
      const error = await transportError(client.get('/.well-known/openwop'));
      expect(error.code).toBe('connection-refused');
      expect(error.message).toBe('GET /.well-known/openwop: connection refused');
    } finally {
      await client.close();
    }
  });

  it('fails a request in flight with code aborted when the client closes', async () => {
    await withHost(
      () => undefined,
      async (client) => {
        const pending = transportError(client.get('/hang'));
        await new Promise((r) => setTimeout(r, 50));
        await client.close();
        expect((await pending).code).toBe('aborted');
      },
    );
  });
});

describe('transportCodeOf', () => {
  it.each([
    [{ code: 'ENOTFOUND' }, 'dns'],
    [{ code: 'EAI_AGAIN' }, 'dns'],
    [{ code: 'ECONNREFUSED' }, 'connection-refused'],
    [{ cause: { code: 'ECONNRESET' } }, 'connection-reset'],
    [{ name: 'AbortError' }, 'aborted'],
    [
      { code: 'EPROTO', message: 'write EPROTO …:ssl3_get_record:wrong version number' },
      'tls-mismatch',
    ],
    [{ code: 'EPROTO', message: 'write EPROTO …:sslv3 alert handshake failure' }, 'tls-refused'],
    [{ code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' }, 'tls-refused'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 'tls-mismatch'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls-refused'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls-refused'],
    [{ code: 'HPE_INVALID_CONSTANT' }, 'not-http'],
    [new Error('boom'), 'other'],
  ])('maps %j to %s', (error, code) => {
    expect(transportCodeOf(error)).toBe(code);
  });
});

describe('encodeRunId', () => {
  it.each([
    ['plain-123', 'plain-123'],
    ['tenant/opaque', 'tenant%2Fopaque'],
    ['100%done', '100%25done'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['a/../b', 'a%2F..%2Fb'],
    ['q?x#y', 'q%3Fx%23y'],
    // A lone surrogate is written as the replacement character; a pair as its one code point.
    ['\uD800x', '%EF%BF%BDx'],
    ['x\uDC00', 'x%EF%BF%BD'],
    ['\uD83D\uDE00', '%F0%9F%98%80'],
    // A segment of dots alone is encoded, which a path could read as a step; other dots stay.
    ['...', '%2E%2E%2E'],
    ['a.', 'a.'],
    ['.a', '.a'],
  ])('encodes %j as one path segment %j', (runId, encoded) => {
    expect(encodeRunId(runId)).toBe(encoded);
  });

  it('a tenant-bound id reaches the host as one segment', async () => {
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        await client.get(`/runs/${encodeRunId('acme/../run 1')}/eval-summary`);
        expect(server.requests[0]?.rawUrl).toBe('/runs/acme%2F..%2Frun%201/eval-summary');
      },
    );
  });
});
