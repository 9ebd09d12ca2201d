// One fresh process, timed as a user starts it: `node <script> <args>` from spawn to exit, with
// only the OPENWOP_* settings the caller passes, so no `.env` or shell setting can point the run
// elsewhere. A child that exits non-zero or outlives its deadline throws: a failed run is no time.

import { spawn } from 'node:child_process';

const CHILD_DEADLINE_MS = 120_000;

export interface TimedProcess {
  readonly args: readonly string[];
  readonly cwd: string;
  /** Settings for the child; every OPENWOP_* variable not among them is removed. */
  readonly settings: Readonly<Record<string, string>>;
  /** The exit codes that are a finished run rather than a failed one; only 0 unless given. */
  readonly exits?: readonly number[];
  readonly deadlineMs?: number;
}

export function childEnv(settings: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('OPENWOP_')) env[name] = value;
  }
  return { ...env, ...settings };
}

/** One child from spawn to exit: its wall milliseconds and the exit code it ended with. */
export function runTimed({
  args,
  cwd,
  settings,
  exits = [0],
  deadlineMs = CHILD_DEADLINE_MS,
}: TimedProcess): Promise<{ readonly elapsedMs: number; readonly exitCode: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: childEnv(settings),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const elapsedMs = performance.now() - started;
      if (code !== null && exits.includes(code)) resolve({ elapsedMs, exitCode: code });
      else reject(new Error(`${args.join(' ')} exited ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}

/** Wall milliseconds of one child, from spawn to exit. */
export async function timeProcess(run: TimedProcess): Promise<number> {
  return (await runTimed(run)).elapsedMs;
}

/**
 * Runs `work` while `count` child processes spin on the CPU, as a shared CI runner is busy. `work`
 * starts once every spinner says it is spinning, so no sample pays for the spinners' own start;
 * the spinners are killed when it ends, however it ends.
 */
export async function underLoad<T>(count: number, work: () => Promise<T>): Promise<T> {
  const spinners = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'process.stdout.write("spinning"); for (;;) {}'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  try {
    await Promise.all(
      spinners.map(
        (spinner) =>
          new Promise<void>((resolve, reject) => {
            spinner.stdout.once('data', () => resolve());
            spinner.once('error', reject);
            spinner.once('exit', (code) => reject(new Error(`a spinner exited ${code}`)));
          }),
      ),
    );
    return await work();
  } finally {
    for (const spinner of spinners) spinner.kill('SIGKILL');
  }
}
