// The host client reaches undici through two internal modules rather than the package root
// (lib/observe/undici-pool.ts). These tests fail if an undici upgrade moves either path or changes
// what they export, before any leg could.

import { describe, expect, it } from 'vitest';
import { Pool as RootPool } from 'undici';
import { Pool, requestOn } from '../../lib/observe/undici-pool.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';

describe("undici's pool and request, loaded without the package root", () => {
  it('the Pool is the one the package root exports', () => {
    expect(Pool).toBe(RootPool);
  });

  it('requestOn sends a request through a pool and answers status, headers and body', async () => {
    const server = await startScriptedServer((req, res) =>
      sendJson(res, 201, { method: req.method, path: req.path }),
    );
    const pool = new Pool(server.url);
    try {
      const answer = await requestOn(pool, { method: 'GET', path: '/probe' });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['content-type']).toMatch(/json/);
      expect(await answer.body.json()).toEqual({ method: 'GET', path: '/probe' });
    } finally {
      await pool.destroy();
      await server.close();
    }
  });
});
