// `openwop-eval-gate`: the process shell around runCli. Output goes to stdout and stderr; the
// exit code is the command's.

import { runCli } from './cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
});
