// What a drive tells whoever waits on it while it runs: the run id once the host mints it, how
// many events the first read of the log has seen, and what the drive waits for now. It carries no
// verdict; the run engine prints it as progress and borrows the first run id for the host checks.

/** What the drive waits for, in the order a drive meets them. */
export type DriveWait = 'create' | 'terminal-event' | 'summary' | 'status' | 'replays';

export interface DriveWatch {
  /** The run id the host returned for this drive's run. */
  readonly created?: (runId: string) => void;
  /** Events the first read of the log has kept so far. */
  readonly events?: (count: number) => void;
  /** The drive now waits for this. */
  readonly waiting?: (what: DriveWait) => void;
}
