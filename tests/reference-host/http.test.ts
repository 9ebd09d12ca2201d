// The reference host's transport: long-poll, bearer auth, error envelopes on bad requests,
// independent concurrent runs, fixture seeding and the command line.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SLOW_STEP_MS,
  startReferenceHost,
  type ReferenceHost,
} from '../../reference-host/index.ts';
import { call, drive, runPath, runRequest, type Page } from './harness.ts';

const KEY = 'test-key';
const SUITE_RUN = JSON.stringify(runRequest('conformance-eval-trajectory-gate'));

let host: ReferenceHost | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const c of cleanups.splice(0)) c();
});

async function create(url: string, apiKey?: string): Promise<string> {
  const opts = apiKey === undefined ? { body: SUITE_RUN } : { body: SUITE_RUN, apiKey };
  const created = await call(url, 'POST', '/runs', opts);
  expect(created.status).toBe(201);
  return (created.body as { runId: string }).runId;
}

/** Polls with timeout 0 until the log holds `count` events; returns the last sequence seen. */
async function drainTo(url: string, runId: string, count: number): Promise<number> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const page = (await call(url, 'GET', runPath(runId, '/events/poll?timeout=0'))).body as Page;
    if (page.events.length >= count) return page.lastSequence;
    if (Date.now() > deadline) throw new Error(`log stayed at ${page.events.length} events`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// The suite-gated fixture's log is 19 events; its last eval.scored is the 16th.
const SCORED_DONE = 16;

describe('long-poll', () => {
  it('holds a poll with nothing new and wakes it when the next event is appended', async () => {
    host = await startReferenceHost({ runDelayMs: 300 });
    const runId = await create(host.url);
    const last = await drainTo(host.url, runId, SCORED_DONE);
    const began = Date.now();
    const page = (
      await call(host.url, 'GET', runPath(runId, `/events/poll?afterSequence=${last}&timeout=10`))
    ).body as Page;
    const held = Date.now() - began;
    expect(page.events[0]?.type).toBe('eval.completed');
    expect(held).toBeGreaterThanOrEqual(100);
    expect(held).toBeLessThan(2000);
  });

  it('answers an empty, non-terminal page when the timeout passes first', async () => {
    host = await startReferenceHost({ defect: 'run-never-ends' });
    const runId = await create(host.url);
    const last = await drainTo(host.url, runId, SCORED_DONE);
    const began = Date.now();
    const page = (
      await call(host.url, 'GET', runPath(runId, `/events/poll?afterSequence=${last}&timeout=0.2`))
    ).body as Page;
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
    expect(page).toMatchObject({
      events: [],
      lastSequence: last,
      isTerminal: false,
      status: 'running',
    });
  });

  it('releases a held poll with an answer when the host closes', async () => {
    const h = await startReferenceHost({ defect: 'run-never-ends' });
    host = h;
    const runId = await create(h.url);
    const last = await drainTo(h.url, runId, SCORED_DONE);
    const held = call(
      h.url,
      'GET',
      runPath(runId, `/events/poll?afterSequence=${last}&timeout=30`),
    );
    await new Promise((r) => setTimeout(r, 50));
    const began = Date.now();
    await h.close();
    const answer = await held;
    expect(Date.now() - began).toBeLessThan(1000);
    expect(answer.status).toBe(200);
    expect((answer.body as Page).events).toEqual([]);
  });
});

describe('pacing', () => {
  it('slow pauses before every trial and the end, so the log is read over several pages as it grows', async () => {
    host = await startReferenceHost({ pacing: 'slow' });
    const began = Date.now();
    const d = await drive(host.url, 'conformance-eval-trajectory-gate');
    expect(d.terminal).toBe(true);
    expect(d.summaryStatus).toBe(200);
    expect(d.events.map((e) => e.sequence)).toEqual(Array.from({ length: 19 }, (_, i) => i));
    // The first page is asked before the first trial ends, and the log comes in more than one.
    expect(d.pages[0]?.isTerminal).toBe(false);
    expect(d.pages.filter((p) => p.events.length > 0).length).toBeGreaterThan(1);
    // Two trials and the end: three steps.
    expect(Date.now() - began).toBeGreaterThanOrEqual(3 * SLOW_STEP_MS - 5);
  });

  it('instant (the default) answers a finished log in one page', async () => {
    host = await startReferenceHost();
    const runId = await create(host.url);
    await drainTo(host.url, runId, 19);
    const page = (await call(host.url, 'GET', runPath(runId, '/events/poll?timeout=0')))
      .body as Page;
    expect(page.events).toHaveLength(19);
    expect(page.isTerminal).toBe(true);
  });

  it('refuses a pacing it does not know', async () => {
    await expect(startReferenceHost({ pacing: 'fast' as unknown as 'slow' })).rejects.toThrow(
      'unknown pacing fast',
    );
  });
});

describe('auth and bad requests', () => {
  it('refuses every route but discovery without the bearer key, with a 401 envelope', async () => {
    host = await startReferenceHost({ apiKey: KEY });
    const runId = await create(host.url, KEY);
    expect((await call(host.url, 'GET', '/.well-known/openwop')).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/runs'],
      ['GET', runPath(runId)],
      ['GET', runPath(runId, '/events/poll')],
      ['GET', runPath(runId, '/eval-summary')],
    ] as const) {
      for (const apiKey of [undefined, 'wrong-key']) {
        const opts = {
          ...(apiKey === undefined ? {} : { apiKey }),
          ...(method === 'POST' ? { body: SUITE_RUN } : {}),
        };
        const answer = await call(host.url, method, path, opts);
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body).toEqual({
          error: 'unauthenticated',
          message: expect.stringMatching(/./),
        });
      }
    }
  });

  it('answers malformed requests with an error envelope and keeps serving', async () => {
    host = await startReferenceHost();
    const runId = await create(host.url);
    const cases: [string, string, string | undefined, number, string][] = [
      ['GET', '/nowhere', undefined, 404, 'not_found'],
      ['GET', '/runs/', undefined, 404, 'not_found'],
      ['DELETE', runPath(runId), undefined, 404, 'not_found'],
      ['POST', '/runs', '{not json', 400, 'validation_error'],
      ['POST', '/runs', '[]', 400, 'validation_error'],
      ['POST', '/runs', JSON.stringify({ mode: 'chat' }), 400, 'validation_error'],
      [
        'POST',
        '/runs',
        JSON.stringify({ ...runRequest('conformance-eval-trajectory-gate'), evalSuiteRef: 'x@1' }),
        404,
        'not_found',
      ],
      [
        'POST',
        '/runs',
        JSON.stringify({ ...runRequest('conformance-eval-trajectory-gate'), agentId: 'other' }),
        404,
        'not_found',
      ],
      ['POST', '/runs', JSON.stringify({ pad: 'x'.repeat(70_000) }), 413, 'payload_too_large'],
      ['GET', '/runs/no-such-run', undefined, 404, 'not_found'],
      ['GET', '/runs/%E0%A4%A/eval-summary', undefined, 400, 'validation_error'],
      ['GET', runPath(runId, '/events/poll?afterSequence=-1'), undefined, 400, 'validation_error'],
      ['GET', runPath(runId, '/events/poll?timeout=61'), undefined, 400, 'validation_error'],
      ['GET', '/runs/reference~2/eval-summary', undefined, 400, 'validation_error'],
      ['GET', '/runs/reference~zz', undefined, 400, 'validation_error'],
      ['GET', runPath(runId, '/events/poll?timeout=soon'), undefined, 400, 'validation_error'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const answer = await call(host.url, method, path, body === undefined ? {} : { body });
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.body, `${method} ${path}`).toEqual({
        error: code,
        message: expect.stringMatching(/./),
      });
      expect(answer.headers.get('openwop-version'), `${method} ${path}`).toBe('2.0');
    }
    expect((await drive(host.url, 'conformance-eval-trajectory-gate')).summaryStatus).toBe(200);
  });

  it('answers 409 for the summary of a run still running', async () => {
    host = await startReferenceHost({ runDelayMs: 500 });
    const runId = await create(host.url);
    const answer = await call(host.url, 'GET', runPath(runId, '/eval-summary'));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: 'run_state_conflict',
      message: expect.stringMatching(/./),
      details: { runStatus: 'running' },
    });
  });

  it('the plain host answers the summary of a finished run at once', async () => {
    host = await startReferenceHost();
    const runId = await create(host.url);
    await drainTo(host.url, runId, 19);
    const first = await call(host.url, 'GET', runPath(runId, '/eval-summary'));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ gatedAggregateScore: 0.5, passed: false });
  });

  it('the varied host answers the first summary read 409 while it finalises, then the summary', async () => {
    host = await startReferenceHost({ variant: 'varied' });
    const runId = await create(host.url);
    let after: number | undefined;
    const deadline = Date.now() + 5000;
    for (;;) {
      const cursor = after === undefined ? '' : `&afterSequence=${after}`;
      const query = `/events/poll?timeout=1${cursor}`;
      const page = (await call(host.url, 'GET', runPath(runId, query))).body as Page & {
        isTerminal: boolean;
      };
      after = page.events.at(-1)?.sequence ?? after;
      if (page.isTerminal) break;
      if (Date.now() > deadline) throw new Error('the varied log did not end within 5 s');
    }
    const first = await call(host.url, 'GET', runPath(runId, '/eval-summary'));
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({
      error: 'run_state_conflict',
      details: { runStatus: 'completed' },
    });
    const second = await call(host.url, 'GET', runPath(runId, '/eval-summary'));
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ gatedAggregateScore: 0.5, passed: false });
  });
});

describe('protocol version and run id paths', () => {
  it('answers a request naming an unlisted OpenWOP-Version 406, and one naming none at 2.0', async () => {
    host = await startReferenceHost();
    const runId = await create(host.url);
    for (const version of ['1.11', '3.0', 'two']) {
      const answer = await call(host.url, 'GET', runPath(runId), { version });
      expect(answer.status, version).toBe(406);
      expect(answer.body, version).toEqual({
        error: 'protocol_version_unsupported',
        message: expect.stringMatching(/./),
      });
    }
    const bare = await call(host.url, 'GET', runPath(runId), { version: null });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('openwop-version')).toBe('2.0');
    const discovery = await call(host.url, 'GET', '/.well-known/openwop', { version: '3.0' });
    expect(discovery.status).toBe(200);
  });

  it('finds a run by its id sent as %2F, as the ~2F projection, and by its bare opaque part', async () => {
    for (const variant of ['plain', 'varied'] as const) {
      const h = await startReferenceHost({ variant });
      try {
        const runId = await create(h.url);
        const [tenant, opaque] = runId.split('/') as [string, string];
        const projected = `${tenant.replace(':', '~3A')}~2F${opaque}`;
        for (const segment of [encodeURIComponent(runId), projected, opaque]) {
          const answer = await call(h.url, 'GET', `/runs/${segment}`);
          expect(answer.status, `${variant} ${segment}`).toBe(200);
          expect((answer.body as { runId: string }).runId).toBe(runId);
        }
      } finally {
        await h.close();
      }
    }
  });

  it('answers POST /runs 201 {runId, status, eventsUrl}, and eventsUrl serves the closed poll page', async () => {
    host = await startReferenceHost();
    const created = await call(host.url, 'POST', '/runs', { body: SUITE_RUN });
    expect(created.status).toBe(201);
    const answer = created.body as { runId: string; status: string; eventsUrl: string };
    expect(Object.keys(answer).sort()).toEqual(['eventsUrl', 'runId', 'status']);
    expect(answer.status).toBe('running');
    const page = await fetch(answer.eventsUrl, { headers: { 'openwop-version': '2.0' } });
    expect(page.status).toBe(200);
    const body = (await page.json()) as Page;
    expect(Object.keys(body).sort()).toEqual([
      'events',
      'isTerminal',
      'lastSequence',
      'runId',
      'status',
    ]);
    expect(body.runId).toBe(answer.runId);
  });
});

describe('runs and seeding', () => {
  it('keeps two concurrent runs of one suite independent, each numbered from 0', async () => {
    host = await startReferenceHost({ trialDelayMs: 5 });
    const url = host.url;
    const [a, b] = await Promise.all(
      [1, 2].map(() => drive(url, 'conformance-eval-trajectory-gate')),
    );
    expect(a?.runId).not.toBe(b?.runId);
    for (const d of [a, b]) {
      expect(d?.events.map((e) => e.sequence)).toEqual(Array.from({ length: 19 }, (_, i) => i));
      expect(d?.events.every((e) => e.runId === d.runId)).toBe(true);
      expect(d?.summary).toMatchObject({ gatedAggregateScore: 0.5, passed: false });
    }
  });

  it('skips a fixture file it cannot parse with a warning and serves the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ref-host-fixtures-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const src = fileURLToPath(
      new URL('../../fixtures/conformance-eval-trajectory-gate.json', import.meta.url),
    );
    copyFileSync(src, join(dir, 'conformance-eval-trajectory-gate.json'));
    writeFileSync(join(dir, 'broken.json'), '{"id": ');
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    cleanups.push(() => warn.mockRestore());
    host = await startReferenceHost({ fixturesDir: dir });
    expect(warn.mock.calls.map((c) => String(c[0])).join('')).toMatch(
      /skipped fixture broken\.json/,
    );
    const discovery = (await call(host.url, 'GET', '/.well-known/openwop')).body;
    expect(discovery).toMatchObject({ fixtures: ['conformance-eval-trajectory-gate'] });
    expect((await drive(host.url, 'conformance-eval-trajectory-gate')).summaryStatus).toBe(200);
  });
});

describe('npm run host', () => {
  it('prints one listening line with its defect and pacing, serves, and exits 0 on SIGTERM', async () => {
    const bin = fileURLToPath(new URL('../../bin/openwop-eval-gate-host.mjs', import.meta.url));
    const child = spawn(
      process.execPath,
      [bin, '--no-auth', '--defect', 'score-zeroed', '--pacing', 'slow'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => child.kill('SIGKILL'));
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no listening line within 10 s')), 10_000);
      child.stdout.once('data', (chunk: Buffer) => {
        clearTimeout(timer);
        resolve(chunk.toString('utf8'));
      });
    });
    const match =
      /^reference host listening on (http:\/\/127\.0\.0\.1:\d+) \(defect score-zeroed\) \(pacing slow\)\n$/.exec(
        line,
      );
    expect(match).not.toBeNull();
    const discovery = await call(match?.[1] ?? '', 'GET', '/.well-known/openwop');
    expect(discovery.body).toMatchObject({ implementation: { name: 'openwop-reference-host' } });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
