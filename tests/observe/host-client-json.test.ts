// How the host client bounds a body's nesting before it parses it: depth is counted down as well
// as up, so a wide body of shallow siblings parses however many brackets it holds.

import { describe, expect, it } from 'vitest';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { startScriptedServer } from '../support/scripted-server.ts';

/** The client's reading of `text` served as a 200 answer. */
async function readingOf(text: string): Promise<{ json: unknown; jsonError?: string }> {
  const server = await startScriptedServer((_req, res) => res.writeHead(200).end(text));
  const client = createHostClient({
    baseUrl: server.url,
    requestTimeoutMs: 5_000,
    maxBodyBytes: 64 * 1024,
  });
  try {
    const { json, jsonError } = await client.get('/wide');
    return jsonError === undefined ? { json } : { json, jsonError };
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the depth bound on a wide body', () => {
  it.each<[string, string]>([
    ['arrays', '[]'],
    ['objects', '{}'],
  ])('parses 100 sibling empty %s, two levels deep', async (_kind, sibling) => {
    const text = `[${Array.from({ length: 100 }, () => sibling).join(',')}]`;
    expect(await readingOf(text)).toEqual({ json: JSON.parse(text) as unknown });
  });
});
