// A reader that closes stdout early (`| head -1`) ends the process quietly: no EPIPE trace, and
// the exit code the command's verdict gives, which is what `set -o pipefail` reports to CI.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, removeDir, scratchDir } from '../cli/support.ts';

const BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate.mjs', import.meta.url));

/** The CLI's exit status and stderr when its stdout is piped into `head -1`. */
function headed(args: readonly string[]): { status: string; stderr: string; first: string } {
  const quoted = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `"${process.execPath}" ${quoted} 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}"; cat "$ERR" >&2`;
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', script], {
    encoding: 'utf8',
    env: { ...isolatedEnv(), ERR: `${dir}/stderr-${args[0] ?? 'none'}.txt` },
    timeout: 120_000,
  });
  const lines = result.stdout.trimEnd().split('\n');
  return { first: lines[0] ?? '', status: lines.at(-1) ?? '', stderr: result.stderr };
}

let dir = '';
beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

describe('a closed stdout', () => {
  it('--help exits 0 without a trace', () => {
    const run = headed(['--help']);
    expect(run.first).toMatch(/^openwop-eval-gate: /);
    expect(run).toMatchObject({ status: 'status=0', stderr: '' });
  });

  it('fixtures exits 0 without a trace', () => {
    expect(headed(['fixtures'])).toMatchObject({ status: 'status=0', stderr: '' });
  });

  it('run exits with its verdict, writes its report, and diff of that report exits 0', () => {
    const run = headed(['run', '--report-dir', dir]);
    expect(run.first).toMatch(/^target: the embedded reference host/);
    expect(run).toMatchObject({ status: 'status=0', stderr: '' });
    const report = `${dir}/eval-gate-report.json`;
    expect(headed(['diff', report, report])).toMatchObject({ status: 'status=0', stderr: '' });
  }, 120_000);

  it('a failing verdict keeps its exit code through the pipe', () => {
    const run = headed(['verify', `${dir}/no-such-report.json`]);
    expect(run.status).toBe('status=2');
    expect(run.stderr).toMatch(/^openwop-eval-gate: the report .* could not be read \(ENOENT\)\n$/);
  });
});
