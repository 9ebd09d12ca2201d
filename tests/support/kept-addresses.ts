// The addresses a test file keeps until it ends. verify, badge, diff, matrix and report read the
// live discovery at the address a report names. Once a server closes, the kernel may hand its port
// to a server another test file starts beside this one, and that read would find a stranger's
// discovery (another implementation, other keys, an answer that never comes): a verdict that
// depends on what else the machine runs. So every address a verified report names stays this
// file's: a host stays up to the end, and a host meant to be down sits behind an address that
// drops each connection, held just as long.

import type { AddressInfo, Socket } from 'node:net';
import { connect, createServer } from 'node:net';
import { afterAll } from 'vitest';
import type { ReferenceHost, ReferenceHostOptions } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';

/** A reference host behind an address of its own, which outlives it. */
export interface HostGoingDown {
  readonly url: string;
  /** Stops the host; every later connection to `url` is dropped until the file ends. */
  down(): Promise<void>;
}

export interface AddressKeeper {
  /** A reference host that stays up until the file ends. */
  host(options: ReferenceHostOptions): Promise<ReferenceHost>;
  /** An address where every connection is dropped as it opens: a host that is down. */
  dropping(): Promise<string>;
  /** A reference host whose address still drops connections, never another's, once it is down. */
  goingDown(options: ReferenceHostOptions): Promise<HostGoingDown>;
}

/** Called at a file's top level: what it keeps is let go after its last test. */
export function keepAddresses(): AddressKeeper {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closing.map((close) => close()));
  });
  const host = async (options: ReferenceHostOptions): Promise<ReferenceHost> => {
    const started = await startReferenceHost(options);
    closing.push(() => started.close());
    return started;
  };
  const door = async (): Promise<Door> => {
    const opened = await openDoor();
    closing.push(() => opened.close());
    return opened;
  };
  return {
    host,
    dropping: async () => (await door()).url,
    goingDown: async (options) => {
      const [started, opened] = await Promise.all([startReferenceHost(options), door()]);
      opened.forwardTo(Number(new URL(started.url).port));
      // The host is stopped once: by the test, or when the file ends if the test never did.
      let stopping: Promise<void> | undefined;
      const down = (): Promise<void> => {
        opened.forwardTo(undefined);
        stopping ??= started.close();
        return stopping;
      };
      closing.push(down);
      return { url: opened.url, down };
    },
  };
}

interface Door {
  readonly url: string;
  /** The loopback port connections go to from now on; none drops them. */
  forwardTo(port: number | undefined): void;
  close(): Promise<void>;
}

/** A loopback listener that forwards each connection to a port, or drops it. */
async function openDoor(): Promise<Door> {
  let target: number | undefined;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo: (next) => {
      target = next;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
