// A host client against a scripted loopback server (scripted-server.ts), both closed when the
// test ends however it ends, so no test leaves a socket open.

import { createHostClient, type HostClient } from '../../lib/observe/host-client.ts';
import { startScriptedServer, type Handler, type ScriptedServer } from './scripted-server.ts';

export interface ScriptedClientOptions {
  /** The bearer key; absent, the client sends none. */
  readonly apiKey?: string;
  /** A path the base URL carries after the server's origin. */
  readonly prefix?: string;
  readonly requestTimeoutMs: number;
  readonly maxBodyBytes?: number;
}

export async function withScriptedClient(
  handler: Handler,
  test: (client: HostClient, server: ScriptedServer) => Promise<void>,
  options: ScriptedClientOptions,
): Promise<void> {
  const server = await startScriptedServer(handler);
  const client = createHostClient({
    baseUrl: `${server.url}${options.prefix ?? ''}`,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    requestTimeoutMs: options.requestTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
  });
  try {
    await test(client, server);
  } finally {
    await client.close();
    await server.close();
  }
}
