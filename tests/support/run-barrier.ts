// Runs of a reference host held open until an event, not a clock: the host's `runGate` awaits the
// barrier, and the barrier lets the oldest held run end once as many are held as the test waits for.
// A machine of any speed reaches the same count; only a guard far beyond any load ends a wait that
// the events never end, and a test asserts that the events, not the guard, let the runs go.

export interface RunBarrier {
  /** The reference host's `runGate`. */
  readonly gate: () => Promise<void>;
  /** The most runs held at one moment. */
  readonly mostHeld: () => number;
  /** Whether the guard let a run go because the awaited count was never reached. */
  readonly guarded: () => boolean;
  /** Lets every held run go and stops the guard. */
  readonly close: () => void;
}

/**
 * `awaited(ended)` is how many runs must be held, given how many have ended, before the oldest is
 * let go; `all` lets every held run go at once instead. `guardMs` bounds a wait the events never end.
 */
export function runBarrier(options: {
  readonly awaited: (ended: number) => number;
  readonly all?: boolean;
  readonly guardMs: number;
}): RunBarrier {
  const held: (() => void)[] = [];
  let ended = 0;
  let most = 0;
  let guarded = false;
  let guard: NodeJS.Timeout | undefined;
  const letGo = (count: number): void => {
    for (const release of held.splice(0, count)) {
      ended += 1;
      release();
    }
  };
  const armGuard = (): void => {
    guard = setTimeout(() => {
      guarded = true;
      letGo(held.length);
    }, options.guardMs);
  };
  return {
    gate: () =>
      new Promise<void>((resolve) => {
        held.push(resolve);
        most = Math.max(most, held.length);
        // A run let go lowers the count awaited at the tail, which may let the next go at once.
        while (held.length > 0 && held.length >= options.awaited(ended)) {
          letGo(options.all === true ? held.length : 1);
        }
        clearTimeout(guard);
        if (held.length > 0) armGuard();
      }),
    mostHeld: () => most,
    guarded: () => guarded,
    close: () => {
      clearTimeout(guard);
      letGo(held.length);
    },
  };
}
