// A host fault that repeats stops the pack. While every case decided so far was blocked with the
// same reason, the pack starts no more than FAULT_STREAK_CASES cases; once that many are blocked
// the same way the rest are not run, and the pack names the cause once. The first case decided
// otherwise (a pass, a failure, a gate, a blocked case with another reason) ends the watch, and
// the pack runs on at its full concurrency.

import type { Decision } from './decide.ts';

/**
 * How many cases blocked the same way stop a pack: the default concurrency, so against a host
 * that never finishes a run the pack costs one run deadline, not one per case.
 */
export const FAULT_STREAK_CASES = 4;

export type Admission = { readonly start: true } | { readonly start: false; readonly why: string };

export class FaultStreak {
  readonly #limit: number;
  #started = 0;
  #blocked = 0;
  #cause: string | undefined;
  #broken = false;
  #stopped: string | undefined;
  #waiting: (() => void)[] = [];

  constructor(limit: number = FAULT_STREAK_CASES) {
    this.#limit = Math.max(1, limit);
  }

  /** Why the pack stopped, once it has. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /**
   * Whether the next case may start. While the streak is unbroken and `limit` cases have started,
   * it waits for one of them to be decided, or for `wake`. `ended` says why no case may start any
   * more (the run budget spent), or undefined while they may.
   */
  async admit(ended: () => string | undefined = () => undefined): Promise<Admission> {
    for (;;) {
      const why = ended() ?? this.#stopped;
      if (why !== undefined) return { start: false, why };
      if (this.#broken || this.#started < this.#limit) {
        this.#started += 1;
        return { start: true };
      }
      await new Promise<void>((wake) => this.#waiting.push(wake));
    }
  }

  /** A started case's decision. */
  decided(decision: Decision): void {
    if (!this.#broken && this.#stopped === undefined) {
      const cause = decision.disposition === 'blocked' ? decision.reason : undefined;
      if (cause === undefined || (this.#cause !== undefined && cause !== this.#cause)) {
        this.#broken = true;
      } else {
        this.#cause = cause;
        this.#blocked += 1;
        if (this.#blocked >= this.#limit) {
          this.#stopped = `pack stopped after ${this.#blocked} cases: every one blocked: ${cause}`;
        }
      }
    }
    this.wake();
  }

  /** Wakes every case waiting to be admitted, to look again. */
  wake(): void {
    const woken = this.#waiting;
    this.#waiting = [];
    for (const wake of woken) wake();
  }
}
