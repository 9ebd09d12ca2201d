// Hosts that fail at the transport: resets, silence, bodies that never end or are too large,
// answers that drip. None of these is an answer, so none is a verdict on the host: the leg is
// `blocked` (contract §1, §9), and it is blocked within the request or run deadline.

import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HostileOptions } from '../support/hostile-host.ts';
import {
  correctDiscovery,
  correctSummary,
  expectOutcome,
  HOSTILE_BOUNDS,
  resetMidBody,
  runMeanLeg,
  runOnHostileHost,
  streamBody,
  warmUp,
  REQUEST_TIMED_OUT,
} from '../support/hostile-host.ts';

beforeAll(warmUp);

const against = async (options: HostileOptions = {}) => (await runOnHostileHost(options)).run;

const summaryText = JSON.stringify(correctSummary());
const LIMIT = HOSTILE_BOUNDS.maxBodyBytes;
const silence = (): undefined => undefined;

describe.concurrent('a connection reset mid-body blocks the leg', () => {
  it('on discovery', async () => {
    const run = await against({
      routes: {
        discovery: ({ response }) => resetMidBody(response, JSON.stringify(correctDiscovery())),
      },
    });
    expectOutcome(run, 'blocked', /discovery unreadable/, /connection reset/);
  });

  it('on the poll', async () => {
    const run = await against({
      routes: { poll: ({ response }) => resetMidBody(response, summaryText) },
    });
    expectOutcome(run, 'blocked', /\(events\)/, /connection reset/);
  });

  it('on the summary', async () => {
    const run = await against({
      routes: { summary: ({ response }) => resetMidBody(response, summaryText) },
    });
    expectOutcome(run, 'blocked', /\(summary\)/, /connection reset/);
  });
});

describe.concurrent('a host that never answers blocks the leg at a deadline', () => {
  it('silent discovery times out after one request deadline', async () => {
    const run = await against({ routes: { discovery: silence } });
    expectOutcome(run, 'blocked', /discovery unreadable/, REQUEST_TIMED_OUT);
  });

  it('a silent create times out after one request deadline', async () => {
    const run = await against({ routes: { create: silence } });
    expectOutcome(run, 'blocked', /\(create\)/, REQUEST_TIMED_OUT);
    expect(run.legMs).toBeLessThan(HOSTILE_BOUNDS.runTimeoutMs);
  });

  it('a silent poll is blocked at the run deadline', async () => {
    const run = await against({ routes: { poll: silence } });
    expectOutcome(run, 'blocked', /\(events\)/, /timed out|not terminal within/);
  });

  it('a silent summary is blocked', async () => {
    const run = await against({ routes: { summary: silence } });
    expectOutcome(run, 'blocked', /\(summary\)/, REQUEST_TIMED_OUT);
  });

  it('a TCP server that accepts and never speaks HTTP is blocked at discovery', async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runMeanLeg(`http://127.0.0.1:${port}`);
      expectOutcome(run, 'blocked', /discovery unreadable/, /timed out/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('headers that never come after a partial status line are blocked', async () => {
    const run = await against({
      routes: {
        summary: ({ response }) => {
          response.socket?.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
        },
      },
    });
    expectOutcome(run, 'blocked', /\(summary\)/, /timed out/);
  });
});

describe.concurrent('bodies that never end, or are too large, block the leg', () => {
  it('a body that drips forever under the limit is cut at the request deadline', async () => {
    const run = await against({
      routes: { summary: ({ response }) => streamBody(response, Buffer.from(' '), 20) },
    });
    expectOutcome(run, 'blocked', /\(summary\)/, REQUEST_TIMED_OUT);
  });

  it('a valid summary dripped slower than the deadline is blocked, not judged on a fragment', async () => {
    const run = await against({
      routes: {
        summary: ({ response }) =>
          streamBody(response, Buffer.from(summaryText.slice(0, 8)), 100, summaryText.length),
      },
    });
    expectOutcome(run, 'blocked', /\(summary\)/, /timed out/);
  });

  it('a body streamed past the limit without a length is cut at the limit', async () => {
    const run = await against({
      routes: { poll: ({ response }) => streamBody(response, Buffer.alloc(16 * 1024, 32), 0) },
    });
    expectOutcome(run, 'blocked', /\(events\)/, new RegExp(`exceeds the ${LIMIT}-byte limit`));
  });

  it('a declared length above the limit is refused before reading', async () => {
    const run = await against({
      routes: {
        summary: ({ response }) => {
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(LIMIT * 100),
          });
          response.write('{');
        },
      },
    });
    expectOutcome(run, 'blocked', /\(summary\)/, new RegExp(`${LIMIT * 100} bytes exceeds`));
  });

  it('an oversized discovery is unreadable', async () => {
    const run = await against({
      routes: { discovery: ({ response }) => streamBody(response, Buffer.alloc(8 * 1024, 32), 0) },
    });
    expectOutcome(run, 'blocked', /discovery unreadable/, /exceeds/);
  });
});

describe.concurrent('slowness within the deadlines is not a fault', () => {
  it('a summary dripped in eight pieces inside the request deadline still passes', async () => {
    const piece = Math.ceil(summaryText.length / 8);
    const run = await against({
      routes: {
        summary: ({ response }) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          let at = 0;
          const next = (): void => {
            if (response.destroyed) return;
            response.write(summaryText.slice(at, at + piece));
            at += piece;
            if (at >= summaryText.length) response.end();
            else setTimeout(next, 15);
          };
          next();
        },
      },
    });
    expect(run.outcome.disposition, run.outcome.reason).toBe('executed-pass');
  });
});
