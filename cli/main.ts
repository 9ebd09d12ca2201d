// `openwop-eval-gate`: the process shell around runCli. Output goes to stdout and stderr; the
// exit code is the command's. A reader that closes stdout early (`| head -1`) is no error: the
// command finishes quietly and its exit code stays the verdict's, so `set -o pipefail` sees that.

import { runCli } from './cli.ts';

let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutClosed = true;
});

process.exitCode = await runCli(process.argv.slice(2), {
  log: (line) => {
    if (!stdoutClosed) process.stdout.write(`${line}\n`);
  },
  error: (line) => process.stderr.write(`${line}\n`),
});
