// How the host client reaches a host: one kept-alive connection for a base URL's requests, the
// TLS transport for an https base URL, and an IPv6 literal's brackets left to the URL.

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../lib/observe/errors.ts';
import { createHostClient, type HostClient } from '../../lib/observe/host-client.ts';

/** A server on `host` that answers `{}` and records the client port of each request. */
async function portRecorder(host: string): Promise<{ server: Server; ports: number[] }> {
  const ports: number[] = [];
  const server = createServer((req, res) => {
    ports.push(req.socket.remotePort ?? -1);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => ready());
  });
  return { server, ports };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

const clientFor = (baseUrl: string) =>
  createHostClient({ baseUrl, requestTimeoutMs: 5_000, maxBodyBytes: 1024 });

/** The TransportError a GET through `client` fails with; the test fails when it gets an answer. */
async function transportFailure(client: HostClient): Promise<TransportError> {
  const error = await client.get('/x').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('the connection to a host', () => {
  it('keeps one connection alive across requests one after another', async () => {
    const { server, ports } = await portRecorder('127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const client = clientFor(`http://127.0.0.1:${port}`);
    try {
      await client.get('/a');
      await client.get('/b');
      expect(ports).toHaveLength(2);
      expect(ports[1]).toBe(ports[0]);
    } finally {
      await client.close();
      await stop(server);
    }
  });

  it('reaches an IPv6 literal, brackets and all', async (ctx) => {
    let started: Awaited<ReturnType<typeof portRecorder>>;
    try {
      started = await portRecorder('::1');
    } catch (error) {
      // A machine without IPv6 loopback cannot show this; that is a fact of the machine.
      ctx.skip(`no IPv6 loopback here: ${String(error)}`);
      return;
    }
    const { server, ports } = started;
    const { port } = server.address() as AddressInfo;
    const client = clientFor(`http://[::1]:${port}`);
    try {
      expect((await client.get('/v6')).status).toBe(200);
      expect(ports).toHaveLength(1);
    } finally {
      await client.close();
      await stop(server);
    }
  });

  it('speaks TLS to an https base URL: a closed port is refused, not a protocol it cannot speak', async () => {
    const { server } = await portRecorder('127.0.0.1');
    const { port } = server.address() as AddressInfo;
    await stop(server);
    const client = clientFor(`https://127.0.0.1:${port}`);
    try {
      expect((await transportFailure(client)).code).toBe('connection-refused');
    } finally {
      await client.close();
    }
  });

  it('speaks TLS to an https base URL: a plain HTTP host answers no TLS handshake', async () => {
    const { server, ports } = await portRecorder('127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const client = clientFor(`https://127.0.0.1:${port}`);
    try {
      await transportFailure(client);
      expect(ports).toEqual([]);
    } finally {
      await client.close();
      await stop(server);
    }
  });
});
