// Progress while legs wait on a host: one line per leg still waiting, each naming its run, the
// events its log has shown so far and what it waits for, so a slow host is told apart from a hung
// run. The lines are plain text handed to a callback; nothing here decides anything.

import type { DriveWait, DriveWatch } from '../observe/drive-watch.ts';

/** How often the waiting legs are reported, unless the caller asks for another interval. */
export const PROGRESS_INTERVAL_MS = 10_000;

const WAITING_FOR: Readonly<Record<DriveWait, string>> = {
  create: 'POST /runs to be answered',
  'terminal-event': 'run.completed',
  summary: 'the eval summary',
  status: 'the run status',
  replays: 'the replays of the finished log',
};

/** What one leg has shown of its run so far. */
export interface LegProgress {
  readonly name: string;
  readonly startedAt: number;
  readonly runId?: string;
  readonly events: number;
  readonly waiting?: DriveWait;
}

/** `waiting: mean-gated run r-12: 7 events, waiting for run.completed (40 s of 120 s)`. */
export function progressLine(leg: LegProgress, now: number, runTimeoutMs: number): string {
  const run = leg.runId === undefined ? 'no run yet' : `run ${leg.runId}: ${leg.events} events`;
  const what = WAITING_FOR[leg.waiting ?? 'create'];
  const waited = Math.max(0, Math.round((now - leg.startedAt) / 1000));
  return `waiting: ${leg.name} ${run}, waiting for ${what} (${waited} s of ${Math.round(runTimeoutMs / 1000)} s)`;
}

/** The legs of one run that drive a host, as their watches report them. */
export class ProgressBoard {
  private readonly legs = new Map<string, LegProgress>();

  constructor(
    private readonly runTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A watch for one leg; `also` is told everything too (the first run id, say). */
  watch(name: string, also: DriveWatch = {}): DriveWatch & { readonly done: () => void } {
    const update = (change: Partial<LegProgress>): void => {
      const was = this.legs.get(name) ?? { name, startedAt: this.now(), events: 0 };
      this.legs.set(name, { ...was, ...change });
    };
    return {
      created: (runId) => {
        update({ runId });
        also.created?.(runId);
      },
      events: (count) => {
        update({ events: count });
        also.events?.(count);
      },
      waiting: (what) => {
        update({ waiting: what });
        also.waiting?.(what);
      },
      done: () => this.legs.delete(name),
    };
  }

  /** One line per leg still waiting, in the order the legs started. */
  lines(): string[] {
    const now = this.now();
    return [...this.legs.values()].map((leg) => progressLine(leg, now, this.runTimeoutMs));
  }
}

/** Reports the board every `intervalMs` while anything waits; returns the stop function. */
export function reportProgress(
  board: ProgressBoard,
  intervalMs: number,
  onProgress: (line: string) => void,
): () => void {
  const timer = setInterval(() => {
    for (const line of board.lines()) onProgress(line);
  }, intervalMs);
  // A run that ends stops the timer; a timer alone must never hold the process open.
  timer.unref();
  return () => clearInterval(timer);
}
