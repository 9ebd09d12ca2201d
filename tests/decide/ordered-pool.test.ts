// The pool the generated pack drives its cases through: results handed on in the order taken,
// and what it holds at once bounded by its window, not by how many items there are. The bound is
// counted (items taken and not yet handed on), not timed, so load on the machine cannot move it.

import { describe, expect, it } from 'vitest';
import { inOrder } from '../../lib/decide/ordered-pool.ts';

/** Resolves after `turns` turns of the event loop, so items finish out of order. */
function after<T>(value: T, turns: number): Promise<T> {
  return new Promise((resolve) => {
    const step = (left: number): void => {
      if (left === 0) resolve(value);
      else setImmediate(() => step(left - 1));
    };
    step(turns);
  });
}

async function pooled(count: number, turns: (i: number) => number) {
  const handed: number[] = [];
  const items = Array.from({ length: count }, (_, i) => i);
  const stats = await inOrder(
    items[Symbol.iterator](),
    (i) => after(i * 10, turns(i)),
    (result, i) => {
      expect(result).toBe(i * 10);
      handed.push(i);
    },
    { concurrency: 8, window: 32 },
  );
  return { handed, peakHeld: stats.peakHeld };
}

describe('inOrder', () => {
  it('hands every result on in the order its item was taken, however they finish', async () => {
    const { handed } = await pooled(500, (i) => (i * 7919) % 13);
    expect(handed).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('holds no more than its window at 100 items or at 2,000: what it keeps does not grow', async () => {
    const small = await pooled(100, (i) => (i * 7919) % 13);
    const large = await pooled(2000, (i) => (i * 7919) % 13);
    expect(small.peakHeld).toBeLessThanOrEqual(32);
    expect(large.peakHeld).toBeLessThanOrEqual(32);
  });

  it('a slow first item stops the pool at its window instead of letting the rest pile up', async () => {
    const { handed, peakHeld } = await pooled(1000, (i) => (i === 0 ? 400 : 0));
    expect(peakHeld).toBe(32);
    expect(handed).toHaveLength(1000);
  });

  it('asks an iterator that said it is done for nothing more, whichever worker heard it', async () => {
    // An iterator need not stay done once done (a reader of a growing file, say); the pool ends
    // its items at the first `done`, so every worker stops there.
    let asked = 0;
    const items: Iterator<number> = {
      next: () => {
        asked += 1;
        return asked <= 3 ? { done: false, value: asked } : { done: true, value: undefined };
      },
    };
    const handed: number[] = [];
    await inOrder(
      items,
      (i) => after(i, 4 - i),
      (result) => {
        handed.push(result);
      },
      { concurrency: 2, window: 4 },
    );
    expect(handed).toEqual([1, 2, 3]);
    expect(asked).toBe(4);
  });

  it('a hand-on that fails fails the pool', async () => {
    const items = [1, 2, 3][Symbol.iterator]();
    const run = inOrder(
      items,
      (i) => Promise.resolve(i),
      (i) => {
        if (i === 2) throw new Error('disk full');
      },
      { concurrency: 2, window: 4 },
    );
    await expect(run).rejects.toThrow('disk full');
  });
});
