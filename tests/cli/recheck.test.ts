// `verify --host URL --recheck`: a report held to what the live host answers now. A host that signs
// its own report can edit what it recorded, let the replay rebuild a consistent report and sign it
// again; only asking the host again shows the record false. Each forgery here is made the way such
// a host would make it: edit, rebuild with the suite's own replay, sign with the key it publishes.

import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedFixtureLoader } from '../../cli/fixture-set.ts';
import { sidecarReader } from '../../lib/report/generated-sidecar.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { replayReport } from '../../lib/report/verify/replay.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHostProcess } from '../support/host-process.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { certificationFixtures } from '../support/certification-pack.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const KEY_ID = 'host-1';
const NEAR_MISS = 'near-miss-last-character';

const kept = keepAddresses();
let dir = '';
let key: KeyObject;
let pem = '';
const hosts: HostProcess[] = [];
let clean: HostProcess;
let bypass: HostProcess;
let broken: HostProcess;
let relabelling: Server | undefined;
let relabellingUrl = '';
let genuine: EvalGateReport;
let bypassed: EvalGateReport;

async function signedRun(url: string, name: string): Promise<EvalGateReport> {
  const reportDir = join(dir, name);
  await cli(
    [
      'run',
      '--base-url',
      url,
      '--require-behavior',
      '--report-dir',
      reportDir,
      '--sign',
      pem,
      '--key-id',
      KEY_ID,
    ],
    ENV,
  ).then((run) => expect(run.stderr).toEqual([]));
  const report = await readReport(reportDir);
  const blocked = report.requirements.filter((r) => r.disposition === 'blocked');
  expect(blocked.map((r) => `${r.id}: ${r.reason ?? ''}`)).toEqual([]);
  return report;
}

/** What a host that signs its own report does: edit, rebuild by the replay, sign again. */
async function forge(
  report: EvalGateReport,
  folder: string,
  edit: (r: EvalGateReport) => EvalGateReport,
): Promise<EvalGateReport> {
  const edited = edit(report);
  const { rebuilt } = await replayReport(
    edited,
    recordedFixtureLoader(edited.digests.fixtures),
    sidecarReader(join(dir, folder)),
  );
  const unsigned = Object.fromEntries(
    Object.entries(rebuilt).filter(([member]) => member !== 'signature'),
  ) as unknown as EvalGateReport;
  return certifiedReport(unsigned, key, KEY_ID);
}

/** Writes `report` beside the run's own (its pack's sidecar is there) and verifies it. */
async function verify(folder: string, report: EvalGateReport, flags: readonly string[]) {
  const path = join(dir, folder, `verified-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify(report));
  return cli(['verify', path, ...flags], ENV);
}

/**
 * A front for the broken host that advertises another version: the release a relabelled report
 * claims. Every request is passed on as it came; discovery's implementation version is rewritten.
 */
async function relabellingFront(to: string, version: string): Promise<string> {
  relabelling = createServer((req, res) => {
    const upstream = httpRequest(
      `${to}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        if (req.url !== '/.well-known/openwop') {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            implementation: { version: string };
          };
          doc.implementation.version = version;
          const body = JSON.stringify(doc);
          res.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relabelling?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(relabelling.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = await scratchDir();
  const pair = generateKeyPairSync('ed25519');
  key = pair.privateKey;
  pem = join(dir, 'host.pem');
  await writeFile(pem, key.export({ type: 'pkcs8', format: 'pem' }));
  const publicPem = join(dir, 'host.pub.pem');
  await writeFile(publicPem, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  const seeded = await certificationFixtures();
  // Each host its own process, as a host under test is: its answers never wait on this worker.
  const start = async (defect?: string): Promise<HostProcess> => {
    const host = await startHostProcess([
      ...['--api-key', LEAKY_KEY, '--signing-key', publicPem, '--key-id', KEY_ID],
      ...['--fixtures-dir', seeded],
      ...(defect === undefined ? [] : ['--defect', defect]),
    ]);
    hosts.push(host);
    return host;
  };
  [clean, bypass, broken] = await Promise.all([
    start(),
    start('key-last-character-unchecked'),
    start('passed-count-wrong'),
  ]);
  relabellingUrl = await relabellingFront(broken.url, '0.3.0');
  // One after the other: two runs at once on a busy machine starve each other.
  genuine = await signedRun(clean.url, 'genuine');
  bypassed = await signedRun(bypass.url, 'bypassed');
}, 180_000);

afterAll(async () => {
  relabelling?.close();
  await Promise.all(hosts.map((h) => h.close()));
  await removeDir(dir);
});

describe('verify --recheck', () => {
  it('re-witnesses a genuine report: certified, and the certificate says it was re-witnessed', async () => {
    const plain = await verify('genuine', genuine, ['--host', clean.url]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.at(-1)).toMatch(
      /^certified: .*\(the host's own record; re-witness with --recheck\)$/,
    );
    const run = await verify('genuine', genuine, ['--host', clean.url, '--recheck']);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContainEqual(
      expect.stringMatching(
        /^recheck: re-witnessed at http:\/\/127\.0\.0\.1:\d+ on .*each the same$/,
      ),
    );
    expect(run.stdout.at(-1)).toMatch(
      /^certified: .*\(re-witnessed at http:\/\/127\.0\.0\.1:\d+ on [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\)$/,
    );
    // The pack was spot-checked too, eight cases by default.
    const sample = run.stdout.find((l) => l.startsWith('recheck sample: '));
    expect(sample?.split(', ')).toHaveLength(8);
    expect(run.stdout.join('\n')).not.toContain(LEAKY_KEY);
  }, 120_000);

  it('refuses a near-miss answer the bypass served (404) edited to 401 and re-signed, naming the probe', async () => {
    const recorded = bypassed.hostChecks?.probes.find((p) => p.probe === NEAR_MISS);
    expect(recorded).toMatchObject({ outcome: 'answered' });
    const status = recorded?.outcome === 'answered' ? recorded.status : 0;
    expect([401, 403]).not.toContain(status);
    const forged = await forge(bypassed, 'bypassed', (r) => {
      const checks = r.hostChecks;
      if (checks === undefined) throw new Error('the run recorded no host checks');
      const probes = checks.probes.map((p) =>
        p.probe === NEAR_MISS && p.outcome === 'answered' ? { ...p, status: 401 } : p,
      );
      return { ...r, hostChecks: { ...checks, probes } };
    });
    // The replay cannot tell: the forged report verifies and certifies on the host's own record.
    const plain = await verify('bypassed', forged, ['--host', bypass.url]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.at(-1)).toMatch(/^certified: /);
    const run = await verify('bypassed', forged, ['--host', bypass.url, '--recheck']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContainEqual(
      `recheck: the host at ${bypass.url} now answers otherwise than the report recorded (1 difference); first: host check ${NEAR_MISS}: status: recorded answered 401, now answered ${status}`,
    );
    expect(run.stdout.at(-1)).toMatch(/^verified, not certified(?::|, as of) /);
    expect(run.stdout).toContainEqual(
      expect.stringMatching(/^certification: not certified: host answers otherwise, as of /),
    );
  }, 120_000);

  it('refuses a good release relabelled as the broken one the host now runs, naming the first member', async () => {
    const relabelled = await forge(genuine, 'genuine', (r) => ({
      ...r,
      target: { ...r.target, baseUrl: relabellingUrl },
      discovery: r.discovery.ok
        ? { ok: true, text: r.discovery.text.replace('"version":"0.2.0"', '"version":"0.3.0"') }
        : r.discovery,
    }));
    expect(relabelled.target.implementation?.version).toBe('0.3.0');
    const plain = await verify('genuine', relabelled, ['--host', relabellingUrl]);
    expect(plain.stdout.at(-1)).toMatch(/^certified: /);
    const run = await verify('genuine', relabelled, ['--host', relabellingUrl, '--recheck']);
    expect(run.code).toBe(1);
    const line = run.stdout.find((l) => l.startsWith('recheck: '));
    expect(line).toMatch(/; first: row [^:]+: summary\.passedCount: recorded \d+, now \d+$/);
    expect(run.stdout.at(-1)).toMatch(/^verified, not certified(?::|, as of) /);
  }, 120_000);

  it('a host that does not answer is not re-witnessed (exit 3), never called false', async () => {
    const url = await kept.dropping();
    const run = await verify('genuine', genuine, ['--host', url, '--recheck']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContainEqual(expect.stringMatching(/^recheck: not re-witnessed at /));
    expect(run.stdout.at(-1)).not.toMatch(/^certified/);
  }, 60_000);

  it('does not recheck a report that does not verify, and says so', async () => {
    const edited = {
      ...genuine,
      requirements: genuine.requirements.map((r, i) =>
        i === 0 ? { ...r, durationMs: r.durationMs + 1 } : r,
      ),
    };
    const run = await verify('genuine', edited, ['--host', clean.url, '--recheck']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('recheck: not run: the report does not verify');
    expect(run.stdout.at(-1)).toMatch(/^FAILED: /);
  });

  it('is one line and exit 2 without --host, or with a sample out of range', async () => {
    const path = join(dir, 'genuine', 'eval-gate-report.json');
    const noHost = await cli(['verify', path, '--recheck'], ENV);
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toEqual([
      'openwop-eval-gate: --recheck drives the live host again: give --host URL, the address you know the host at',
    ]);
    const sample = await cli(
      ['verify', path, '--host', clean.url, '--recheck', '--recheck-sample', '5000'],
      ENV,
    );
    expect(sample.code).toBe(2);
    expect(sample.stderr[0]).toMatch(/--recheck-sample takes how many generated cases/);
    const alone = await cli(['verify', path, '--recheck-sample', '3'], ENV);
    expect(alone.code).toBe(2);
  });
});
