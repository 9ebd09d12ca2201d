// A reader that closes stdout early (`| head -1`) ends the process quietly: no EPIPE trace, and
// the exit code the command's verdict gives, which is what `set -o pipefail` reports to CI.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, removeDir, scratchDir } from '../cli/support.ts';
import { runProcess } from '../support/process.ts';

const BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate.mjs', import.meta.url));
/** A fresh CLI process, a run of every leg against the embedded host included. */
const PROCESS_BOUND_MS = 120_000;

interface Headed {
  readonly status: string;
  readonly stderr: string;
  readonly first: string;
}

/** The CLI's exit status and stderr when its stdout is piped into `head -1`. */
async function headed(args: readonly string[]): Promise<Headed> {
  const quoted = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `"${process.execPath}" ${quoted} 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}"; cat "$ERR" >&2`;
  const { stdout, stderr } = await runProcess('bash', ['-o', 'pipefail', '-c', script], {
    env: { ...isolatedEnv(), ERR: `${dir}/stderr-${args[0] ?? 'none'}-${args.length}.txt` },
    deadlineMs: PROCESS_BOUND_MS - 10_000,
  });
  const lines = stdout.trimEnd().split('\n');
  return { first: lines[0] ?? '', status: lines.at(-1) ?? '', stderr };
}

let dir = '';
beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

// Side by side: each test waits on processes of its own.
describe.concurrent('a closed stdout', () => {
  it('--help exits 0 without a trace', async () => {
    const run = await headed(['--help']);
    expect(run.first).toMatch(/^openwop-eval-gate: /);
    expect(run).toMatchObject({ status: 'status=0', stderr: '' });
  });

  it('fixtures exits 0 without a trace', async () => {
    expect(await headed(['fixtures'])).toMatchObject({ status: 'status=0', stderr: '' });
  });

  it(
    'run exits with its verdict, writes its report, and diff of that report exits 0',
    async () => {
      const run = await headed(['run', '--report-dir', dir]);
      expect(run.first).toMatch(/^target: the embedded reference host/);
      expect(run).toMatchObject({ status: 'status=0', stderr: '' });
      const report = `${dir}/eval-gate-report.json`;
      expect(await headed(['diff', report, report])).toMatchObject({
        status: 'status=0',
        stderr: '',
      });
    },
    PROCESS_BOUND_MS,
  );

  it('a failing verdict keeps its exit code through the pipe', async () => {
    const run = await headed(['verify', `${dir}/no-such-report.json`]);
    expect(run.status).toBe('status=2');
    expect(run.stderr).toMatch(/^openwop-eval-gate: the report .* could not be read \(ENOENT\)\n$/);
  });
});
