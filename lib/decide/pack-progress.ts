// Progress while a generated pack runs, and what it cost once it ended: cases done of the total,
// failures so far, the rate and the time left; then the wall time, the mean time a case took from
// its first request to its verdict, and this process's CPU per case. Plain text for the caller to
// print; nothing here decides anything.

import type { GeneratedCase, PackWatch } from './generated-pack.ts';

/** How the pack stands at one moment. */
export interface PackStanding {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly concurrency: number;
  readonly elapsedMs: number;
  /** Summed over the decided cases: from a case's first request to its verdict. */
  readonly caseMs: number;
  /** This process's CPU (user and system) since the pack started, in milliseconds. */
  readonly cpuMs: number;
}

export interface PackClock {
  readonly now: () => number;
  /** CPU microseconds this process has used, user plus system. */
  readonly cpuMicros: () => number;
}

const PROCESS_CLOCK: PackClock = {
  now: () => performance.now(),
  cpuMicros: () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  },
};

/** Counts a pack's cases as they are decided; `watch` is what the pack driver is handed. */
export class PackProgress {
  private total = 0;
  private done = 0;
  private failed = 0;
  private concurrency = 0;
  private caseMs = 0;
  private startedAt = 0;
  private cpuAtStart = 0;
  private endedAt: number | undefined;
  private cpuAtEnd: number | undefined;

  constructor(private readonly clock: PackClock = PROCESS_CLOCK) {}

  readonly watch: PackWatch = {
    started: (total, concurrency) => {
      this.total = total;
      this.concurrency = concurrency;
      this.done = 0;
      this.failed = 0;
      this.caseMs = 0;
      this.startedAt = this.clock.now();
      this.cpuAtStart = this.clock.cpuMicros();
      this.endedAt = undefined;
      this.cpuAtEnd = undefined;
    },
    decided: (c: GeneratedCase, ms: number) => {
      this.done += 1;
      this.caseMs += ms;
      if (c.decision.disposition === 'executed-fail') this.failed += 1;
    },
    finished: () => {
      this.endedAt = this.clock.now();
      this.cpuAtEnd = this.clock.cpuMicros();
    },
  };

  /** Whether the pack has started and not yet finished. */
  get running(): boolean {
    return this.total > 0 && this.endedAt === undefined;
  }

  standing(): PackStanding {
    const now = this.endedAt ?? this.clock.now();
    const cpu = this.cpuAtEnd ?? this.clock.cpuMicros();
    return {
      total: this.total,
      done: this.done,
      failed: this.failed,
      concurrency: this.concurrency,
      elapsedMs: Math.max(0, now - this.startedAt),
      caseMs: this.caseMs,
      cpuMs: Math.max(0, cpu - this.cpuAtStart) / 1000,
    };
  }
}

/** `generated pack: 37 of 200 cases, 1 failed, 12.3 cases/s, about 13 s left`. */
export function progressLineOf(t: PackStanding): string {
  const rate = t.elapsedMs > 0 ? (t.done * 1000) / t.elapsedMs : 0;
  const left =
    t.done === 0 || rate === 0
      ? 'time left unknown'
      : `about ${seconds((t.total - t.done) / rate)} left`;
  const failed = t.failed === 1 ? '1 failed' : `${t.failed} failed`;
  return `generated pack: ${t.done} of ${t.total} cases, ${failed}, ${rate.toFixed(1)} cases/s, ${left}`;
}

/**
 * What the pack cost, for the closing part of a run: `generated pack: 200 cases in 6.1 s at
 * concurrency 4 (32.8 cases/s); a case took 118 ms from its first request to its verdict (the
 * host's time, mostly); this process used 9.4 ms of CPU a case`. With the embedded host the CPU is
 * the host's too, and the line says so.
 */
export function costLineOf(t: PackStanding, embedded: boolean): string {
  const rate = t.elapsedMs > 0 ? (t.done * 1000) / t.elapsedMs : 0;
  const per = (ms: number): string => {
    if (t.done === 0) return '—';
    const each = ms / t.done;
    return `${each < 10 ? each.toFixed(1) : Math.round(each)} ms`;
  };
  const whose = embedded
    ? 'this process, which also runs the embedded reference host,'
    : 'the suite';
  return (
    `generated pack: ${t.done} case${t.done === 1 ? '' : 's'} in ${seconds(t.elapsedMs / 1000)} at concurrency ${t.concurrency} (${rate.toFixed(1)} cases/s); ` +
    `a case took ${per(t.caseMs)} from its first request to its verdict (the host's time, mostly); ` +
    `${whose} used ${per(t.cpuMs)} of CPU a case`
  );
}

function seconds(s: number): string {
  // Rounded whole before it is split, so 119.6 s reads "2 min 0 s", never "1 min 60 s".
  const whole = Math.round(s);
  if (whole >= 60) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}

/** Where progress goes: a terminal's live line, or plain lines for a log (CI). */
export interface PackDisplay {
  /** Rewrites the one live line; given only when the output is a terminal. */
  readonly live?: (line: string) => void;
  /** Prints a line, when there is no terminal: once every `intervalMs`. */
  readonly log: (line: string) => void;
  readonly intervalMs: number;
}

/** How often a terminal's live line is redrawn, when anything changed. */
export const LIVE_INTERVAL_MS = 250;

/** Shows the pack's progress while it runs; returns the stop function. */
export function showPackProgress(progress: PackProgress, display: PackDisplay): () => void {
  const { live } = display;
  let last = '';
  const tick = (): void => {
    if (!progress.running) return;
    const line = progressLineOf(progress.standing());
    if (live === undefined) display.log(line);
    else if (line !== last) live(line);
    last = line;
  };
  const timer = setInterval(tick, live === undefined ? display.intervalMs : LIVE_INTERVAL_MS);
  // A run that ends stops the timer; a timer alone must never hold the process open.
  timer.unref();
  return () => clearInterval(timer);
}
