// A recognisable API key runs through whole conformance runs: against a healthy host, a defective
// one, an unreachable one and one that redirects to another origin. It must never surface in
// anything the suite prints or writes, in any reason it gives, nor at any origin but the target's.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runConformance } from '../cli/conformance.ts';
import { resolveConfig } from '../lib/env.ts';
import { startReferenceHost } from '../reference-host/index.ts';
import type { DefectName } from '../reference-host/index.ts';
import { startHostileHost } from './support/hostile-host.ts';
import { sendJson, startScriptedServer } from './support/scripted-server.ts';
import { MIN_SECRET_LENGTH, REDACTED, scrubKeyAndToken, scrubText } from '../lib/secrets.ts';
import { cli } from './cli/support.ts';

const KEY = 'sk-test-DO-NOT-LEAK-4242';
const MEAN = 'openwop.requirement.0246.mean-gated';

let reportDir = '';
beforeEach(async () => {
  reportDir = await mkdtemp(join(tmpdir(), 'eval-gate-secrets-'));
});
afterEach(async () => {
  await rm(reportDir, { recursive: true, force: true });
});

interface Captured {
  readonly exitCode: number;
  /** Everything logged and everything written to stdout and stderr during the run. */
  readonly output: string;
  /** Path and content of every file under the report directory. */
  readonly files: ReadonlyMap<string, string>;
  readonly rows: readonly { id: string; disposition: string; reason?: string }[];
}

/** Runs the whole suite in-process against `baseUrl` with the key, capturing every output. */
async function conformance(baseUrl: string, key = KEY): Promise<Captured> {
  const config = resolveConfig({
    OPENWOP_BASE_URL: baseUrl,
    OPENWOP_API_KEY: key,
    OPENWOP_REPORT_DIR: reportDir,
    OPENWOP_REQUEST_TIMEOUT_MS: '2000',
    OPENWOP_RUN_TIMEOUT_MS: '8000',
    OPENWOP_POLL_TIMEOUT_S: '1',
  });
  const chunks: string[] = [];
  const originals = { out: process.stdout.write, err: process.stderr.write };
  const tap =
    (original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      return (original as (c: unknown, ...r: unknown[]) => boolean).call(
        process.stdout,
        chunk,
        ...rest,
      );
    };
  process.stdout.write = tap(originals.out) as typeof process.stdout.write;
  process.stderr.write = tap(originals.err) as typeof process.stderr.write;
  let exitCode: number;
  try {
    ({ exitCode } = await runConformance(config, {
      log: (line) => chunks.push(line),
    }));
  } finally {
    process.stdout.write = originals.out;
    process.stderr.write = originals.err;
  }
  const files = new Map<string, string>();
  for (const name of await readdir(reportDir, { recursive: true })) {
    const path = join(reportDir, name);
    files.set(path, await readFile(path, 'utf8').catch(() => ''));
  }
  const report = JSON.parse(files.get(join(reportDir, 'eval-gate-report.json')) ?? '{}') as {
    requirements?: Captured['rows'];
  };
  return { exitCode, output: chunks.join('\n'), files, rows: report.requirements ?? [] };
}

function expectNoKey(run: Captured): void {
  expect(run.output).not.toContain(KEY);
  for (const [path, text] of run.files) expect(text, path).not.toContain(KEY);
  // Also the key's tell-tale fragments, in case it was cut, re-encoded or had its case flipped on
  // the way out (the near-miss probes send the key changed in those ways).
  expect(run.output.toUpperCase()).not.toContain('DO-NOT-LEAK');
  for (const [path, text] of run.files) {
    expect(text.toUpperCase(), path).not.toContain('DO-NOT-LEAK');
  }
}

describe('the API key never leaves the suite', () => {
  const hosts: readonly [string, DefectName | undefined, number][] = [
    ['a healthy reference host', undefined, 0],
    ['a reference host with a grading defect', 'unmigrated-0244', 1],
  ];
  it.each(hosts)(
    'a full run against %s prints and writes no trace of the key',
    async (_, defect, exit) => {
      const host = await startReferenceHost({
        apiKey: KEY,
        ...(defect === undefined ? {} : { defect }),
      });
      try {
        const run = await conformance(host.url);
        // The key was in play: the reference host answers 401 without it, which would block.
        expect(run.exitCode).toBe(exit);
        expect(run.rows.find((r) => r.id === MEAN)?.disposition).toBe(
          exit === 0 ? 'executed-pass' : 'executed-fail',
        );
        expect(run.files.size).toBeGreaterThan(0);
        // The capture works: the closing line of contract §10 was seen.
        expect(run.output).toMatch(/\d+ passed, \d+ failed, 0 blocked, \d+ skipped/);
        expectNoKey(run);
      } finally {
        await host.close();
      }
    },
  );

  it('an unreachable host ends the run before any leg, in a line that holds no key', async () => {
    const gone = await startScriptedServer(() => undefined);
    const url = gone.url;
    await gone.close();
    const refused = await conformance(url).then(
      () => 'the run started',
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(
      new RegExp(
        `^PreflightError: the host at ${url} did not answer discovery \\(.*connection refused\\)`,
      ),
    );
    expect(refused).not.toContain(KEY);
  });

  it('a host that echoes every bearer token it refuses shows none of the near-miss tokens made from the key', async () => {
    const host = await startHostileHost({
      routes: {
        create: (exchange) => {
          const sent = exchange.request.headers.authorization;
          if (sent === `Bearer ${KEY}`) return exchange.correct();
          return sendJson(exchange.response, 401, {
            error: 'unauthenticated',
            message: `refused ${String(sent)}`,
          });
        },
      },
    });
    try {
      const run = await conformance(host.url);
      const sent = host.requests.map((r) => r.headers.authorization ?? '');
      // The near-miss tokens went out, each the key missed one way, and came back in the bodies.
      expect(sent).toContain(`Bearer ${KEY}A`);
      expect(sent).toContain(`Bearer ${KEY.slice(0, -1)}A`);
      expect(sent).toContain(`Bearer ${KEY.slice(0, -1)}`);
      expect(
        sent.some(
          (a) => a !== `Bearer ${KEY}` && a.toUpperCase() === `BEARER ${KEY.toUpperCase()}`,
        ),
      ).toBe(true);
      expectNoKey(run);
    } finally {
      await host.close();
    }
  });

  it('a redirect to another origin is not followed, so that origin never receives the key', async () => {
    // The other origin would accept the run; the Location even quotes the key, so a suite that
    // echoed redirect targets into its reasons would leak it too.
    const elsewhere = await startScriptedServer((_, response) =>
      sendJson(response, 201, { runId: 'r' }),
    );
    const host = await startHostileHost({
      routes: {
        create: ({ response }) => {
          response.writeHead(307, { location: `${elsewhere.url}/runs?token=${KEY}` });
          response.end();
        },
      },
    });
    try {
      const run = await conformance(host.url);
      const mean = run.rows.find((r) => r.id === MEAN);
      expect(mean?.disposition).toBe('executed-fail');
      expect(mean?.reason).toMatch(/answered 307/);
      expect(elsewhere.requests).toHaveLength(0);
      expect(host.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
      expectNoKey(run);
    } finally {
      await host.close();
      await elsewhere.close();
    }
  });
});

describe('a key of realistic length works; what is refused is refused in one line', () => {
  // Upstream's example hosts are run with keys such as this one.
  const SHORT_KEY = 'sample-token';

  it('a 12-character key runs the whole suite, with no trace of it and nothing redacted that was not it', async () => {
    expect(SHORT_KEY).toHaveLength(12);
    const host = await startReferenceHost({ apiKey: SHORT_KEY });
    try {
      const run = await conformance(host.url, SHORT_KEY);
      // The key was in play: the reference host answers 401 without it, which would block.
      expect(run.exitCode).toBe(0);
      expect(run.rows.every((r) => r.disposition === 'executed-pass')).toBe(true);
      expect(run.output).toMatch(/\d+ passed, 0 failed, 0 blocked, 0 skipped/);
      expect(run.output).not.toContain(SHORT_KEY);
      // Nothing the suite said held the key, so a redaction anywhere would be garbled text.
      expect(run.output).not.toContain(REDACTED);
      expect(run.files.size).toBeGreaterThan(0);
      for (const [path, text] of run.files) {
        expect(text, path).not.toContain(SHORT_KEY);
        expect(text, path).not.toContain(REDACTED);
      }
    } finally {
      await host.close();
    }
  });

  it.each(['k', 'abc', 'seven77'])(
    'OPENWOP_API_KEY=%j exits 2 with one line that names its length and garbles nothing',
    async (key) => {
      const run = await cli(['run', '--base-url', 'http://example.test'], {
        OPENWOP_API_KEY: key,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toEqual([
        `openwop-eval-gate: OPENWOP_API_KEY is ${key.length} character${key.length === 1 ? '' : 's'} long; ` +
          `the suite needs at least ${MIN_SECRET_LENGTH}, because a shorter key matches ordinary words ` +
          'and could not be kept out of the output without garbling it',
      ]);
    },
  );

  it.each(['sample token', 'sample\ttoken', 'sample\u0000token', 'sample-tökenn'])(
    'OPENWOP_API_KEY=%j, which no Authorization header can carry, exits 2 with one line that does not quote it',
    async (key) => {
      const run = await cli(['run', '--base-url', 'http://example.test'], {
        OPENWOP_API_KEY: key,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toEqual([
        'openwop-eval-gate: OPENWOP_API_KEY holds a space, a control character or a non-ASCII character; ' +
          'an Authorization header cannot carry it, and the suite could not find it again to keep it out of its output',
      ]);
    },
  );

  it('a key of exactly the minimum length passes, so the next check speaks, with "loopback" whole', async () => {
    const key = 'k'.repeat(MIN_SECRET_LENGTH);
    const run = await cli(['run', '--base-url', 'http://example.test'], { OPENWOP_API_KEY: key });
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      'openwop-eval-gate: OPENWOP_API_KEY would travel unencrypted to http://example.test; use https, a loopback host, or set OPENWOP_ALLOW_INSECURE_KEY=true',
    ]);
  });

  it('the key pasted into another setting is refused, quoted only as [redacted]', async () => {
    const run = await cli(['run', '--impl', `acme ${KEY}`], { OPENWOP_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --impl holds the API key (acme ${REDACTED}); give the key only in OPENWOP_API_KEY`,
    ]);
  });

  it('scrubText replaces every occurrence of an accepted key, glued or not, and leaves a refused one alone', () => {
    expect(scrubText(`Bearer ${KEY}, again ${KEY}.`, KEY)).toBe(
      `Bearer ${REDACTED}, again ${REDACTED}.`,
    );
    expect(scrubText(`x${SHORT_KEY}y ?token=${SHORT_KEY}`, SHORT_KEY)).toBe(
      `x${REDACTED}y ?token=${REDACTED}`,
    );
    expect(scrubText('loopback', 'k')).toBe('loopback');
    expect(scrubText('a b', ' ')).toBe('a b');
  });

  it('scrubKeyAndToken replaces the longer first, so a token the key holds, or that holds the key, leaves no fragment', () => {
    const truncated = KEY.slice(0, -1);
    expect(scrubKeyAndToken(`${KEY} ${truncated}`, KEY, truncated)).toBe(`${REDACTED} ${REDACTED}`);
    expect(scrubKeyAndToken(`${KEY}A ${KEY}`, KEY, `${KEY}A`)).toBe(`${REDACTED} ${REDACTED}`);
    // A token short of the least key length is still replaced beside an accepted key.
    expect(scrubKeyAndToken('k3y-567', 'k3y-5678', 'k3y-567')).toBe(REDACTED);
    // Beside no key, or a refused one, the token is held to the key's own rule.
    expect(scrubKeyAndToken('loopback', undefined, 'k')).toBe('loopback');
    expect(scrubKeyAndToken('loopback', 'k', 'o')).toBe('loopback');
  });
});
