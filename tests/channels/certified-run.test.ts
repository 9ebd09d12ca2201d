// The one certified row, end to end: the reference host started as its own process publishes the
// public half of a signing key in discovery; a strict run signed with the private half is
// certified on every channel, and `verify` rebuilds that verdict. The same host then shows that
// configuration errors end a run in one line with exit 2, before any leg.

import { generateKeyPairSync } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import { currentSet } from '../../lib/requirement-sets.ts';
import {
  cli,
  dateless,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  verifiedAt,
} from '../cli/support.ts';
import type { CliRun } from '../cli/support.ts';
import { junitProblems } from './support.ts';
import { releaseAttachments } from '../docs/publishing-section.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHostProcess } from '../support/host-process.ts';

const KEY_ID = 'ref-host-2026';
/** What the reference host advertises in discovery, which a certificate names. */
const IMPL = 'openwop-reference-host 0.2.0';

let dir = '';
let host: HostProcess | undefined;
let url = '';

beforeAll(async () => {
  dir = await scratchDir();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await writeFile(join(dir, 'host.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, 'host.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  // Seeded as a host team seeds: every file `fixtures --out` writes, the generated pack a
  // certification drives among them.
  const seeded = join(dir, 'fixtures');
  expect((await cli(['fixtures', '--out', seeded])).code).toBe(0);
  host = await startHostProcess([
    '--api-key',
    LEAKY_KEY,
    '--signing-key',
    join(dir, 'host.pub.pem'),
    '--key-id',
    KEY_ID,
    '--fixtures-dir',
    seeded,
  ]);
  url = host.url;
}, 30_000);

afterAll(async () => {
  await host?.close();
  await removeDir(dir);
});

/**
 * The clean strict run signed by the key the host publishes, run once: the first test reads every
 * channel of it, and the second compares a fork's unsigned run with it as the certified base.
 */
let certified: Promise<CliRun> | undefined;
const CERTIFIED = (): string => join(dir, 'certified');
const GITHUB_OUTPUT = (): string => join(dir, 'github-output');
function certifiedRun(): Promise<CliRun> {
  const env = { OPENWOP_API_KEY: LEAKY_KEY, GITHUB_OUTPUT: GITHUB_OUTPUT() };
  const args = ['run', '--base-url', url, '--require-behavior', '--report-dir', CERTIFIED()];
  certified ??= cli([...args, '--sign', join(dir, 'host.pem'), '--key-id', KEY_ID], env);
  return certified;
}

describe('a clean strict run, signed by the key the host publishes', () => {
  it('is certified on the closing line, the summary, the badge and the step outputs, and verifies', async () => {
    const reportDir = CERTIFIED();
    const outputs = GITHUB_OUTPUT();
    const run = await certifiedRun();
    expect(run.code, run.stdout.join('\n')).toBe(0);
    expect(run.stdout.at(-1)).toBe(
      `PASS; ${LEGS.length + 1} passed, 0 failed, 0 blocked, 0 skipped; certified: ${IMPL} (signed by key ${KEY_ID})`,
    );
    const report = await readReport(reportDir);
    const pack = report.requirements.find((r) => r.id === GENERATED_REQUIREMENT);
    expect([pack?.disposition, pack?.generated?.count, pack?.generated?.seed]).toEqual([
      'executed-pass',
      currentSet().pack.count,
      currentSet().pack.seed,
    ]);
    expect(report.certification).toEqual({
      certified: true,
      reasons: [],
      optOuts: [],
      signer: { state: 'verified', keyId: KEY_ID },
    });
    const summary = await readFile(join(reportDir, 'eval-gate-summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe(
      `Result: PASS (exit 0); certified: ${IMPL} (signed by key ${KEY_ID})`,
    );
    expect(await readFile(outputs, 'utf8')).toContain(`certified=true\nimplementation=${IMPL}\n`);
    const junit = await readFile(join(reportDir, 'eval-gate-junit.xml'), 'utf8');
    expect(await junitProblems(junit)).toEqual([]);
    expect(junit).toContain('failures="0" errors="0"');
    // The certifier names the host's address: the address the report names anchors nothing.
    const badge = await cli(['badge', join(reportDir, 'eval-gate-report.json'), '--host', url]);
    expect(JSON.parse(badge.stdout[0] ?? '')).toMatchObject({
      label: `OpenWOP eval gate: ${IMPL}`,
      message: `RFC 0246 certified ${LEGS.length + 1}/${LEGS.length + 1}`,
      color: 'brightgreen',
    });
    expect(junit).toContain(
      `<property name="implementation.name" value="openwop-reference-host"/>`,
    );
    const verify = await cli(['verify', join(reportDir, 'eval-gate-report.json'), '--host', url]);
    expect(verify.code).toBe(0);
    const shown = verify.stdout.map(dateless);
    expect(shown).toContain(
      `anchor: vouched for by key ${KEY_ID} of the live discovery at ${url} (given with --host for the report's ${url})`,
    );
    expect(shown).toContain(
      `certification: certified: ${url} advertising ${IMPL} (signed by key ${KEY_ID})`,
    );
    expect(verify.stdout.at(-1)).toMatch(/^certified: /);
    const plain = await cli(['verify', join(reportDir, 'eval-gate-report.json')]);
    expect(plain.stdout.at(-1)).toMatch(/^report-chosen address: integrity only, /);
    expect(verify.stdout.join('\n')).not.toContain(LEAKY_KEY);
  }, 60_000);

  it("the files docs/ci.md's release workflow attaches verify where they are published, as the report does where it was written", async () => {
    expect((await certifiedRun()).code).toBe(0);
    // The workflow runs with --report-dir reports in the job's folder; here that is CERTIFIED().
    const published = join(dir, 'release-assets');
    await mkdir(published);
    for (const file of releaseAttachments()) {
      expect(file, 'an attachment from outside --report-dir reports').toMatch(/^reports\/[^/]+$/);
      await copyFile(join(CERTIFIED(), basename(file)), join(published, basename(file)));
    }
    const verified = (folder: string) =>
      verifiedAt(join(folder, 'eval-gate-report.json'), ['--host', url]);
    const there = await verified(published);
    expect(there).toEqual(await verified(CERTIFIED()));
    expect(there.stdout.at(-1)).toMatch(/^certified: /);
  }, 60_000);

  it('a run with no signing key (a fork pull request) compared with the certified base: certification not compared, a notice, no regression', async () => {
    const env = { OPENWOP_API_KEY: LEAKY_KEY };
    const strict = ['run', '--base-url', url, '--require-behavior', '--report-dir'];
    expect((await certifiedRun()).code).toBe(0);
    expect((await cli([...strict, join(dir, 'fork')], env)).code).toBe(0);
    const paths = [CERTIFIED(), join(dir, 'fork')].map((d) => join(d, 'eval-gate-report.json'));
    const diff = await cli(['diff', ...paths, '--host', url]);
    expect(diff.code).toBe(0);
    expect(diff.stdout[0]).toBe(
      'notice: certification not compared: this run had no signing key (the base is certified; an unsigned run cannot be)',
    );
    expect(diff.stdout.join('\n')).not.toContain('CERTIFICATION LOST');
    expect(diff.stdout.at(-1)).toMatch(/^no regression: /);
    const markdown = await cli(['diff', ...paths, '--host', url, '--format', 'markdown']);
    expect(markdown.stdout[0]).toBe(
      '## RFC 0246 eval gate: no regression (certification not compared: no signing key)',
    );
    expect(markdown.stdout[2]).toMatch(/^> \*\*Notice:\*\* certification not compared/);
  }, 120_000);

  it('signed with a key the host does not publish under that id, the run is refused before any leg', async () => {
    const reportDir = join(dir, 'foreign-key');
    const other = generateKeyPairSync('ed25519').privateKey;
    await writeFile(join(dir, 'other.pem'), other.export({ type: 'pkcs8', format: 'pem' }));
    const args = ['run', '--base-url', url, '--require-behavior', '--report-dir', reportDir];
    const run = await cli([...args, '--sign', join(dir, 'other.pem'), '--key-id', KEY_ID], {
      OPENWOP_API_KEY: LEAKY_KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --key-id ${KEY_ID}: discovery publishes another public key under ${KEY_ID} than the public half of --sign at ${url}/.well-known/openwop; publish the public half of --sign there under that id first, or sign with a key it publishes, so the report can verify as the host's`,
    ]);
    await expect(readReport(reportDir)).rejects.toThrow();
  }, 60_000);
});

/** A port that accepts TCP and never speaks: a TLS client there hears no handshake. */
async function silentPort(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end('not tls\r\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('configuration errors end the run before any leg, in one line with exit 2', () => {
  async function refused(
    args: readonly string[],
    env: Readonly<Record<string, string>>,
  ): Promise<string> {
    const started = Date.now();
    const run = await cli(['run', '--report-dir', join(dir, 'never'), ...args], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).not.toContain(LEAKY_KEY);
    // Within seconds, not after the legs' deadlines (a margin for a loaded machine).
    expect(Date.now() - started).toBeLessThan(15_000);
    return run.stderr[0] ?? '';
  }

  it('a remote host without a key', async () => {
    expect(await refused(['--base-url', url], {})).toBe(
      `openwop-eval-gate: no API key for ${url}: set OPENWOP_API_KEY (the runs the legs create are authenticated)`,
    );
  });

  it('a key the host refuses with 401', async () => {
    expect(await refused(['--base-url', url], { OPENWOP_API_KEY: 'sk-wrong-key-0000' })).toMatch(
      new RegExp(
        `^openwop-eval-gate: the host at ${url} refused the API key \\(401 on GET /runs/.*\\); check OPENWOP_API_KEY$`,
      ),
    );
  });

  it('nothing listening', async () => {
    expect(
      await refused(['--base-url', 'http://127.0.0.1:1'], { OPENWOP_API_KEY: LEAKY_KEY }),
    ).toMatch(
      /^openwop-eval-gate: the host at http:\/\/127\.0\.0\.1:1 did not answer discovery \(GET \/\.well-known\/openwop: .*\); check the URL and its scheme/,
    );
  });

  it('https:// to a port that speaks plain text', async () => {
    const { server, port } = await silentPort();
    try {
      const target = `https://127.0.0.1:${port}`;
      expect(await refused(['--base-url', target], { OPENWOP_API_KEY: LEAKY_KEY })).toContain(
        `the host at ${target} did not answer discovery`,
      );
    } finally {
      server.close();
    }
  });

  it('a report directory that cannot be written', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const run = await cli(['run', '--base-url', url, '--report-dir', join(file, 'reports')], {
      OPENWOP_API_KEY: LEAKY_KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: the report directory ${join(file, 'reports')} cannot be written (ENOTDIR); give --report-dir a writable directory`,
    ]);
  });

  it('a base URL given but empty, in the environment', async () => {
    expect(await refused([], { OPENWOP_BASE_URL: '' })).toMatch(
      /^openwop-eval-gate: OPENWOP_BASE_URL is set but empty/,
    );
  });

  it('--wait-for-host says it waits, then gives up with the same one line', async () => {
    const run = await cli(
      [
        'run',
        '--base-url',
        'http://127.0.0.1:1',
        '--wait-for-host',
        '1',
        '--report-dir',
        join(dir, 'never'),
      ],
      { OPENWOP_API_KEY: LEAKY_KEY },
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([
      'waiting up to 1 s for http://127.0.0.1:1/.well-known/openwop to answer',
    ]);
    expect(run.stderr[0]).toMatch(/did not answer discovery within 1 s/);
  });
});
