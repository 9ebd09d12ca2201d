// `openwop-eval-gate verify`: a fresh report verifies; each kind of edit is caught and named;
// signatures round-trip; a report whose leaked content was redacted still verifies.

import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { fixtureDigest } from '../../lib/report/canonical.ts';
import { rowsDigest, totalsOf } from '../../lib/report/report.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { LEGS } from '../../lib/legs.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import {
  cli,
  dateless,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  verifyWritten,
} from './support.ts';

const MEAN = 'openwop.requirement.0246.mean-gated';
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';

const kept = keepAddresses();
let dir = '';
let signed: EvalGateReport;
let leaky: EvalGateReport;
let leakyText = '';
let publicKeyPath = '';
let otherPublicKeyPath = '';

function pemPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

beforeAll(async () => {
  dir = await scratchDir();
  const pair = pemPair();
  await writeFile(join(dir, 'host.pem'), pair.privateKey);
  publicKeyPath = join(dir, 'host.pub.pem');
  await writeFile(publicKeyPath, pair.publicKey);
  otherPublicKeyPath = join(dir, 'other.pub.pem');
  await writeFile(otherPublicKeyPath, pemPair().publicKey);

  const signedRun = await cli([
    'run',
    '--report-dir',
    join(dir, 'signed'),
    '--sign',
    join(dir, 'host.pem'),
    '--key-id',
    'host-1',
  ]);
  expect(signedRun.code).toBe(0);
  signed = await readReport(join(dir, 'signed'));

  const host = await kept.host({ apiKey: LEAKY_KEY, defect: 'content-leak' });
  const leakyRun = await cli(['run', '--base-url', host.url, '--report-dir', join(dir, 'leaky')], {
    OPENWOP_API_KEY: LEAKY_KEY,
  });
  expect(leakyRun.code).toBe(1);
  leakyText = await readFile(join(dir, 'leaky', 'eval-gate-report.json'), 'utf8');
  leaky = JSON.parse(leakyText) as EvalGateReport;
});

afterAll(async () => {
  await removeDir(dir);
});

/** Writes an edited copy of a report and verifies it. */
async function verifyEdited(
  report: EvalGateReport,
  edit: (copy: Record<string, unknown> & EvalGateReport) => void,
  extra: readonly string[] = [],
): Promise<{ code: number; lines: readonly string[] }> {
  const copy = structuredClone(report) as Record<string, unknown> & EvalGateReport;
  edit(copy);
  return verifyWritten(dir, copy, extra);
}

type Mutable = Record<string, unknown>;

describe('verify', () => {
  it('accepts a fresh signed report with its public key', async () => {
    const run = await cli([
      'verify',
      join(dir, 'signed', 'eval-gate-report.json'),
      '--key',
      publicKeyPath,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.map(dateless)).toContain(
      `anchor: vouched for by the key file ${publicKeyPath}`,
    );
    // A key file binds no implementation, and the embedded host is never certified anyway.
    expect(run.stdout.at(-1)).toMatch(/^integrity under the key file /);
    expect(run.stdout.at(-1)).toContain(
      `: ${LEGS.length} rows recomputed, 0 checked for consistency only, every digest matches`,
    );
  });

  it('opens with which outcome holds, so "verified" never stands for an unsigned or unanchored report', async () => {
    const unsigned = await verifyEdited(leaky, () => undefined);
    expect(unsigned.code).toBe(0);
    expect(unsigned.lines.at(-1)).toMatch(
      /^unsigned: integrity only, nobody vouches for it, as of .*: .*every digest matches$/,
    );
    const noKey = await verifyEdited(signed, () => undefined);
    expect(noKey.code).toBe(0);
    expect(noKey.lines.at(-1)).toMatch(
      /^unanchored: integrity only, no key outside the report vouches for it, as of /,
    );
    const edited = await verifyEdited(signed, (copy) => {
      (copy.totals as Record<string, number>)['executed-pass'] = 0;
    });
    expect(edited.code).toBe(1);
    expect(edited.lines.at(-1)).toMatch(/^FAILED: .*: \d+ problems? \(.*\), as of /);
  });

  it('rejects a failing row edited to a pass, naming the row and its disposition', async () => {
    const { code, lines } = await verifyEdited(leaky, (copy) => {
      const row = copy.requirements.find(
        (r) => r.disposition === 'executed-fail',
      ) as unknown as Mutable;
      row.disposition = 'executed-pass';
      delete row.reason;
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^requirements\[id=openwop\.requirement\.0246\.[a-z-]+\]\.disposition: recorded "executed-pass", rebuilt "executed-fail"$/,
      ),
    );
    // The reason the edit removed is named too; the totals and the rows digest were left as the
    // run wrote them, and the replay rebuilds them as the run wrote them.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^requirements\[id=[a-z0-9.-]+\]\.reason: recorded nothing, rebuilt "\d MUST/,
      ),
    );
    expect(lines.filter((l) => l.startsWith('totals') || l.startsWith('digests'))).toEqual([]);
  });

  it('rejects a score edited in a recorded summary, naming the row and the rule that no longer holds', async () => {
    const { code, lines } = await verifyEdited(signed, (copy) => {
      const summary = copy.requirements.find((r) => r.id === MEAN)?.observation?.summary as {
        tasks: Mutable[];
      };
      (summary.tasks[0] as Mutable).score = 0;
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^requirements\\[id=${MEAN.replace(/\./g, '\\.')}\\]\\.disposition: recorded "executed-pass", rebuilt "executed-fail"$`,
        ),
      ),
    );
    const rule = lines.find((l) => /\.findings\[\d+\]\.ok: recorded true, rebuilt false$/.test(l));
    expect(rule).toBeDefined();
    expect(lines).toContainEqual(expect.stringContaining('task.score-unchanged'));
  });

  it('rejects an edited digest, naming the digest', async () => {
    const { code, lines } = await verifyEdited(signed, (copy) => {
      (copy.digests as unknown as Mutable).discovery = '0'.repeat(64);
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(/^digests\.discovery: recorded "0{64}", rebuilt "[0-9a-f]{64}"$/),
    );
  });

  it('rejects a report made with a different fixture file, naming the fixture', async () => {
    const other = await loadFixture('conformance-eval-trajectory-gate-any');
    if (!other.ok) throw new Error(other.reason);
    const { code, lines } = await verifyEdited(signed, (copy) => {
      (copy.digests.fixtures as Mutable)[MEAN_FIXTURE] = fixtureDigest(other.fixture);
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      `digests.fixtures.${MEAN_FIXTURE}: ${fixtureDigest(other.fixture)} is not in the shipped fixture set (it is the digest of another shipped fixture); the shipped ${MEAN_FIXTURE} digests to ${signed.digests.fixtures[MEAN_FIXTURE] ?? ''}, so the host ran a different fixture (openwop-eval-gate fixtures lists the set)`,
    );
  });

  it('names a fixture digest the shipped set does not have at all', async () => {
    const foreign = 'ab'.repeat(32);
    const { code, lines } = await verifyEdited(signed, (copy) => {
      (copy.digests.fixtures as Mutable)[MEAN_FIXTURE] = foreign;
      (copy.digests.fixtures as Mutable)['host-own-fixture'] = foreign;
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^digests\\.fixtures\\.${MEAN_FIXTURE}: ${foreign} is not in the shipped fixture set; the shipped`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      `digests.fixtures.host-own-fixture: ${foreign} is not in the shipped fixture set, which has no fixture host-own-fixture (openwop-eval-gate fixtures lists the set)`,
    );
  });

  it('rejects a row that claims another fixture, naming the row and fixtureId', async () => {
    const { code, lines } = await verifyEdited(signed, (copy) => {
      (copy.requirements.find((r) => r.id === MEAN) as unknown as Mutable).fixtureId =
        'conformance-eval-trajectory-gate-any';
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      `row ${MEAN}: fixtureId: recorded conformance-eval-trajectory-gate-any, the requirement drives ${MEAN_FIXTURE}`,
    );
  });

  it('rejects a tampered signature, a signature checked with another key, and an unsigned report given --key', async () => {
    const tampered = await verifyEdited(
      signed,
      (copy) => {
        const value = copy.signature?.value ?? '';
        (copy.signature as unknown as Mutable).value =
          `${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}`;
      },
      ['--key', publicKeyPath],
    );
    expect(tampered.code).toBe(1);
    expect(tampered.lines).toContain(
      `signature INVALID: signature.value: does not verify with the key file ${publicKeyPath}`,
    );

    const otherKey = await cli([
      'verify',
      join(dir, 'signed', 'eval-gate-report.json'),
      '--key',
      otherPublicKeyPath,
    ]);
    expect(otherKey.code).toBe(1);
    expect(otherKey.stdout).toContain(
      `signature INVALID: signature.value: does not verify with the key file ${otherPublicKeyPath}`,
    );

    const unsigned = await cli([
      'verify',
      join(dir, 'leaky', 'eval-gate-report.json'),
      '--key',
      publicKeyPath,
    ]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain(
      'signature INVALID: the report is unsigned but a key was given',
    );
  });

  it('rejects a signed report edited outside the digested rows, by its signature', async () => {
    const { code, lines } = await verifyEdited(
      signed,
      (copy) => {
        (copy as Mutable).strict = true;
      },
      ['--key', publicKeyPath],
    );
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^signature\.reportDigest: recorded "[0-9a-f]{64}", rebuilt "[0-9a-f]{64}"$/,
      ),
    );
  });

  it('rejects a pass forged on a row with no observation, even with its digests and totals recomputed', async () => {
    // A host that refuses every create leaves rows with one failing run.served and nothing
    // observed; a pass there would be a verdict on host data the report does not hold.
    const host = await kept.host({ apiKey: LEAKY_KEY, defect: 'create-refused' });
    const run = await cli(['run', '--base-url', host.url, '--report-dir', join(dir, 'refused')], {
      OPENWOP_API_KEY: LEAKY_KEY,
    });
    expect(run.code).toBe(1);
    const refused = await readReport(join(dir, 'refused'));
    const { code, lines } = await verifyEdited(refused, (copy) => {
      const row = copy.requirements.find((r) => r.id === MEAN) as unknown as Mutable;
      expect(row.observation).toBeUndefined();
      row.disposition = 'executed-pass';
      delete row.reason;
      row.findings = [
        { rule: 'run.served', ok: true, severity: 'MUST', ref: 'contract §6', message: 'served' },
      ];
      (copy as Mutable).totals = totalsOf(copy.requirements);
      (copy.digests as unknown as Mutable).rows = rowsDigest(copy.requirements);
    });
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      `row ${MEAN}: 1 finding(s) but no observation; without one only a host fault (one failing run.served) can be recorded`,
    );
  });

  it('keeps a leaked content key but not its value, and the redacted report still verifies', async () => {
    expect(leakyText).toContain('"output": "[redacted]"');
    expect(leakyText).not.toContain('merged into');
    const failed = leaky.requirements.flatMap((r) =>
      r.findings.filter((f) => !f.ok).map((f) => f.rule),
    );
    expect(new Set(failed)).toEqual(new Set(['content-free', 'events.payload-schema']));
    const run = await cli(['verify', join(dir, 'leaky', 'eval-gate-report.json')]);
    expect(run.code).toBe(0);
  });

  it('exits 2 for a report that cannot be read', async () => {
    const run = await cli(['verify', join(dir, 'missing.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: the report ${join(dir, 'missing.json')} could not be read (ENOENT)`,
    ]);
  });
});
