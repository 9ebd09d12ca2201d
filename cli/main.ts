// `openwop-eval-gate`: the process shell around runCli. Output goes to stdout and stderr; the
// exit code is the command's. A reader that closes stdout early (`| head -1`) is no error: the
// command finishes quietly and its exit code stays the verdict's, so `set -o pipefail` sees that.
// On a terminal, a pack's progress is one live line on stderr, cleared before any other line, so
// a piped stdout never sees it.
//
// This module runs nothing when loaded: the bin calls `main` on the bundle (cli/bundle.ts), and
// the build loads that same bundle to warm its code cache without starting a command.

import { runCli } from './cli.ts';
import { LiveLine } from './live-line.ts';

/** Runs the command in `argv` on this process's streams and sets its exit code. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let stdoutClosed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stdoutClosed = true;
  });

  const live = process.stderr.isTTY ? new LiveLine(process.stderr) : undefined;

  process.exitCode = await runCli(argv, {
    log: (line) => {
      live?.clear();
      if (!stdoutClosed) process.stdout.write(`${line}\n`);
    },
    error: (line) => {
      live?.clear();
      process.stderr.write(`${line}\n`);
    },
    ...(live === undefined ? {} : { live: (line: string) => live.show(line) }),
  });
  live?.clear();
}
