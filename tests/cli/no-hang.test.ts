// Every path ends, and soon: an output folder under /proc (which exists but takes no folder) is
// refused in one line, and `--wait-for-host` stops at once when the host is up but speaks another
// protocol than the URL's scheme asks for, while a host that only hangs up is still waited for.
// Each bound is a small part of the wait the run was given, so a loaded machine does not matter.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliRun } from './support.ts';
import { cli, LEAKY_KEY, removeDir, scratchDir } from './support.ts';

/** What the run is told to wait; a mismatch must end it in well under a tenth of that. */
const WAIT_S = 120;
const AT_ONCE_MS = 12_000;

const TLS_DIR = fileURLToPath(new URL('../support/tls/', import.meta.url));

let dir = '';
let server: Server | undefined;
beforeEach(async () => {
  dir = await scratchDir();
});
afterEach(async () => {
  server?.close();
  server = undefined;
  await removeDir(dir);
});

async function listening(made: Server): Promise<string> {
  server = made;
  await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(made.address() as AddressInfo).port}`;
}

async function timed(argv: readonly string[]): Promise<CliRun & { readonly ms: number }> {
  const started = Date.now();
  const run = await cli(argv, { OPENWOP_API_KEY: LEAKY_KEY });
  return { ...run, ms: Date.now() - started };
}

async function waitedFor(baseUrl: string): Promise<CliRun & { readonly ms: number }> {
  return timed([
    'run',
    '--base-url',
    baseUrl,
    '--wait-for-host',
    String(WAIT_S),
    '--report-dir',
    join(dir, 'reports'),
  ]);
}

/** One line on stderr, exit 2, nothing of the key. */
function refusedInOneLine(run: CliRun): string {
  expect(run.code).toBe(2);
  expect(run.stderr).toHaveLength(1);
  expect(run.stderr[0]).not.toContain(LEAKY_KEY);
  return run.stderr[0] ?? '';
}

describe('an output folder under /proc', () => {
  it('run --report-dir /proc/nope is one line and exit 2, before any leg', async (ctx) => {
    if (!existsSync('/proc/self')) ctx.skip('no /proc on this system');
    const run = await timed(['run', '--report-dir', '/proc/nope']);
    expect(refusedInOneLine(run)).toBe(
      'openwop-eval-gate: the report directory /proc/nope cannot be written (ENOENT); give --report-dir a writable directory',
    );
    expect(run.stdout).toEqual([]);
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('fixtures --out /proc/nope is one line and exit 2, before a pack is generated', async (ctx) => {
    if (!existsSync('/proc/self')) ctx.skip('no /proc on this system');
    const run = await timed(['fixtures', '--out', '/proc/nope', '--generate', '10000']);
    expect(refusedInOneLine(run)).toBe(
      'openwop-eval-gate: --out /proc/nope could not be written (ENOENT)',
    );
    expect(run.stdout).toEqual([]);
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('matrix --out /proc/nope is one line and exit 2, before any report is verified', async (ctx) => {
    if (!existsSync('/proc/self')) ctx.skip('no /proc on this system');
    // A report that verifies, so only the folder can stop the matrix.
    const made = await cli(['run', '--report-dir', join(dir, 'reports')]);
    expect(made.code, made.stderr.join('\n')).toBe(0);
    const report = join(dir, 'reports', 'eval-gate-report.json');
    const run = await timed(['matrix', report, '--out', '/proc/nope', '--offline']);
    expect(refusedInOneLine(run)).toBe(
      'openwop-eval-gate: --out /proc/nope could not be written (ENOENT); give --out a writable folder',
    );
    expect(run.stdout).toEqual([]);
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });
});

describe("the CI's step files", () => {
  it.each(['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT'])(
    'a %s that cannot be written is one line and exit 2, before any leg',
    async (name) => {
      const file = join(dir, 'missing', 'step-file');
      const started = Date.now();
      const run = await cli(['run', '--report-dir', join(dir, 'reports')], { [name]: file });
      expect(refusedInOneLine(run)).toBe(
        `openwop-eval-gate: ${name} names ${file}, which cannot be written (ENOENT); point it at a writable file, or unset it`,
      );
      expect(run.stdout).toEqual([]);
      expect(existsSync(join(dir, 'reports', 'eval-gate-report.json'))).toBe(false);
      expect(Date.now() - started).toBeLessThan(AT_ONCE_MS);
    },
  );
});

describe('--wait-for-host and the wrong scheme', () => {
  it('https:// to a plain HTTP port stops at once and says TLS mismatch', async () => {
    const hostPort = await listening(createHttpServer((_request, response) => response.end('{}')));
    const run = await waitedFor(`https://${hostPort}`);
    expect(refusedInOneLine(run)).toBe(
      `openwop-eval-gate: the host at https://${hostPort} did not answer discovery (GET /.well-known/openwop: TLS mismatch: the port answered without TLS); if it serves plain HTTP, give http://${hostPort}`,
    );
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('http:// to a TLS port stops at once and says the port speaks TLS', async () => {
    const [key, cert] = await Promise.all([
      readFile(join(TLS_DIR, 'localhost.key.pem')),
      readFile(join(TLS_DIR, 'localhost.cert.pem')),
    ]);
    const hostPort = await listening(
      createHttpsServer({ key, cert }, (_request, response) => response.end('{}')),
    );
    const run = await waitedFor(`http://${hostPort}`);
    expect(refusedInOneLine(run)).toMatch(
      new RegExp(
        `^openwop-eval-gate: the host at http://${hostPort} did not answer discovery \\(GET /\\.well-known/openwop: [^)]+\\); TLS mismatch: the port speaks TLS; give https://${hostPort}$`,
      ),
    );
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('https:// to a host whose certificate is not trusted stops at once and names why', async () => {
    const [key, cert] = await Promise.all([
      readFile(join(TLS_DIR, 'localhost.key.pem')),
      readFile(join(TLS_DIR, 'localhost.cert.pem')),
    ]);
    const hostPort = await listening(
      createHttpsServer({ key, cert }, (_request, response) => response.end('{}')),
    );
    const run = await waitedFor(`https://${hostPort}`);
    expect(refusedInOneLine(run)).toBe(
      `openwop-eval-gate: the host at https://${hostPort} did not answer discovery (GET /.well-known/openwop: TLS handshake refused (DEPTH_ZERO_SELF_SIGNED_CERT)); the host is up, but the TLS handshake failed; for an untrusted certificate, give NODE_EXTRA_CA_CERTS the CA that signed it`,
    );
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('http:// to a port that answers in another protocol stops at once', async () => {
    const hostPort = await listening(
      createNetServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')),
    );
    const run = await waitedFor(`http://${hostPort}`);
    expect(refusedInOneLine(run)).toMatch(/; check the port: it answers, but not in HTTP$/);
    expect(run.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('a port that only hangs up, as a proxy before a starting host does, is waited for', async () => {
    let connections = 0;
    const hostPort = await listening(
      createNetServer((socket) => {
        connections += 1;
        socket.destroy();
      }),
    );
    const run = await timed([
      'run',
      '--base-url',
      `http://${hostPort}`,
      '--wait-for-host',
      '2',
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(refusedInOneLine(run)).toMatch(
      new RegExp(
        `^openwop-eval-gate: the host at http://${hostPort} did not answer discovery within 2 s \\(GET /\\.well-known/openwop: connection reset`,
      ),
    );
    // It asked again rather than stopping at the first hang-up (one request and one TLS probe).
    expect(connections).toBeGreaterThan(2);
  });
});
