// A recording pass-through in front of a host: forwards every request unchanged and notes, in
// this process's performance clock, when each arrived and, for a run's creation, when its answer
// left with which run id. The first poll of a run is read from it: how long after the CLI learnt
// its run id it asked for the run's events.

import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly arrivedAt: number;
}

export interface RunCreation {
  readonly runId: string;
  /** When the answer carrying the run id finished leaving the proxy. */
  readonly answeredAt: number;
}

export interface RequestLog {
  readonly url: string;
  readonly requests: readonly LoggedRequest[];
  readonly creations: readonly RunCreation[];
  /** Forget everything logged so far, before the next measured run. */
  clear(): void;
  close(): Promise<void>;
}

export async function startRequestLog(target: string): Promise<RequestLog> {
  const upstream = new URL(target);
  const requests: LoggedRequest[] = [];
  const creations: RunCreation[] = [];
  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    requests.push({ method, path, arrivedAt });
    const out = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path: `${upstream.pathname.replace(/\/$/, '')}${path}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const creates = method === 'POST' && /\/runs(?:\?|$)/.test(path);
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          if (creates) chunks.push(chunk);
          res.write(chunk);
        });
        answer.on('end', () => {
          res.end(() => {
            if (!creates) return;
            const runId = runIdOf(Buffer.concat(chunks).toString('utf8'));
            if (runId !== undefined) creations.push({ runId, answeredAt: performance.now() });
          });
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    creations,
    clear() {
      requests.length = 0;
      creations.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function runIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { runId?: unknown };
    return typeof parsed.runId === 'string' ? parsed.runId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For each run created, milliseconds from its creation's answer to the first request for its
 * events; a run never polled is left out (its leg ended before polling, or was not driven).
 */
export function firstPollDelays(log: Pick<RequestLog, 'requests' | 'creations'>): number[] {
  return log.creations.flatMap(({ runId, answeredAt }) => {
    const events = `/runs/${encodeURIComponent(runId)}/events`;
    const first = log.requests.find((r) => r.method === 'GET' && r.path.includes(events));
    return first === undefined ? [] : [first.arrivedAt - answeredAt];
  });
}
