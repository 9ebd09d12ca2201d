// verify's progress off a terminal: a pack's sidecar replay can take minutes, and a CI log that
// shows nothing for that long reads as a hang. One line to stderr at most every
// VERIFY_PROGRESS_INTERVAL_MS, spaced by the clock given, so stdout (the verdict) is untouched.

import type { SidecarProgress } from '../lib/report/generated-sidecar.ts';

/** How far apart progress lines are, at the least. */
export const VERIFY_PROGRESS_INTERVAL_MS = 5_000;

export function throttledProgress(
  print: (line: string) => void,
  clock: () => number,
  intervalMs = VERIFY_PROGRESS_INTERVAL_MS,
): SidecarProgress {
  let last = clock();
  return (file, lines, bytes) => {
    const now = clock();
    if (now - last < intervalMs) return;
    last = now;
    print(`verify: replaying ${file}: ${lines} lines, ${bytes} bytes read`);
  };
}
