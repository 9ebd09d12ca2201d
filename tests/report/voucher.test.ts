// Who vouches, for what, as of when, on literal reports and a literal clock: each source a
// certifier can give comes to a certificate or to integrity only, a report's date is read against
// the verifier's clock (never the wall clock), and an opt-out the captured discovery contradicts
// withholds the certificate. No host, no file.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TrustSource, VerifierContext } from '../../lib/report/verify/anchor.ts';
import { anchoredVerdict } from '../../lib/report/verify/anchor.ts';
import { certificateClause } from '../../lib/report/verify/certificate.ts';
import type { Certification, EvalGateReport } from '../../lib/report/report.ts';
import { ageText, CLOCK_SKEW_MS, reportTime } from '../../lib/report/verify/report-time.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { rawPublicKey, signReport } from '../../lib/report/verify/signature.ts';
import { reportOf } from '../cli/report-example.ts';

const KEY = generateKeyPairSync('ed25519');
const REFEREE = { name: 'openwop-eval-gate-conformance', version: '0.1.0', judgingDigest: 'a' };
const FINISHED = '2026-06-01T00:00:00.000Z';
const DAY = 24 * 60 * 60 * 1000;
/** The verifier's clock: three days after the report's date. */
const NOW = Date.parse(FINISHED) + 3 * DAY;
const CERTIFIED: Certification = {
  certified: true,
  reasons: [],
  optOuts: [],
  signer: { state: 'verified', keyId: 'host-1' },
};
const entry = { keyId: 'host-1', alg: 'ed25519', publicKey: rawPublicKey(KEY.publicKey) };
const ACME = { name: 'acme-host', version: '1.2.0' };

function signed(overrides: Partial<EvalGateReport> = {}): EvalGateReport {
  return signReport(
    reportOf([], { suite: REFEREE, finishedAt: FINISHED, ...overrides }),
    KEY.privateKey,
    'host-1',
  );
}

function live(namedBy: 'certifier' | 'report', keys: unknown[] = [entry]): TrustSource {
  return {
    kind: 'live',
    name: 'the live discovery at https://acme.example',
    url: 'https://acme.example',
    namedBy,
    read: { ok: true, document: { implementation: ACME, signingKeys: keys } },
  };
}

function keyring(keys: unknown[]): TrustSource {
  return { kind: 'keyring', name: 'the keyring k.json', keys };
}

function verdictOf(
  report: EvalGateReport,
  source: TrustSource,
  clock: Partial<VerifierContext> = {},
) {
  return anchoredVerdict(report, CERTIFIED, source, { referee: REFEREE, now: NOW, ...clock });
}

function codes(report: EvalGateReport, source: TrustSource, clock?: Partial<VerifierContext>) {
  return verdictOf(report, source, clock).certification.reasons.map((r) => r.code);
}

function certificate(report: EvalGateReport, source: TrustSource): string {
  const anchored = verdictOf(report, source);
  return certificateClause(runVerdict(report, anchored.certification), {
    ...(anchored.voucher === undefined ? {} : { voucher: anchored.voucher }),
    asOf: anchored.time.asOf,
  });
}

describe('who vouches', () => {
  it('an address the certifier gave certifies, and the certificate names it first', () => {
    expect(codes(signed(), live('certifier'))).toEqual([]);
    expect(certificate(signed(), live('certifier'))).toBe(
      `certified: https://acme.example advertising acme-host 1.2.0 (signed by key host-1), as of ${FINISHED}, 3 days old`,
    );
  });

  it('the address the report names is integrity only, however well its key verifies', () => {
    const anchored = verdictOf(signed(), live('report'));
    expect(anchored.anchor.state).toBe('anchored');
    expect(anchored.certification.reasons.map((r) => r.code)).toEqual(['report-address']);
    expect(anchored.voucher).toMatchObject({ certifies: false });
    expect(certificate(signed(), live('report'))).toBe(
      `not certified: address chosen by the report, as of ${FINISHED}, 3 days old`,
    );
  });

  it('a keyring entry certifies only the implementation it binds; an unbound one and a key file give integrity', () => {
    const bound = keyring([{ ...entry, implementation: 'acme-host' }]);
    expect(codes(signed(), bound)).toEqual([]);
    expect(certificate(signed(), bound)).toBe(
      `certified: acme-host 1.2.0 under key host-1 of the keyring k.json, bound to acme-host (signed by key host-1), as of ${FINISHED}, 3 days old`,
    );
    expect(codes(signed(), keyring([entry]))).toEqual(['unbound-key']);
    const file: TrustSource = { kind: 'key-file', name: 'the key file k.pem', key: KEY.publicKey };
    expect(codes(signed(), file)).toEqual(['key-file']);
  });

  it('a retired key certifies nothing, whatever date the report carries', () => {
    const retiredAt = new Date(Date.parse(FINISHED) + DAY).toISOString();
    const retired = keyring([{ ...entry, implementation: 'acme-host', retiredAt }]);
    // Retired after the report's date and before the verifier's now: integrity only.
    expect(codes(signed(), retired)).toEqual(['retired-key']);
    // A retirement still to come has not happened.
    expect(codes(signed(), retired, { now: Date.parse(FINISHED) + DAY / 2 })).toEqual([]);
  });
});

describe('as of when', () => {
  it('names the date and the age against the clock it is given', () => {
    expect(reportTime(FINISHED, { now: NOW }).asOf).toBe(`as of ${FINISHED}, 3 days old`);
    expect(ageText(90 * 60 * 1000)).toBe('1 h');
    expect(ageText(5 * 60 * 1000)).toBe('5 min');
    expect(ageText(1000)).toBe('under a minute');
  });

  it('a report dated after now, beyond the skew, is refused; within the skew it is not', () => {
    const at = Date.parse(FINISHED);
    expect(reportTime(FINISHED, { now: at - CLOCK_SKEW_MS }).future).toBeUndefined();
    expect(reportTime(FINISHED, { now: at - CLOCK_SKEW_MS - 1000 }).future).toMatch(
      /^finishedAt: the report is dated 2026-06-01T00:00:00\.000Z, 5 min after this verifier's clock/,
    );
  });

  it('--max-age makes an older report stale and withholds its certificate', () => {
    expect(codes(signed(), live('certifier'), { maxAgeDays: 3 })).toEqual([]);
    expect(codes(signed(), live('certifier'), { maxAgeDays: 2 })).toEqual(['report-too-old']);
    expect(verdictOf(signed(), live('certifier'), { maxAgeDays: 2 }).time.tooOld).toBe(
      `the report is dated ${FINISHED}, 3 days old, older than --max-age 2 days`,
    );
  });
});

describe('opt-outs the host contradicts', () => {
  const discovery = (capabilities: Record<string, unknown>) => ({
    ok: true as const,
    text: JSON.stringify({ implementation: ACME, ...capabilities }),
  });
  const evalSuite = { agents: { evalSuite: { trials: {}, trajectory: {} } } };

  it('a strict report opting out of a capability its captured discovery advertises is not certified', () => {
    const report = signed({
      optedOut: ['agents.evalSuite.trials', 'generated-pack'],
      discovery: discovery(evalSuite),
    });
    const anchored = verdictOf(report, live('certifier'));
    expect(anchored.certification.reasons).toEqual([
      expect.objectContaining({
        code: 'opted-out-advertised',
        text: expect.stringContaining(
          'the run opted out of agents.evalSuite.trials, which the captured discovery advertises',
        ) as unknown,
      }),
    ]);
  });

  it('an opt-out of a capability the discovery does not advertise stays a claim the certificate lists', () => {
    const report = signed({
      optedOut: ['agents.evalSuite.trials'],
      discovery: discovery({ agents: { evalSuite: { trajectory: {} } } }),
    });
    expect(codes(report, live('certifier'))).toEqual([]);
  });
});
