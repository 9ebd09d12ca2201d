// A loopback eval host whose runs finish at an instant the caller picks, and which records, in
// this process's performance clock, when it appended each run's last event. That instant is the
// zero of verdict latency. It serves only what the driver and the naive poller ask for (contract
// §6) and grades nothing: the events and summary are fixed, small and content-free.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TimedHostOptions {
  /** False: answer every poll at once, as contract §6 allows a host to do. */
  readonly honourTimeout: boolean;
  /** How long the next run takes, from creation to its last append; read once per run. */
  readonly runMs: () => number;
}

export interface TimedHost {
  readonly url: string;
  /** performance.now() just after the run's last event was appended; undefined while running. */
  finishedAt(runId: string): number | undefined;
  /** Requests whose path ends with `suffix`, counted since the host started. */
  requestCount(suffix: string): number;
  close(): Promise<void>;
}

interface TimedEvent {
  readonly eventId: string;
  readonly runId: string;
  readonly type: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

class TimedRun {
  readonly events: TimedEvent[] = [];
  finishedAt: number | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly runId: string,
    runMs: number,
  ) {
    this.append('eval.started', { suiteId: 'bench.evals.timed', suiteVersion: '1.0.0' });
    this.timer = setTimeout(() => this.finish(), runMs);
  }

  /** Cancels the finish and releases every held poll, so a closed host leaves no timer behind. */
  stop(): void {
    clearTimeout(this.timer);
    this.wake();
  }

  get terminal(): boolean {
    return this.finishedAt !== undefined;
  }

  after(cursor: number): TimedEvent[] {
    return this.events.filter((e) => e.sequence > cursor);
  }

  /** Resolves on the next append or after `ms`, whichever comes first. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private finish(): void {
    this.append('eval.scored', { taskId: 't1', score: 1, passed: true });
    this.append('eval.completed', { aggregateScore: 1, passed: true, taskCount: 1 });
    this.append('run.completed', { status: 'completed' });
    this.finishedAt = performance.now();
    this.wake();
  }

  private wake(): void {
    for (const done of [...this.waiters]) done();
  }

  private append(type: string, payload: Readonly<Record<string, unknown>>): void {
    const sequence = this.events.length + 1;
    this.events.push({
      eventId: `${this.runId}#${sequence}`,
      runId: this.runId,
      type,
      sequence,
      timestamp: new Date().toISOString(),
      payload,
    });
  }
}

export async function startTimedHost(options: TimedHostOptions): Promise<TimedHost> {
  const runs = new Map<string, TimedRun>();
  const counts = new Map<string, number>();
  let created = 0;
  let closed = false;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    for await (const chunk of req) void chunk;

    if (req.method === 'POST' && path === '/runs') {
      created += 1;
      const runId = `timed-${created}`;
      runs.set(runId, new TimedRun(runId, options.runMs()));
      return send(res, 201, { runId, status: 'running' });
    }
    const [, root, id = '', leaf, sub] = path.split('/');
    const run = root === 'runs' ? runs.get(decodeURIComponent(id)) : undefined;
    if (run === undefined) return send(res, 404, { error: { code: 'not_found', message: path } });
    const status = run.terminal ? 'completed' : 'running';

    if (leaf === undefined) return send(res, 200, { runId: run.runId, status });
    if (leaf === 'eval-summary') {
      if (!run.terminal)
        return send(res, 409, { error: { code: 'run_not_terminal', message: '' } });
      return send(res, 200, { suiteId: 'bench.evals.timed', passed: true, tasks: [] });
    }
    if (leaf === 'events' && sub === 'poll') {
      const cursor = Number(url.searchParams.get('afterSequence') ?? '0');
      const timeoutS = Number(url.searchParams.get('timeout') ?? '0');
      const deadline = performance.now() + (options.honourTimeout ? timeoutS * 1000 : 0);
      let events = run.after(cursor);
      while (events.length === 0 && !run.terminal && !closed && performance.now() < deadline) {
        await run.changed(deadline - performance.now());
        events = run.after(cursor);
      }
      return send(res, 200, {
        runId: run.runId,
        events,
        lastSequence: events.at(-1)?.sequence ?? cursor,
        status: run.terminal ? 'completed' : 'running',
        isTerminal: run.terminal,
      });
    }
    return send(res, 404, { error: { code: 'not_found', message: path } });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    finishedAt: (runId) => runs.get(runId)?.finishedAt,
    requestCount: (suffix) =>
      [...counts].reduce((n, [path, c]) => (path.endsWith(suffix) ? n + c : n), 0),
    close: () =>
      new Promise<void>((done) => {
        closed = true;
        for (const run of runs.values()) run.stop();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
