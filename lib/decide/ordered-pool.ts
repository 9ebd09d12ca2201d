// Work done a bounded number at a time and handed on in the order it was taken: the generated
// pack drives several cases at once, but its sidecar and tally take them in pack order. A case
// that finished early waits for the ones before it, and no new case is taken while `window` are
// taken and not yet handed on, so what is held at once is bounded however long the pack and
// however slow one case (a run held to its deadline, say) is.

export interface PoolOptions {
  /** How many items are worked on at once. */
  readonly concurrency: number;
  /** How many items may be taken and not yet handed on; at least `concurrency`. */
  readonly window: number;
}

/** What a pool held at most: items taken and not yet handed on. */
export interface PoolStats {
  readonly peakHeld: number;
}

export async function inOrder<I, R>(
  items: Iterator<I>,
  work: (item: I) => Promise<R>,
  handOn: (result: R, item: I) => void | Promise<void>,
  options: PoolOptions,
): Promise<PoolStats> {
  const concurrency = Math.max(1, options.concurrency);
  const window = Math.max(concurrency, options.window);
  const finished = new Map<number, readonly [R, I]>();
  let waiting: (() => void)[] = [];
  let taken = 0;
  let handed = 0;
  let peakHeld = 0;
  let exhausted = false;
  let handing: Promise<void> = Promise.resolve();
  const handReady = async (): Promise<void> => {
    for (let ready = finished.get(handed); ready !== undefined; ready = finished.get(handed)) {
      finished.delete(handed);
      handed += 1;
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
      await handOn(...ready);
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      while (taken - handed >= window) await new Promise<void>((wake) => waiting.push(wake));
      if (exhausted) return;
      const next = items.next();
      if (next.done === true) {
        exhausted = true;
        return;
      }
      const i = taken++;
      peakHeld = Math.max(peakHeld, taken - handed);
      const result = await work(next.value);
      finished.set(i, [result, next.value]);
      handing = handing.then(handReady);
      await handing;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await handing;
  return { peakHeld };
}
