// The installed entry point, spawned: --help prints the settings, exit codes and an example, and
// a bad flag exits 2 with one line. Everything else is tested in-process.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate.mjs', import.meta.url));

function spawnBin(args: readonly string[]): {
  status: number | null;
  stdout: string;
  stderr: string;
} {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 25_000,
    // An empty environment: the entry point must not need anything from the caller's.
    env: {},
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bin/openwop-eval-gate.mjs', () => {
  it(
    '--help lists the settings, the exit codes and an example, and exits 0',
    { timeout: 40_000 },
    () => {
      const { status, stdout } = spawnBin(['--help']);
      expect(status).toBe(0);
      for (const text of [
        '--base-url',
        '--opt-out',
        '--sign',
        'OPENWOP_API_KEY',
        'Exit codes',
        'Example',
      ]) {
        expect(stdout).toContain(text);
      }
    },
  );

  it(
    'an unknown flag exits 2 with one line on stderr and nothing on stdout',
    { timeout: 40_000 },
    () => {
      const { status, stdout, stderr } = spawnBin(['run', '--bogus']);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toEqual([
        'openwop-eval-gate: unknown flag --bogus for "run"; its flags are --base-url, --require-behavior, --opt-out, --report-dir, --impl, --impl-version, --allow-insecure-key, --sign, --key-id, --expected-failures, --only, --skip, --requirements, --fail-on, --repeat, --wait-for-host, --budget, --generate, --seed, --case, --concurrency, --silent (see --help)',
      ]);
    },
  );
});

describe('each bin of the package', () => {
  const bins = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      bin: Record<string, string>;
    }
  ).bin;

  it.each(Object.entries(bins))(
    '%s --help names itself in its usage, as an installed package runs it',
    { timeout: 40_000 },
    (name, path) => {
      const result = spawnSync(
        process.execPath,
        [fileURLToPath(new URL(`../../${path}`, import.meta.url)), '--help'],
        {
          encoding: 'utf8',
          timeout: 25_000,
          env: {},
        },
      );
      expect(result.status).toBe(0);
      const usage = result.stdout.split('\n').slice(0, 4).join('\n');
      expect(usage).toMatch(new RegExp(`(^|\\s)${name} \\[`, 'm'));
      expect(usage).not.toMatch(/usage:\s+npm run/i);
    },
  );
});
