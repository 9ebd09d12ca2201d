// How much slower than its own CPU time this process runs right now, measured once when a test
// file first imports it. A deadline a test gives the suite is scaled by it, so a correct answer
// arrives in time on a machine shared with busy processes, where a fixed deadline would race them.
// The measure is the wall time of a fixed CPU-bound loop over the CPU time it took: about 1 on an
// idle machine, about k when k runnable processes share each core. Nothing is compared with a
// figure from another machine.

/** The longest a deadline is stretched: past it, a test's own timeout would cut the wait. */
const MOST = 4;
const SAMPLES = 3;
/** Long enough to span several scheduler time slices (a few milliseconds each). */
const ITERATIONS = 20_000_000;

let sink = 0;

function stretch(): number {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  let x = sink;
  for (let i = 0; i < ITERATIONS; i += 1) x = (x * 31 + i) | 0;
  sink = x;
  const wall = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return wall / Math.max(cpuMs, 1);
}

function measured(): number {
  const samples = Array.from({ length: SAMPLES }, stretch);
  // The worst sample: a deadline too long costs a blocked case time, one too short a wrong verdict.
  return Math.min(MOST, Math.max(1, ...samples));
}

/** The factor, from 1 (an idle machine) to 4, in quarter steps. */
export const PACE: number = Math.ceil(measured() * 4) / 4;

/** `ms` stretched by the pace, whole milliseconds. */
export function paced(ms: number): number {
  return Math.round(ms * PACE);
}
