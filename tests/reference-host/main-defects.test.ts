// The reference host as a command: `--defect` takes one comma list of defects that combine, and a
// start it cannot honour (an unknown, repeated or conflicting name, a second flag) is one line on
// stderr and exit 2, never a host that quietly serves fewer defects than it was asked for.

import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../../reference-host/defects.ts';
import { isolatedEnv } from '../cli/support.ts';
import { hostBin } from '../support/host-bin.ts';

/** No OPENWOP_* setting of the caller's reaches the host; the key is this file's own. */
const ENV = { ...isolatedEnv(), OPENWOP_API_KEY: 'main-defects-key-0246' };

function refused(args: readonly string[], env: Readonly<Record<string, string>> = ENV) {
  const result = spawnSync(process.execPath, [hostBin(), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...ENV, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the host, reads its listening line, and stops it. */
async function listeningLine(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  base: Readonly<Record<string, string | undefined>> = ENV,
): Promise<string> {
  const child = spawn(process.execPath, [hostBin(), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...base, ...env },
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no listening line within 20 s')), 20_000);
      child.stdout.once('data', (chunk: Buffer) => {
        clearTimeout(timer);
        resolve(chunk.toString('utf8').trimEnd());
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the host exited ${String(code)} before listening`));
      });
    });
  } finally {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

describe('reference host --defect', () => {
  it('starts with every defect of a comma list and says so', { timeout: 30_000 }, async () => {
    const line = await listeningLine(['--defect', 'cost-limit-dropped, latency-limit-dropped']);
    expect(line).toMatch(
      /^reference host listening on http:\/\/127\.0\.0\.1:\d+ \(defects cost-limit-dropped, latency-limit-dropped\)$/,
    );
  });

  it(
    'reads the same list from OPENWOP_REFERENCE_DEFECT when no flag is given',
    { timeout: 30_000 },
    async () => {
      const line = await listeningLine([], {
        OPENWOP_REFERENCE_DEFECT: 'content-leak,event-id-short',
      });
      expect(line).toMatch(/\(defects content-leak, event-id-short\)$/);
    },
  );

  it('refuses an unknown defect with exit 2 and one line listing the valid ones', () => {
    const run = refused(['--defect', 'cost-limit-dropped,latency-limit']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('unknown defect "latency-limit"; valid defects: ');
    for (const d of DEFECTS) expect(run.stderr).toContain(d.name);
  });

  it('refuses a defect named twice with exit 2 and one line', () => {
    const run = refused(['--defect', 'p95-as-mean,p95-as-mean']);
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'reference host: defect p95-as-mean is named twice (--help prints the usage)',
    ]);
  });

  it('refuses a second --defect flag rather than letting one of them win', () => {
    const run = refused(['--defect', 'cost-limit-dropped', '--defect', 'latency-limit-dropped']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'reference host: --defect is given 2 times; name every defect in one comma list (--help prints the usage)',
    ]);
  });

  it('refuses a conflicting pair with exit 2, naming the defect that would hide the other', () => {
    const run = refused(['--defect', 'cursor-inclusive,cursor-ignored']);
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'reference host: defects cursor-inclusive and cursor-ignored conflict: with cursor-ignored, ' +
        'afterSequence is not read at all, so cursor-inclusive could not show (--help prints the usage)',
    ]);
  });

  it('refuses an unknown defect from the environment the same way', () => {
    const run = refused([], { OPENWOP_REFERENCE_DEFECT: 'nope' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^reference host: unknown defect "nope"; valid defects: /);
  });
});

describe('reference host authentication', () => {
  const KEYLESS = isolatedEnv();

  it('refuses to start without a key, in one line naming --api-key and OPENWOP_API_KEY, exit 2', () => {
    const result = spawnSync(process.execPath, [hostBin()], {
      encoding: 'utf8',
      timeout: 30_000,
      env: KEYLESS,
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--api-key');
    expect(lines[0]).toContain('OPENWOP_API_KEY');
    expect(lines[0]).toContain('--no-auth');
  });

  it('starts with the key from OPENWOP_API_KEY alone', { timeout: 30_000 }, async () => {
    const line = await listeningLine([], { OPENWOP_API_KEY: 'from-the-environment' }, KEYLESS);
    expect(line).toMatch(/^reference host listening on http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('starts keyless only when --no-auth asks for it', { timeout: 30_000 }, async () => {
    const line = await listeningLine(['--no-auth'], {}, KEYLESS);
    expect(line).toMatch(/^reference host listening on http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses --no-auth beside a key, which would leave it unclear which is meant', () => {
    const run = refused(['--no-auth']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^reference host: --no-auth accepts every request; .*\n$/);
  });
});
