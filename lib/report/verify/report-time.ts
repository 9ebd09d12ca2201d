// As of when a report speaks: its `finishedAt`, which the signer writes, read against the
// verifier's clock. A date after now is not evidence of anything (a forger dates a report past a
// key's retirement that way), so it is refused; an old one is the host's record of a day that has
// passed, which `--max-age` lets a certifier refuse to certify. Pure: the clock is handed in.

/** How far ahead of the verifier's clock a report may be dated: two machines' clocks drift. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface VerifierClock {
  /** The verifier's now, in milliseconds since the epoch. */
  readonly now: number;
  /** `--max-age DAYS`: a report older than this certifies nothing. */
  readonly maxAgeDays?: number;
}

export interface ReportTime {
  /** `as of 2026-12-07T01:02:03.000Z, 3 days old`: the clause every outcome line carries. */
  readonly asOf: string;
  /** Why the report is refused for its date: dated after now, beyond the skew. */
  readonly future?: string;
  /** Why the report is older than `--max-age` allows. */
  readonly tooOld?: string;
}

/** The report's date against `clock`. */
export function reportTime(finishedAt: string, clock: VerifierClock): ReportTime {
  const at = Date.parse(finishedAt);
  const age = clock.now - at;
  const asOf = `as of ${finishedAt}, ${age < 0 ? `${ageText(-age)} in the future` : `${ageText(age)} old`}`;
  if (-age > CLOCK_SKEW_MS) {
    return {
      asOf,
      future: `finishedAt: the report is dated ${finishedAt}, ${ageText(-age)} after this verifier's clock (${new Date(clock.now).toISOString()}; ${CLOCK_SKEW_MS / 60_000} min of skew allowed); a report cannot be dated after it was written`,
    };
  }
  const { maxAgeDays } = clock;
  if (maxAgeDays !== undefined && age > maxAgeDays * DAY_MS) {
    return {
      asOf,
      tooOld: `the report is dated ${finishedAt}, ${ageText(age)} old, older than --max-age ${maxAgeDays} ${maxAgeDays === 1 ? 'day' : 'days'}`,
    };
  }
  return { asOf };
}

/** `3 days`, `5 h`, `12 min`, `under a minute`: an age as a reader weighs it. */
export function ageText(ms: number): string {
  if (ms >= 2 * DAY_MS) return `${Math.floor(ms / DAY_MS)} days`;
  if (ms >= 60 * 60 * 1000) return `${Math.floor(ms / (60 * 60 * 1000))} h`;
  if (ms >= 60 * 1000) return `${Math.floor(ms / (60 * 1000))} min`;
  return 'under a minute';
}
