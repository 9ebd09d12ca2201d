// One drive of the real driver against a scripted loopback server whose answers are routes keyed
// `METHOD path`, each told how many times it has been asked (1-based). An unrouted request is
// answered 404. Server and client live exactly as long as the drive.

import type { ServerResponse } from 'node:http';
import type { Bounds } from '../../lib/env.ts';
import {
  driveEvalRun,
  SYSTEM_CLOCK,
  type DriveClock,
  type EvalRunRequest,
} from '../../lib/observe/driver.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import type { DriveResult } from '../../lib/types.ts';
import type { RecordedRequest } from './scripted-server.ts';
import { sendJson, startScriptedServer } from './scripted-server.ts';

/** `n` counts the calls to that route, from 1. */
export type Route = (req: RecordedRequest, res: ServerResponse, n: number) => void;
export type Routes = Readonly<Record<string, Route>>;

export interface Drive {
  readonly result: DriveResult;
  readonly requests: readonly RecordedRequest[];
  readonly elapsedMs: number;
}

export async function driveRouted(
  routes: Routes,
  request: EvalRunRequest,
  bounds: Bounds,
  apiKey: string,
  /** The drive's time and waits: the process's unless a test drives them. */
  clock: DriveClock = SYSTEM_CLOCK,
): Promise<Drive> {
  const counts = new Map<string, number>();
  const server = await startScriptedServer((req, res) => {
    const key = `${req.method} ${req.path}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const route = routes[key];
    if (route === undefined) sendJson(res, 404, { error: 'not_found', message: key });
    else route(req, res, n);
  });
  const client = createHostClient({ baseUrl: server.url, apiKey, ...bounds });
  try {
    const started = Date.now();
    const result = await driveEvalRun(client, request, bounds, clock);
    return { result, requests: server.requests, elapsedMs: Date.now() - started };
  } finally {
    await client.close();
    await server.close();
  }
}
