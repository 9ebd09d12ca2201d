// A child process run to its end without holding this one, so tests that wait on processes run
// side by side; killed at its deadline, so no test waits on it for ever.

import { spawn } from 'node:child_process';

export interface Finished {
  /** The exit status; null when a signal (the deadline's, say) ended it. */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Both streams, in the order they arrived. */
  readonly output: string;
}

export interface ProcessOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly deadlineMs: number;
}

export function runProcess(
  command: string,
  args: readonly string[],
  { env, cwd, deadlineMs }: ProcessOptions,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      ...(cwd === undefined ? {} : { cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, output });
    });
  });
}
