// Forgeries a host team's security reviewer would try, each refused by verify, badge and diff
// with its reason named, beside the genuine path they imitate. A forger here follows
// docs/report.md to the letter: edits a report, recomputes every digest and the certification,
// and signs it again, with a key of its own published by a host of its own. Only a key found
// outside the report that the certifier names (a live discovery at --host URL, a keyring entry
// bound to the implementation) tells the two apart; tests/cli/certificate-forgeries.test.ts holds
// what the report's own address, a key file and an unbound entry come to.

import type { Server } from 'node:http';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { discoveryDigest, rowsDigest } from '../../lib/report/report.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { discoveryServer, writeKeyPair, type KeyPair } from '../support/forger-kit.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { certificationFixtures } from '../support/certification-pack.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { cli, dateless, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';
import { paced } from '../support/machine-pace.ts';

/**
 * The runs side by side share this process with their hosts, so on a busy machine a host can be
 * slow to answer; the request deadline is a hang guard here, far above the 10 s default, and no
 * verdict these tests expect depends on it.
 */
const ENV = { OPENWOP_API_KEY: LEAKY_KEY, OPENWOP_REQUEST_TIMEOUT_MS: '60000' };
const IMPL = 'openwop-reference-host 0.2.0';

let dir = '';
let victimKey: KeyPair;
let forgerKey: KeyPair;
let secondKey: KeyPair;
let victim: ReferenceHost | undefined;
let forger: ReferenceHost | undefined;
/** The victim's address, kept apart so the table can name it before the host starts. */
let victimUrl = '';
/** The victim's report of a run it signed, verified live and while it is down. */
let genuine: EvalGateReport;
let genuinePath = '';
/** A genuine report of a host that is no longer up, with its keyring. */
let offline: EvalGateReport;
let offlineUrl = '';
/** The forger's own genuine, certified report of its own host. */
let forgersOwn: EvalGateReport;
let embedded: EvalGateReport;
let upgraded: Server | undefined;
let upgradedUrl = '';

const pair = (name: string): Promise<KeyPair> => writeKeyPair(dir, name);
// The down host's address stays this file's, so "down" never turns into another file's host.
const kept = keepAddresses();

async function signedRun(url: string | undefined, key: KeyPair, keyId: string, name: string) {
  const reportDir = join(dir, name);
  const target = url === undefined ? [] : ['--base-url', url, '--require-behavior'];
  const run = await cli(
    ['run', ...target, '--report-dir', reportDir, '--sign', key.pem, '--key-id', keyId],
    ENV,
  );
  expect(run.code, run.stderr.join('\n')).toBe(0);
  const report = await readReport(reportDir);
  const pack = report.requirements.find((r) => r.generated !== undefined)?.generated;
  if (pack !== undefined && 'sidecar' in pack) {
    sidecars.set(pack.sidecar.sha256, join(reportDir, pack.sidecar.file));
  }
  return report;
}

/** The pack sidecars the runs wrote, by digest: a report written elsewhere takes its own along. */
const sidecars = new Map<string, string>();

beforeAll(async () => {
  dir = await scratchDir();
  [victimKey, forgerKey, secondKey] = await Promise.all([
    pair('victim'),
    pair('forger'),
    pair('second'),
  ]);
  // Each host seeds the pack a strict run drives, as a host that wants a certificate does.
  const seeded = [await certificationFixtures()];
  victim = await startReferenceHost({
    apiKey: LEAKY_KEY,
    extraFixturesDirs: seeded,
    signingKey: [
      { keyId: 'host-1', publicKey: victimKey.raw },
      { keyId: 'host-2', publicKey: secondKey.raw },
    ],
  });
  victimUrl = victim.url;
  forger = await startReferenceHost({
    apiKey: LEAKY_KEY,
    extraFixturesDirs: seeded,
    signingKey: { keyId: 'host-1', publicKey: forgerKey.raw },
  });
  const gone = await kept.goingDown({
    apiKey: LEAKY_KEY,
    extraFixturesDirs: seeded,
    signingKey: { keyId: 'host-1', publicKey: victimKey.raw },
  });
  offlineUrl = gone.url;
  [genuine, forgersOwn, embedded, offline] = await Promise.all([
    signedRun(victimUrl, victimKey, 'host-1', 'genuine'),
    signedRun(forger.url, forgerKey, 'host-1', 'forgers-own'),
    signedRun(undefined, forgerKey, 'host-1', 'embedded'),
    signedRun(gone.url, victimKey, 'host-1', 'offline'),
  ]);
  await gone.down();
  genuinePath = join(dir, 'genuine', 'eval-gate-report.json');
  await writeKeyring('victim-keyring.json', [
    { keyId: 'host-1', publicKey: victimKey.raw, implementation: 'openwop-reference-host' },
  ]);
  ({ server: upgraded, url: upgradedUrl } = await discoveryServer({
    implementation: { name: 'openwop-reference-host', version: '0.3.0' },
    signingKeys: [{ keyId: 'host-1', alg: 'ed25519', publicKey: victimKey.raw }],
  }));
  // Several signed runs side by side: a hang guard, stretched by the pace of a busy machine.
}, paced(120_000));

afterAll(async () => {
  await Promise.all([victim?.close(), forger?.close()]);
  upgraded?.close();
  await removeDir(dir);
});

async function writeKeyring(name: string, keys: readonly Record<string, unknown>[]) {
  const path = join(dir, name);
  await writeFile(
    path,
    JSON.stringify({ signingKeys: keys.map((k) => ({ alg: 'ed25519', ...k })) }),
  );
  return path;
}

function withoutSignature(report: EvalGateReport): EvalGateReport {
  return Object.fromEntries(
    Object.entries(report).filter(([member]) => member !== 'signature'),
  ) as unknown as EvalGateReport;
}

/** What a forger does: edit, recompute every digest and the certification, sign again. */
function forge(
  report: EvalGateReport,
  edit: (unsigned: EvalGateReport) => EvalGateReport,
  key: KeyPair,
  keyId: string,
): EvalGateReport {
  const edited = edit(withoutSignature(report));
  const redigested: EvalGateReport = {
    ...edited,
    digests: {
      ...edited.digests,
      discovery: discoveryDigest(edited.discovery),
      rows: rowsDigest(edited.requirements),
    },
  };
  return certifiedReport(redigested, key.privateKey, keyId);
}

function retarget(url: string): (r: EvalGateReport) => EvalGateReport {
  return (r) => ({ ...r, target: { ...r.target, baseUrl: url, embedded: false } });
}

async function written(name: string, report: EvalGateReport): Promise<string> {
  const folder = join(dir, 'written', name);
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${name}.json`);
  await writeFile(path, JSON.stringify(report));
  const pack = report.requirements.find((r) => r.generated !== undefined)?.generated;
  const sidecar = pack !== undefined && 'sidecar' in pack ? pack.sidecar : undefined;
  const from = sidecar === undefined ? undefined : sidecars.get(sidecar.sha256);
  if (sidecar !== undefined && from !== undefined) {
    await copyFile(from, join(folder, sidecar.file));
  }
  return path;
}

interface Forgery {
  readonly name: string;
  readonly report: () => EvalGateReport | Promise<EvalGateReport>;
  /** Flags for verify, badge and diff alike. */
  readonly flags?: () => Promise<readonly string[]> | readonly string[];
  /** Refused outright (exit 1 from verify, no badge, no diff), or only not certified. */
  readonly refused: boolean;
  readonly headline: RegExp;
  readonly says: string | (() => string);
}

const FORGERIES: readonly Forgery[] = [
  {
    name: 'a re-signed report with its target rewritten, the named host up',
    report: () => forge(forgersOwn, retarget(victimUrl), forgerKey, 'host-1'),
    refused: true,
    headline: /^FAILED: /,
    says: () =>
      `signature INVALID: signature.value: does not verify with key host-1 of the live discovery at ${victimUrl}`,
  },
  {
    name: 'a re-signed report with its target rewritten, the named host down',
    report: () => forge(forgersOwn, retarget(offlineUrl), forgerKey, 'host-1'),
    refused: false,
    headline: /^unanchored: integrity only, no key outside the report vouches for it, as of /,
    says: 'no discovery was read',
  },
  {
    name: 'the same, checked against the pinned keyring while the host is down',
    report: () => forge(forgersOwn, retarget(offlineUrl), forgerKey, 'host-1'),
    flags: async () => ['--trusted-keys', join(dir, 'victim-keyring.json')],
    refused: true,
    headline: /^FAILED: /,
    says: 'signature INVALID: signature.value: does not verify with key host-1 of the keyring',
  },
  {
    name: 'a key injected into the captured discovery',
    report: () =>
      forge(
        genuine,
        (r) => {
          if (!r.discovery.ok) throw new Error('no captured discovery');
          const document = JSON.parse(r.discovery.text) as Record<string, unknown>;
          const injected = { keyId: 'forger-1', alg: 'ed25519', publicKey: forgerKey.raw };
          const text = JSON.stringify({
            ...document,
            signingKeys: [...(document.signingKeys as unknown[]), injected],
          });
          return { ...r, discovery: { ok: true, text } };
        },
        forgerKey,
        'forger-1',
      ),
    refused: false,
    headline:
      /^unattributed: integrity only, key forger-1 is not among the live discovery at .*, as of /,
    says: 'key forger-1 is not among the live discovery at',
  },
  {
    name: 'a key retired before the report was signed',
    report: () => genuine,
    flags: async () => [
      '--trusted-keys',
      await writeKeyring('retired.json', [
        { keyId: 'host-1', publicKey: victimKey.raw, retiredAt: '2026-01-01T00:00:00Z' },
      ]),
    ],
    refused: false,
    headline: /^unattributed: /,
    says: 'key host-1 was retired at 2026-01-01T00:00:00Z, at or before the report was signed',
  },
  {
    name: 'a key id swapped for another the host publishes',
    report: () => ({
      ...genuine,
      signature: {
        ...(genuine.signature ?? { algorithm: 'ed25519', reportDigest: '', value: '' }),
        keyId: 'host-2',
      },
    }),
    refused: true,
    headline: /^FAILED: /,
    says: 'signature INVALID: signature.value: does not verify with key host-2 of the live discovery',
  },
  {
    name: 'an embedded-host report with its target rewritten',
    report: () => forge(embedded, retarget(victimUrl), forgerKey, 'host-1'),
    refused: true,
    headline: /^FAILED: /,
    says: 'signature INVALID',
  },
  {
    name: 'a genuine signature over another report',
    report: () => ({
      ...forge(forgersOwn, retarget(victimUrl), forgerKey, 'host-1'),
      ...(genuine.signature === undefined ? {} : { signature: genuine.signature }),
    }),
    refused: true,
    headline: /^FAILED: /,
    says: 'signature.reportDigest: recorded',
  },
  {
    name: 'an old certified report presented for a newer implementation version',
    report: () => genuine,
    flags: () => ['--host', upgradedUrl],
    refused: false,
    headline: /^verified, not certified, as of /,
    says: () =>
      `stale: the report certifies ${IMPL}, and the live discovery at ${upgradedUrl} (given with --host for the report's ${victimUrl}) now advertises openwop-reference-host 0.3.0`,
  },
  {
    name: 'a keyring that binds the key to another implementation',
    report: () => genuine,
    flags: async () => [
      '--trusted-keys',
      await writeKeyring('bound.json', [
        { keyId: 'host-1', publicKey: victimKey.raw, implementation: 'another-host' },
      ]),
    ],
    refused: false,
    // The last line says what the anchor line says, not that the host publishes no key.
    headline:
      /^unattributed: integrity only, the keyring .*bound\.json binds key host-1 to another-host, but the report certifies openwop-reference-host, as of /,
    says: 'binds key host-1 to another-host, but the report certifies openwop-reference-host',
  },
];

describe('the genuine path', () => {
  it('a signed strict run against a host that publishes its key verifies as certified, live at the address the certifier gives', async () => {
    const run = await cli(['verify', genuinePath, '--host', victimUrl]);
    expect(run.code).toBe(0);
    expect(run.stdout.map(dateless)).toContain(
      `anchor: vouched for by key host-1 of the live discovery at ${victimUrl} (given with --host for the report's ${victimUrl})`,
    );
    expect(run.stdout.at(-1)).toMatch(
      new RegExp(`^certified: ${victimUrl} advertising ${IMPL} \\(signed by key host-1\\), as of `),
    );
    // The same key at the address the report names vouches for the report's integrity only.
    const plain = await cli(['verify', genuinePath]);
    expect(plain.stdout.at(-1)).toMatch(/^report-chosen address: integrity only, /);
    const badge = await cli(['badge', genuinePath, '--host', victimUrl]);
    expect(JSON.parse(badge.stdout[0] ?? '')).toEqual({
      schemaVersion: 1,
      label: `OpenWOP eval gate: ${IMPL}`,
      // Every leg and the generated pack the strict run drove.
      message: `RFC 0246 certified ${LEGS.length + 1}/${LEGS.length + 1}`,
      color: 'brightgreen',
    });
  });

  it('and with the pinned keyring while the host is down', async () => {
    const path = await written('offline', offline);
    const live = await cli(['verify', path]);
    expect(live.stdout.at(-1)).toMatch(/^unanchored: /);
    const pinned = await cli(['verify', path, '--trusted-keys', join(dir, 'victim-keyring.json')]);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout.at(-1)).toMatch(/^certified: /);
    expect(pinned.stdout.map(dateless)).toContain(
      `certification: certified: ${IMPL} under key host-1 of the keyring ${join(dir, 'victim-keyring.json')}, bound to openwop-reference-host (signed by key host-1)`,
    );
  });

  it("the forger's own report certifies the forger's own host, and names its address", async () => {
    const path = await written('forgers-own', forgersOwn);
    const run = await cli(['verify', path, '--host', forger?.url ?? '']);
    expect(run.stdout.at(-1)).toMatch(new RegExp(`^certified: ${forger?.url ?? ''} advertising `));
  });
});

describe('forgeries are refused by verify, badge and diff, the reason named', () => {
  it.each(FORGERIES)('$name', async (forgery) => {
    const path = await written(forgery.name.replace(/\W+/g, '-'), await forgery.report());
    const flags = (await forgery.flags?.()) ?? [];
    const says = typeof forgery.says === 'function' ? forgery.says() : forgery.says;

    const verify = await cli(['verify', path, ...flags]);
    const lines = [...verify.stdout, ...verify.stderr].join('\n');
    expect(verify.code, lines).toBe(forgery.refused ? 1 : 0);
    expect(verify.stdout.at(-1)).toMatch(forgery.headline);
    expect(lines).toContain(says);
    expect(lines).not.toMatch(/^certified/m);

    const badge = await cli(['badge', path, ...flags]);
    if (forgery.refused) {
      expect(badge.code).toBe(2);
      expect(badge.stderr[0]).toContain('does not verify, so badge refuses it');
    } else {
      expect(badge.code).toBe(0);
      const shown = JSON.parse(badge.stdout[0] ?? '') as { message: string; color: string };
      expect(shown.color).not.toBe('brightgreen');
      expect(shown.message).toContain('not certified');
    }

    // The genuine report as the base, the forgery as the pull request's run.
    const diff = await cli(['diff', genuinePath, path, ...flags]);
    if (forgery.refused) {
      expect(diff.code).toBe(2);
      expect(diff.stderr[0]).toContain('does not verify, so diff refuses it');
    } else if (flags[0] === '--host') {
      expect(diff.code).toBe(0);
    } else {
      // Under a source that does not certify the base either (the address the report names, a
      // keyring that does not vouch), there is no certification to lose.
      expect(diff.stdout.join('\n')).not.toContain('CERTIFICATION LOST');
    }
  });
});

describe('a source that cannot be used as given is one line and exit 2, never a verdict', () => {
  it.each([
    [['--key', 'k.pem', '--trusted-keys', 'k.json'], 'give --key or --trusted-keys, not both'],
    [['--host', 'not-a-url'], '--host takes an http(s) URL, such as --host https://host.example'],
    [['--host', 'http://h', '--offline'], '--host names the live host to read the key from'],
    [['--trusted-keys', 'missing.json'], 'the keyring missing.json could not be read (ENOENT)'],
    [
      ['--max-age', '0'],
      '--max-age takes whole days from 1 to 36500, such as --max-age 30; got "0"',
    ],
    [['--max-age', '1.5'], '--max-age takes whole days from 1 to 36500'],
  ])('%j', async (flags, message) => {
    const run = await cli(['verify', genuinePath, ...flags]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toContain(message);
  });

  it('a keyring that is not JSON, or holds no signingKeys list', async () => {
    const notJson = join(dir, 'not-json.json');
    await writeFile(notJson, 'keys:');
    expect((await cli(['verify', genuinePath, '--trusted-keys', notJson])).stderr).toEqual([
      `openwop-eval-gate: the keyring ${notJson} is not JSON`,
    ]);
    const noList = join(dir, 'no-list.json');
    await writeFile(noList, '{"keys": []}');
    const run = await cli(['badge', genuinePath, '--trusted-keys', noList]);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toContain(`the keyring ${noList} holds no signingKeys list`);
  });
});
