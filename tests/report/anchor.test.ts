// The anchor on literal reports: each outcome a source outside the report can give, the reasons a
// verifier adds to the run's certification, and the referee comparison. No host, no file.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TrustSource } from '../../lib/report/verify/anchor.ts';
import { anchoredVerdict, anchorSignature } from '../../lib/report/verify/anchor.ts';
import { differentReferee } from '../../lib/report/verify/referee.ts';
import type { Certification, EvalGateReport } from '../../lib/report/report.ts';
import { rawPublicKey, signReport } from '../../lib/report/verify/signature.ts';
import { reportOf } from '../cli/report-example.ts';

const KEY = generateKeyPairSync('ed25519');
const OTHER = generateKeyPairSync('ed25519');
const REFEREE = {
  name: 'openwop-eval-gate-conformance',
  version: '0.1.0',
  judgingDigest: 'a'.repeat(64),
};

const signed = signReport(
  reportOf([], { suite: REFEREE, finishedAt: '2026-06-01T00:00:00.000Z' }),
  KEY.privateKey,
  'host-1',
);
const entry = { keyId: 'host-1', alg: 'ed25519', publicKey: rawPublicKey(KEY.publicKey) };
const live = (document: unknown, namedBy: 'certifier' | 'report' = 'certifier'): TrustSource => ({
  kind: 'live',
  name: 'the live discovery at http://h',
  url: 'http://h',
  namedBy,
  read: { ok: true, document },
});
const keyring = (keys: unknown[]): TrustSource => ({
  kind: 'keyring',
  name: 'the keyring k',
  keys,
});
/** The verifier's clock: a day after the report's date. */
const NOW = Date.parse('2026-06-02T00:00:00.000Z');
const CERTIFIED: Certification = {
  certified: true,
  reasons: [],
  optOuts: [],
  signer: { state: 'verified', keyId: 'host-1' },
};

describe('anchorSignature', () => {
  it('vouches when the source publishes the key and the signature verifies under it', () => {
    expect(anchorSignature(signed, live({ signingKeys: [entry] }))).toEqual({
      state: 'anchored',
      source: 'the live discovery at http://h',
      keyId: 'host-1',
    });
    expect(anchorSignature(signed, keyring([entry])).state).toBe('anchored');
    expect(
      anchorSignature(signed, { kind: 'key-file', name: 'the key file p', key: KEY.publicKey }),
    ).toEqual({ state: 'anchored', source: 'the key file p' });
  });

  it('keeps no discovery read, a key not published and a signature that fails apart', () => {
    const down: TrustSource = {
      kind: 'live',
      name: 'the live discovery at http://h',
      url: 'http://h',
      namedBy: 'certifier',
      read: { ok: false, why: 'connection refused' },
    };
    expect(anchorSignature(signed, down)).toMatchObject({
      state: 'unanchored',
      why: 'no discovery was read: the live discovery at http://h could not be read (connection refused)',
    });
    expect(anchorSignature(signed, live({}))).toMatchObject({ state: 'unattributed' });
    expect(
      anchorSignature(signed, live({ signingKeys: [{ ...entry, keyId: 'host-9' }] })),
    ).toMatchObject({
      state: 'unattributed',
      why: "key host-1 is not among the live discovery at http://h's signingKeys (host-9)",
    });
    const swapped = { ...entry, publicKey: rawPublicKey(OTHER.publicKey) };
    expect(anchorSignature(signed, live({ signingKeys: [swapped] }))).toMatchObject({
      state: 'invalid',
    });
    expect(anchorSignature(signed, { kind: 'none', name: 'nothing' }).state).toBe('unanchored');
  });

  it('a retired key vouches only for what it signed before it retired', () => {
    const retired = (retiredAt: string) => keyring([{ ...entry, retiredAt }]);
    expect(anchorSignature(signed, retired('2026-06-01T00:00:01.000Z')).state).toBe('anchored');
    expect(anchorSignature(signed, retired('2026-06-01T00:00:00.000Z')).state).toBe('unattributed');
  });

  it('a keyring binding the key to another implementation does not vouch for this one', () => {
    expect(
      anchorSignature(signed, keyring([{ ...entry, implementation: 'acme-host' }])).state,
    ).toBe('anchored');
    expect(anchorSignature(signed, keyring([{ ...entry, implementation: 'other' }]))).toMatchObject(
      {
        state: 'unattributed',
        why: 'the keyring k binds key host-1 to other, but the report certifies acme-host',
      },
    );
  });

  it('an unsigned report is unsigned, except to a certifier who handed over a key', () => {
    const unsigned: EvalGateReport = reportOf([]);
    expect(anchorSignature(unsigned, keyring([entry])).state).toBe('unsigned');
    expect(
      anchorSignature(unsigned, { kind: 'key-file', name: 'the key file p', key: KEY.publicKey }),
    ).toMatchObject({ state: 'invalid', why: 'the report is unsigned but a key was given' });
  });
});

describe('anchoredVerdict', () => {
  it("keeps the run's certification only when anchored, judged by this referee and current", () => {
    const source = live({
      signingKeys: [entry],
      implementation: { name: 'acme-host', version: '1.2.0' },
    });
    expect(
      anchoredVerdict(signed, CERTIFIED, source, { referee: REFEREE, now: NOW }).certification
        .certified,
    ).toBe(true);
    const codes = (s: TrustSource, referee = REFEREE) =>
      anchoredVerdict(signed, CERTIFIED, s, { referee, now: NOW }).certification.reasons.map(
        (r) => r.code,
      );
    expect(codes({ kind: 'none', name: 'n' })).toEqual(['unanchored']);
    expect(codes(live({}))).toEqual(['unattributed']);
    expect(
      codes(live({ signingKeys: [{ ...entry, publicKey: rawPublicKey(OTHER.publicKey) }] })),
    ).toEqual(['signature-invalid']);
    expect(codes(source, { ...REFEREE, judgingDigest: 'b'.repeat(64) })).toEqual([
      'different-referee',
    ]);
    expect(
      codes(
        live({ signingKeys: [entry], implementation: { name: 'acme-host', version: '1.3.0' } }),
      ),
    ).toEqual(['stale-version']);
  });
});

describe('differentReferee', () => {
  it('names another suite, another version, no digest and another digest; the same is none', () => {
    expect(differentReferee(REFEREE, REFEREE)).toBeUndefined();
    expect(differentReferee({ ...REFEREE, name: 'x' }, REFEREE)).toMatch(/^judged by x 0\.1\.0/);
    expect(differentReferee({ ...REFEREE, version: '0.0.9' }, REFEREE)).toMatch(
      /this verifier is 0\.1\.0$/,
    );
    expect(differentReferee({ name: REFEREE.name, version: '0.1.0' }, REFEREE)).toMatch(
      /records no judging digest/,
    );
    expect(differentReferee({ ...REFEREE, judgingDigest: 'b'.repeat(64) }, REFEREE)).toMatch(
      /judging code differs/,
    );
  });
});
