// The reference host as its own process (`bin/openwop-eval-gate-host.mjs`), for tests whose client blocks
// this process (a spawnSync) or that must see the host as a CI job sees it: another program.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOST_BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate-host.mjs', import.meta.url));

export interface HostProcess {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the host with `args` and resolves with its URL once it prints its listening line. */
export async function startHostProcess(args: readonly string[]): Promise<HostProcess> {
  const child = spawn(process.execPath, [HOST_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the reference host printed no listening line within 20 s'));
    }, 20_000);
    child.stdout.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString('utf8'));
      if (match?.[1] === undefined) reject(new Error(`unexpected line: ${chunk.toString()}`));
      else resolve(match[1]);
    });
  });
  return {
    url,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
