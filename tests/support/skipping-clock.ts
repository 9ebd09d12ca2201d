// A drive's clock whose waits pass at once: `now` is the real time plus every wait taken so far.
// A drive that waits out its run deadline between requests (a summary refused 409 forever) reaches
// the deadline in the time its requests take, while one held by the host (a long poll left open)
// still reaches it in real time, so no drive can outlast its deadline by skipping the clock.

import { setImmediate } from 'node:timers/promises';
import type { DriveClock } from '../../lib/observe/driver.ts';

export interface SkippingClock extends DriveClock {
  /** The milliseconds of waiting skipped so far. */
  readonly skipped: () => number;
}

export function skippingClock(): SkippingClock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: async (ms) => {
      skipped += Math.max(0, ms);
      // Yield a turn of the event loop, as a real wait would, so other work is not starved.
      await setImmediate();
    },
    skipped: () => skipped,
  };
}
