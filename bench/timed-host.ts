// A loopback eval host whose runs finish at an instant the caller picks, and which records, in
// this process's performance clock, when it appended each run's last event. That instant is the
// zero of verdict latency. It serves only what the driver and the naive poller ask for (contract
// §6) and grades nothing: the events and summary are fixed, small and content-free. Every
// document is in its published v2 shape (the published files of contract §5–§7), so the benchmark pays for
// the same validation a run against a real v2 host does.

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
  readonly payload: Readonly<Record<string, unknown>>;
  readonly timestamp: string;
  readonly sequence: number;
  readonly schemaVersion: number;
}

const SUITE = { suiteId: 'bench.evals.timed', suiteVersion: '1.0.0' } as const;
const TENANT = 'bench-tenant';

class TimedRun {
  readonly events: TimedEvent[] = [];
  finishedAt: number | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly runId: string,
    runMs: number,
  ) {
    this.append('eval.started', { ...SUITE, taskCount: 1, modes: ['golden'] });
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

  /** Events after `cursor`; null means from the start of the log. */
  after(cursor: number | null): TimedEvent[] {
    return this.events.filter((e) => cursor === null || e.sequence > cursor);
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
    this.append('eval.completed', {
      aggregateScore: 1,
      passed: true,
      taskCount: 1,
      passedCount: 1,
    });
    this.append('run.completed', { outputs: {} });
    this.finishedAt = performance.now();
    this.wake();
  }

  private wake(): void {
    for (const done of [...this.waiters]) done();
  }

  private append(type: string, payload: Readonly<Record<string, unknown>>): void {
    const sequence = this.events.length;
    this.events.push({
      eventId: `${this.runId.slice(TENANT.length + 1)}.${sequence}`,
      runId: this.runId,
      type,
      payload,
      timestamp: new Date().toISOString(),
      sequence,
      schemaVersion: 1,
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
      const runId = `${TENANT}/timed-run-${String(created).padStart(8, '0')}`;
      runs.set(runId, new TimedRun(runId, options.runMs()));
      const eventsUrl = `http://${req.headers.host ?? '127.0.0.1'}/runs/${encodeURIComponent(runId)}/events`;
      return send(res, 201, { runId, status: 'running', eventsUrl });
    }
    const [, root, id = '', leaf, sub] = path.split('/');
    const run = root === 'runs' ? runs.get(decodeURIComponent(id)) : undefined;
    if (run === undefined) return send(res, 404, { error: 'not_found', message: path });
    const status = run.terminal ? 'completed' : 'running';

    if (leaf === undefined) return send(res, 200, { runId: run.runId, status });
    if (leaf === 'eval-summary') {
      if (!run.terminal) {
        const details = { runStatus: status };
        return send(res, 409, { error: 'run_state_conflict', message: 'still running', details });
      }
      return send(res, 200, SUMMARY);
    }
    if (leaf === 'events' && sub === 'poll') {
      const afterText = url.searchParams.get('afterSequence');
      const cursor = afterText === null ? null : Number(afterText);
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
        lastSequence: events.at(-1)?.sequence ?? run.events.at(-1)?.sequence ?? -1,
        status: run.terminal ? 'completed' : 'running',
        isTerminal: run.terminal,
      });
    }
    return send(res, 404, { error: 'not_found', message: path });
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

const SUMMARY = {
  ...SUITE,
  aggregateScore: 1,
  passed: true,
  taskCount: 1,
  passedCount: 1,
  tasks: [{ taskId: 't1', score: 1, passed: true }],
};

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'openwop-version': '2.0',
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
