// A certificate claims only what its anchor proves: who vouches, for which address, as of when.
// Each row is a construction a security reviewer tried against docs/report.md's certifier
// procedure, numbered as the review numbered them, with the exact command a certifier runs
// and the first words of verify's last line. The forger builds everything here: its own keys, its
// own conformant host and a tiny discovery server of its own on 127.0.0.1:0, and it edits and
// re-signs reports with the suite's own signing and replay code, as docs/report.md lets anyone.

import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/cli.ts';
import { recordedFixtureLoader } from '../../cli/fixture-set.ts';
import { sidecarReader } from '../../lib/report/generated-sidecar.ts';
import { replayReport } from '../../lib/report/verify/replay.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { discoveryDigest, rowsDigest } from '../../lib/report/report.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { discoveryServer, writeKeyPair, type KeyPair } from '../support/forger-kit.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { certificationFixtures } from '../support/certification-pack.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';
import { paced } from '../support/machine-pace.ts';

/**
 * The runs side by side share this process with their hosts, so on a busy machine a host can be
 * slow to answer; the request deadline is a hang guard here, far above the 10 s default, and no
 * verdict these tests expect depends on it.
 */
const ENV = { OPENWOP_API_KEY: LEAKY_KEY, OPENWOP_REQUEST_TIMEOUT_MS: '60000' };
const DAY = 24 * 60 * 60 * 1000;
/** The victim the forger impersonates: a name the forger's own host does not carry. */
const VICTIM = { name: 'acme-host', version: '1.2.0' };

let dir = '';
let forgerKey: KeyPair;
let victimKey: KeyPair;
let host: ReferenceHost | undefined;
let hostUrl = '';
/** The forger's own discovery server: the victim's name, the forger's key. */
let impostor: Server | undefined;
let impostorUrl = '';
/** The forger's genuine strict, signed report of its own conformant host, and its folder. */
let own: EvalGateReport;
let ownDir = '';
/** The forger's strict, signed run of the embedded reference host: no host of its own at all. */
let embedded: EvalGateReport;
let embeddedDir = '';

const pair = (name: string): Promise<KeyPair> => writeKeyPair(dir, name);

beforeAll(async () => {
  dir = await scratchDir();
  [forgerKey, victimKey] = await Promise.all([pair('forger'), pair('victim')]);
  host = await startReferenceHost({
    apiKey: LEAKY_KEY,
    extraFixturesDirs: [await certificationFixtures()],
    signingKey: { keyId: 'host-1', publicKey: forgerKey.raw },
  });
  hostUrl = host.url;
  ownDir = join(dir, 'own');
  const run = await cli(
    [
      ...['run', '--base-url', hostUrl, '--require-behavior', '--report-dir', ownDir],
      ...['--sign', forgerKey.pem, '--key-id', 'host-1'],
    ],
    ENV,
  );
  expect(run.code, run.stderr.join('\n')).toBe(0);
  own = await readReport(ownDir);
  embeddedDir = join(dir, 'embedded');
  const alone = await cli(
    [
      ...['run', '--require-behavior', '--report-dir', embeddedDir],
      ...['--sign', forgerKey.pem, '--key-id', 'host-1'],
    ],
    ENV,
  );
  expect(alone.code, alone.stderr.join('\n')).toBe(0);
  embedded = await readReport(embeddedDir);
  ({ server: impostor, url: impostorUrl } = await discoveryServer({
    implementation: VICTIM,
    signingKeys: [{ keyId: 'host-1', alg: 'ed25519', publicKey: forgerKey.raw }],
  }));
  // Several signed runs side by side: a hang guard, stretched by the pace of a busy machine.
}, paced(120_000));

afterAll(async () => {
  impostor?.close();
  await host?.close();
  await removeDir(dir);
});

function withoutSignature(report: EvalGateReport): EvalGateReport {
  return Object.fromEntries(
    Object.entries(report).filter(([member]) => member !== 'signature'),
  ) as unknown as EvalGateReport;
}

/** Edit, recompute every digest and the certification, sign again: what docs/report.md allows. */
function forge(
  edit: (unsigned: EvalGateReport) => EvalGateReport,
  key: KeyPair = forgerKey,
  keyId = 'host-1',
  from: EvalGateReport = own,
): EvalGateReport {
  const edited = edit(withoutSignature(from));
  return certifiedReport(
    {
      ...edited,
      digests: {
        ...edited.digests,
        discovery: discoveryDigest(edited.discovery),
        rows: rowsDigest(edited.requirements),
      },
    },
    key.privateKey,
    keyId,
  );
}

/** The victim's name in the target and in the captured discovery the target is derived from. */
function named(implementation: { name: string; version: string }) {
  return (r: EvalGateReport): EvalGateReport => {
    if (!r.discovery.ok) throw new Error('the run captured no discovery');
    const document = JSON.parse(r.discovery.text) as Record<string, unknown>;
    return {
      ...r,
      target: { ...r.target, implementation },
      discovery: { ok: true, text: JSON.stringify({ ...document, implementation }) },
    };
  };
}

/** The forger's key published in the captured discovery under `keyId`, so the run's record agrees. */
function publishing(keyId: string) {
  return (r: EvalGateReport): EvalGateReport => {
    if (!r.discovery.ok) throw new Error('the run captured no discovery');
    const document = JSON.parse(r.discovery.text) as Record<string, unknown>;
    const signingKeys = [{ keyId, alg: 'ed25519', publicKey: forgerKey.raw }];
    return { ...r, discovery: { ok: true, text: JSON.stringify({ ...document, signingKeys }) } };
  };
}

function retargeted(url: string) {
  return (r: EvalGateReport): EvalGateReport => ({ ...r, target: { ...r.target, baseUrl: url } });
}

function dated(finishedAt: number) {
  return (r: EvalGateReport): EvalGateReport => ({
    ...r,
    startedAt: new Date(finishedAt - 60_000).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
  });
}

function keyring(name: string, entries: readonly Record<string, unknown>[]): Promise<string> {
  const path = join(dir, name);
  const keys = entries.map((e) => ({ alg: 'ed25519', ...e }));
  return writeFile(path, JSON.stringify({ signingKeys: keys })).then(() => path);
}

function sidecarOf(report: EvalGateReport): string | undefined {
  const pack = report.requirements.find((r) => r.generated !== undefined)?.generated;
  return pack !== undefined && 'sidecar' in pack ? pack.sidecar.sha256 : undefined;
}

/** Writes the report beside its pack's sidecar, as a verifier receives both. */
async function written(name: string, report: EvalGateReport): Promise<string> {
  const folder = join(dir, 'written', name);
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'eval-gate-report.json');
  await writeFile(path, JSON.stringify(report));
  const pack = report.requirements.find((r) => r.generated !== undefined)?.generated;
  if (pack !== undefined && 'sidecar' in pack) {
    const from = sidecarOf(own) === pack.sidecar.sha256 ? ownDir : embeddedDir;
    await copyFile(join(from, pack.sidecar.file), join(folder, pack.sidecar.file));
  }
  return path;
}

/**
 * The forger's own report opting out of a capability its host advertises, every row rebuilt by
 * the suite's own replay so the record is consistent, then re-signed.
 */
async function optedOutOfAdvertised(): Promise<EvalGateReport> {
  const edited: EvalGateReport = {
    ...withoutSignature(own),
    optedOut: [...own.optedOut, 'agents.evalSuite.trials'],
  };
  const { rebuilt } = await replayReport(
    edited,
    recordedFixtureLoader(edited.digests.fixtures),
    sidecarReader(ownDir),
  );
  return certifiedReport(withoutSignature(rebuilt), forgerKey.privateKey, 'host-1');
}

interface Row {
  /** The construction, and the number for it. */
  readonly name: string;
  readonly report: () => EvalGateReport | Promise<EvalGateReport>;
  /** What follows `verify REPORT` on the certifier's command line. */
  readonly flags: () => readonly string[] | Promise<readonly string[]>;
  /** The first words of verify's last line. */
  readonly lastLine: () => string;
  readonly exit: number;
  /** Whether badge may show this report bright green (only under the address the certifier gave). */
  readonly green?: boolean;
}

const ROWS: readonly Row[] = [
  {
    name: '1: plain verify asks the address the forger wrote, its own server naming the victim',
    report: () => forge((r) => retargeted(impostorUrl)(named(VICTIM)(r))),
    flags: () => [],
    lastLine: () =>
      `report-chosen address: integrity only, key host-1 is published at ${impostorUrl}, the address the report names`,
    exit: 0,
  },
  {
    name: '1: the same from an embedded run, with no host at all',
    report: () =>
      forge(
        (r) => ({
          ...retargeted(impostorUrl)(publishing('host-1')(named(VICTIM)(r))),
          target: { baseUrl: impostorUrl, embedded: false, implementation: VICTIM },
        }),
        forgerKey,
        'host-1',
        embedded,
      ),
    flags: () => [],
    lastLine: () =>
      `report-chosen address: integrity only, key host-1 is published at ${impostorUrl}, the address the report names`,
    exit: 0,
  },
  {
    name: '2: --host the author supplied certifies that address, and the line names it first',
    report: () => forge((r) => retargeted(impostorUrl)(named(VICTIM)(r))),
    flags: () => ['--host', impostorUrl],
    lastLine: () => `certified: ${impostorUrl} advertising acme-host 1.2.0 (signed by key host-1)`,
    exit: 0,
    green: true,
  },
  {
    name: "2: --key with the author's key is integrity under that key",
    report: () => forge(named(VICTIM)),
    flags: () => ['--key', forgerKey.publicPem],
    lastLine: () =>
      `integrity under the key file ${forgerKey.publicPem}: a key file binds no implementation`,
    exit: 0,
  },
  {
    name: "3: a keyring entry without implementation lets another vendor's key certify nothing",
    report: () => forge((r) => publishing('vendor-b')(named(VICTIM)(r)), forgerKey, 'vendor-b'),
    flags: async () => [
      '--trusted-keys',
      await keyring('vendors.json', [
        { keyId: 'acme-1', publicKey: victimKey.raw, implementation: 'acme-host' },
        { keyId: 'vendor-b', publicKey: forgerKey.raw },
      ]),
    ],
    lastLine: () => 'integrity under key vendor-b of the keyring',
    exit: 0,
  },
  {
    name: '4: a retired key certifies nothing, however early the signer dates the report',
    report: () =>
      forge(
        (r) =>
          publishing('acme-2025')(
            dated(Date.now() - 60 * DAY)(named({ name: 'acme-host', version: '1.3.0' })(r)),
          ),
        forgerKey,
        'acme-2025',
      ),
    flags: async () => [
      '--trusted-keys',
      await keyring('retired.json', [
        {
          keyId: 'acme-2025',
          publicKey: forgerKey.raw,
          implementation: 'acme-host',
          retiredAt: new Date(Date.now() - 30 * DAY).toISOString(),
        },
      ]),
    ],
    lastLine: () => 'retired key: integrity only, key acme-2025 of the keyring',
    exit: 0,
  },
  {
    name: '4: a report dated after now is refused',
    report: () => forge(dated(Date.parse('2099-01-01T00:00:00.000Z'))),
    flags: () => ['--host', hostUrl],
    lastLine: () => 'FAILED: ',
    exit: 1,
  },
  {
    name: '4: --max-age makes an older report stale',
    report: () => forge(dated(Date.now() - 90 * DAY)),
    flags: () => ['--host', hostUrl, '--max-age', '30'],
    lastLine: () => 'stale: the report is dated',
    exit: 0,
  },
  {
    name: '7: an opt-out of a capability the captured discovery advertises is not certified',
    report: optedOutOfAdvertised,
    flags: () => ['--host', hostUrl],
    lastLine: () => 'verified, not certified, as of',
    exit: 0,
  },
];

describe('each construction, with the command a certifier runs', () => {
  it.each(ROWS)('$name', async (row) => {
    const path = await written(row.name.replace(/\W+/g, '-'), await row.report());
    const flags = await row.flags();
    const verify = await cli(['verify', path, ...flags]);
    const lines = [...verify.stdout, ...verify.stderr].join('\n');
    expect(verify.stdout.at(-1) ?? '', lines).toMatch(new RegExp(`^${escaped(row.lastLine())}`));
    expect(verify.code, lines).toBe(row.exit);

    // badge takes the same flags and decides the same way.
    const badge = await cli(['badge', path, ...flags]);
    if (row.exit !== 0) {
      expect(badge.code).toBe(2);
    } else {
      const shown = JSON.parse(badge.stdout[0] ?? '{}') as { color?: string };
      expect(shown.color === 'brightgreen').toBe(row.green === true);
    }
  });
});

describe("verify reads a report's date against the clock it is given", () => {
  it('the same genuine report is current today and stale a hundred days on', async () => {
    const path = await written('genuine', own);
    const at = (now: number) => {
      const lines: string[] = [];
      return runCli(['verify', path, '--host', hostUrl, '--max-age', '30'], {
        log: (line) => lines.push(line),
        error: (line) => lines.push(line),
        env: {},
        now: () => now,
      }).then(() => lines.at(-1) ?? '');
    };
    const finished = Date.parse(own.finishedAt);
    expect(await at(finished + DAY / 2)).toMatch(
      new RegExp(
        `^certified: ${escaped(hostUrl)} advertising .*, as of ${escaped(own.finishedAt)}, 12 h old: `,
      ),
    );
    expect(await at(finished + 100 * DAY)).toMatch(
      new RegExp(
        `^stale: the report is dated ${escaped(own.finishedAt)}, 100 days old, older than --max-age 30 days`,
      ),
    );
  });
});

describe('a strict run refuses an opt-out of what the host advertises (construction 7)', () => {
  it('run --require-behavior --opt-out agents.evalSuite.trials: exit 2, one line', async () => {
    const run = await cli(
      [
        ...['run', '--base-url', hostUrl, '--require-behavior', '--report-dir', join(dir, 'opt')],
        ...['--opt-out', 'agents.evalSuite.trials'],
      ],
      ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --opt-out agents.evalSuite.trials: the host at ${hostUrl}/.well-known/openwop advertises that capability, and an opt-out excuses only a capability the host lacks; run without that opt-out, or stop advertising what the host does not do`,
    ]);
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
