// The host client at its edges, each against a scripted loopback server: the tokens a probe sends
// instead of the key, a request the client refuses before it sends, the exact bounds of a body,
// an answer's headers and its body's readings, and the path of a base URL with a prefix.

import { describe, expect, it } from 'vitest';
import { TransportError } from '../../lib/observe/errors.ts';
import type { HostClient } from '../../lib/observe/host-client.ts';
import { nearMissKey } from '../../lib/observe/near-miss-keys.ts';
import type { Handler, ScriptedServer } from '../support/scripted-server.ts';
import { sendJson } from '../support/scripted-server.ts';
import { withScriptedClient } from '../support/scripted-client.ts';

const KEY = 'sk-edges-host-client-secret';

function withHost(
  handler: Handler,
  test: (client: HostClient, server: ScriptedServer) => Promise<void>,
  options: { keyless?: boolean; maxBodyBytes?: number; prefix?: string } = {},
): Promise<void> {
  return withScriptedClient(handler, test, {
    ...(options.keyless === true ? {} : { apiKey: KEY }),
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    requestTimeoutMs: 5_000,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected the request to fail');
}

/** Echoes the bearer token the request carried, in the body and in a header. */
const echoBearer: Handler = (req, res) => {
  const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  sendJson(res, 401, { seen: token }, { 'x-seen': token });
};

describe('the tokens a probe sends instead of the key', () => {
  it('sends a wrong bearer in place of the key, even on a request without auth, and scrubs its echo', async () => {
    const wrong = 'sk-not-the-key-at-all';
    await withHost(echoBearer, async (client, server) => {
      const answer = await client.get('/runs', { wrongBearer: wrong, auth: false });
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${wrong}`);
      expect(answer.json).toEqual({ seen: '[redacted]' });
      expect(answer.headers['x-seen']).toBe('[redacted]');
    });
  });

  it('refuses a wrong bearer that is the key itself, sending nothing', async () => {
    await withHost(echoBearer, async (client, server) => {
      const error = await failureOf(client.get('/runs', { wrongBearer: KEY }));
      expect(error).not.toBeInstanceOf(TransportError);
      expect(error.message).toBe('the wrong-key probe was handed the key itself');
      expect(server.requests).toHaveLength(0);
    });
  });

  it('sends the near-miss token made from the key, and scrubs its echo as it scrubs the key', async () => {
    const token = nearMissKey('extended', KEY);
    await withHost(echoBearer, async (client, server) => {
      const answer = await client.get('/runs', { nearMissKey: 'extended' });
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
      expect(answer.text).not.toContain(KEY);
      expect(answer.json).toEqual({ seen: '[redacted]' });
    });
  });

  it('refuses a near-miss probe when no key is configured, sending nothing', async () => {
    await withHost(
      echoBearer,
      async (client, server) => {
        const error = await failureOf(client.get('/runs', { nearMissKey: 'truncated' }));
        expect(error.message).toBe('a near-miss probe needs a configured key');
        expect(server.requests).toHaveLength(0);
      },
      { keyless: true },
    );
  });
});

describe('requests the client refuses before sending', () => {
  it('a path without a leading slash', async () => {
    await withHost(echoBearer, async (client, server) => {
      const error = await failureOf(client.get('runs'));
      expect(error.message).toBe('host paths start with "/"; got "runs"');
      expect(server.requests).toHaveLength(0);
    });
  });

  it('a request made after close, which fails as aborted with the method and path', async () => {
    await withHost(echoBearer, async (client, server) => {
      await client.close();
      const error = await failureOf(client.post('/runs', {}));
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).code).toBe('aborted');
      expect(error.message).toMatch(/^POST \/runs: /);
      expect(server.requests).toHaveLength(0);
    });
  });

  it('a request whose client closes before it was sent: aborted, and the host never sees it', async () => {
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        const pending = failureOf(client.get('/runs'));
        const closing = client.close();
        const error = await pending;
        await closing;
        expect((error as TransportError).code).toBe('aborted');
        expect(server.requests).toHaveLength(0);
      },
    );
  });

  it('close is made once: a second close returns the first close', async () => {
    await withHost(echoBearer, async (client) => {
      const first = client.close();
      expect(client.close()).toBe(first);
      await first;
    });
  });
});

describe('the body limit at its edge', () => {
  it('takes a body of exactly the limit, declared or streamed, and refuses one byte more', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(90) });
    const limit = Buffer.byteLength(body);
    await withHost(
      (req, res) => {
        const text = req.path.endsWith('/over') ? `${body} ` : body;
        if (req.path.startsWith('/declared')) {
          res.writeHead(200, { 'content-length': Buffer.byteLength(text) }).end(text);
          return;
        }
        // Two writes and no length: the body arrives in chunks, counted as they come.
        res.writeHead(200);
        res.write(text.slice(0, 10));
        res.end(text.slice(10));
      },
      async (client) => {
        expect((await client.get('/declared')).text).toBe(body);
        expect((await client.get('/streamed')).text).toBe(body);
        const declared = await failureOf(client.get('/declared/over'));
        expect(declared.message).toBe(
          `GET /declared/over: answer body of ${limit + 1} bytes exceeds the ${limit}-byte limit`,
        );
        const streamed = await failureOf(client.get('/streamed/over'));
        expect(streamed.message).toBe(
          `GET /streamed/over: answer body of more than ${limit} bytes exceeds the ${limit}-byte limit`,
        );
      },
      { maxBodyBytes: limit },
    );
  });

  it('reads a body that arrives in many chunks whole, in order', async () => {
    const parts = Array.from({ length: 20 }, (_, i) => `"${String(i).padStart(3, '0')}"`);
    await withHost(
      (_req, res) => {
        res.writeHead(200);
        res.write('[');
        parts.forEach((p, i) => res.write(i === 0 ? p : `,${p}`));
        res.end(']');
      },
      async (client) => {
        const answer = await client.get('/chunks');
        expect(answer.json).toEqual(parts.map((p) => JSON.parse(p) as string));
      },
    );
  });
});

describe('what an answer carries', () => {
  it('the status, header names in lower case, and a repeated header joined with ", "', async () => {
    await withHost(
      (_req, res) => {
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.setHeader('X-Trace', 'abc');
        res.writeHead(418).end('{}');
      },
      async (client) => {
        const answer = await client.get('/teapot');
        expect(answer.status).toBe(418);
        expect(answer.headers['set-cookie']).toBe('a=1, b=2');
        expect(answer.headers['x-trace']).toBe('abc');
        expect(Object.keys(answer.headers).every((k) => k === k.toLowerCase())).toBe(true);
      },
    );
  });

  it.each<[string, string]>([
    ['', 'empty body'],
    ['  \n', 'empty body'],
    ['{"a":', 'not valid JSON'],
  ])('reads the body %j as no JSON, saying why: %s', async (text, why) => {
    await withHost(
      (_req, res) => res.writeHead(200).end(text),
      async (client) => {
        const answer = await client.get('/x');
        expect(answer.text).toBe(text);
        expect(answer).toHaveProperty('json', undefined);
        expect(answer.jsonError).toBe(why);
      },
    );
  });

  it('parses JSON whose strings end in an escaped backslash, counting the brackets after them', async () => {
    // `"\\"` closes its string: the brackets after it count, so 65 of them are too deep.
    const deep = `{"a":"x\\\\","b":${'['.repeat(65)}${']'.repeat(65)}}`;
    const fine = `{"a":"x\\\\","b":${'['.repeat(3)}${']'.repeat(3)}}`;
    await withHost(
      (req, res) => res.writeHead(200).end(req.path === '/deep' ? deep : fine),
      async (client) => {
        expect((await client.get('/deep')).jsonError).toBe('JSON nested deeper than 64 levels');
        const answer = await client.get('/fine');
        expect(answer.jsonError).toBeUndefined();
        expect(answer.json).toEqual({ a: 'x\\', b: [[[]]] });
      },
    );
  });

  it('counts objects as well as arrays towards the depth', async () => {
    const deep = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`;
    await withHost(
      (_req, res) => res.writeHead(200).end(deep),
      async (client) => {
        expect((await client.get('/deep')).jsonError).toBe('JSON nested deeper than 64 levels');
      },
    );
  });
});

describe('what a request carries', () => {
  it('a POST declares its length in bytes, not characters; a GET sends no body headers', async () => {
    const body = { note: 'é✓' };
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        await client.post('/runs', body);
        await client.get('/runs');
        const [post, get] = server.requests;
        expect(post?.headers['content-length']).toBe(
          String(Buffer.byteLength(JSON.stringify(body))),
        );
        expect(post?.body).toBe(JSON.stringify(body));
        expect(get?.headers['content-type']).toBeUndefined();
        expect(get?.body).toBe('');
      },
    );
  });

  it('an empty query adds no "?", and a prefix ending in slashes loses them', async () => {
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        await client.get('/runs', { query: {} });
        expect(server.requests[0]?.rawUrl).toBe('/tenant/runs');
      },
      { prefix: '/tenant//' },
    );
  });

  it('no key configured: no authorization header at all', async () => {
    await withHost(
      (_req, res) => sendJson(res, 200, {}),
      async (client, server) => {
        await client.get('/runs');
        expect(server.requests[0]?.headers.authorization).toBeUndefined();
        expect(server.requests[0]?.headers['openwop-version']).toBe('2.0');
      },
      { keyless: true },
    );
  });
});
