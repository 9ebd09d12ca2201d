// `openwop-eval-gate`: the process shell around runCli. Output goes to stdout and stderr; the
// exit code is the command's. A reader that closes stdout early (`| head -1`) is no error: the
// command finishes quietly and its exit code stays the verdict's, so `set -o pipefail` sees that.
// On a terminal, a pack's progress is one live line on stderr, cleared before any other line, so
// a piped stdout never sees it.

import { runCli } from './cli.ts';
import { LiveLine } from './live-line.ts';

let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutClosed = true;
});

const live = process.stderr.isTTY ? new LiveLine(process.stderr) : undefined;

process.exitCode = await runCli(process.argv.slice(2), {
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
