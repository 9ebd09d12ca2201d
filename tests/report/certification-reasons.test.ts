// The certification verdict on literal facts, one reason at a time and word for word: a clean,
// strict, signed run over every leg and the set's pack is certified, and each way a run falls
// short withholds it with its own code, short form and text (lib/report/verdict/certification.ts).

import { describe, expect, it } from 'vitest';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import type {
  CertificationReason,
  EvalGateReport,
  ReportRow,
  Signer,
} from '../../lib/report/report.ts';
import type { ExpectedFailure } from '../../lib/report/run-options.ts';
import { NOT_SELECTED } from '../../lib/report/run-options.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import { currentSet, requirementSetOf } from '../../lib/requirement-sets.ts';
import type { CertificationFacts } from '../../lib/report/verdict/certification.ts';
import {
  certifiedImplementation,
  certify,
  implementationLabel,
  withCertification,
} from '../../lib/report/verdict/certification.ts';
import { ciVerdict } from '../../lib/report/verdict/ci-verdict.ts';
import type { Finding, HostChecks } from '../../lib/types.ts';
import { PACK_OPT_OUT } from '../../lib/types.ts';
import { reportOf } from '../cli/report-example.ts';
import { passingRows } from '../channels/support.ts';

const VERIFIED: Signer = { state: 'verified', keyId: 'K1' };
const TOTAL = LEGS.length + 1;
const FIRST = LEGS[0]?.id ?? '';
const SECOND = LEGS[1]?.id ?? '';
const THIRD = LEGS[2]?.id ?? '';
const TRIALS = LEGS.filter((l) => l.gates.includes('agents.evalSuite.trials')).map((l) => l.id);

const finding = (rule: string, ok: boolean, severity: Finding['severity'] = 'MUST'): Finding => ({
  rule,
  ok,
  severity,
  ref: 'RFC 0246 §B',
  message: rule,
});

const checks = (...findings: Finding[]): HostChecks => ({
  probes: [],
  findings,
  unexercised: [],
  inapplicable: [],
});

type Rows = readonly ReportRow[];

/** `rows` with the row of `id` changed by `change`. */
const changed = (rows: Rows, id: string, change: Partial<ReportRow>): ReportRow[] =>
  rows.map((r) => (r.id === id ? { ...r, ...change } : r));

function factsOf(
  rows: Rows = passingRows(),
  more: Partial<CertificationFacts> = {},
  options: RunOptions = {},
): CertificationFacts {
  return {
    requirements: rows,
    ...runRecord(
      options,
      rows,
      more.hostChecks === undefined ? {} : { hostFindings: more.hostChecks.findings },
    ),
    strict: true,
    optedOut: [],
    embedded: false,
    implementation: { name: 'acme-host', version: '1.2.0' },
    ...more,
  };
}

function reasonsOf(facts: CertificationFacts, signer: Signer = VERIFIED): CertificationReason[] {
  return [...certify(facts, signer, ciVerdict(facts)).reasons];
}

const codes = (facts: CertificationFacts, signer?: Signer) =>
  reasonsOf(facts, signer).map((r) => r.code);

const only = (facts: CertificationFacts, signer?: Signer): CertificationReason => {
  const reasons = reasonsOf(facts, signer);
  expect(reasons).toHaveLength(1);
  return reasons[0] as CertificationReason;
};

describe('a clean run', () => {
  it('is certified, with no reason and no opt-out', () => {
    expect(certify(factsOf(), VERIFIED, ciVerdict(factsOf()))).toEqual({
      certified: true,
      reasons: [],
      optOuts: [],
      signer: VERIFIED,
    });
  });
});

describe('what the rows came to', () => {
  it('an embedded target', () => {
    expect(only(factsOf(undefined, { embedded: true }))).toEqual({
      code: 'embedded',
      short: 'embedded host',
      text: "embedded: the target was the suite's own reference host, no evidence about any other; give --base-url",
    });
  });

  it('failed rows, counted and named', () => {
    const rows = changed(changed(passingRows(), FIRST, { disposition: 'executed-fail' }), SECOND, {
      disposition: 'executed-fail',
    });
    expect(only(factsOf(rows))).toEqual({
      code: 'failed',
      short: `2 of ${TOTAL} failed`,
      text: `failed: 2 of ${TOTAL} requirements failed (${FIRST}, ${SECOND})`,
    });
  });

  it('blocked rows, with up to two distinct reasons and a count of the rest', () => {
    const block = (rows: Rows, id: string, reason?: string) =>
      changed(rows, id, { disposition: 'blocked', ...(reason === undefined ? {} : { reason }) });
    const two = block(block(passingRows(), FIRST, 'timed out'), SECOND);
    expect(only(factsOf(two))).toEqual({
      code: 'blocked',
      short: `2 of ${TOTAL} blocked`,
      text: `blocked: the suite could not observe 2 of ${TOTAL} requirements (timed out; no reason recorded); fix the connection and run again`,
    });
    const four = block(
      block(block(two, THIRD, 'refused'), LEGS[3]?.id ?? '', 'reset'),
      LEGS[4]?.id ?? '',
      'reset',
    );
    expect(only(factsOf(four)).text).toContain('(timed out; no reason recorded; and 2 more)');
  });

  it('a run that fails on a bypass, a stale entry and a host warning, each counted', () => {
    const facts = factsOf(
      passingRows(),
      {
        failOn: 'should',
        hostChecks: checks(
          finding('auth.no-bypass', false),
          finding('wire.error-body', false, 'SHOULD'),
        ),
      },
      {
        failOn: 'should',
        baseline: {
          file: 'b.yml',
          sha256: '0'.repeat(64),
          entries: [{ requirement: FIRST, reason: 'x' }],
        },
      },
    );
    const reasons = reasonsOf(facts);
    expect(reasons.find((r) => r.code === 'run-fails')).toEqual({
      code: 'run-fails',
      short: 'authentication bypass, stale baseline, SHOULD warnings',
      text: 'the run fails on authentication bypass and stale baseline and SHOULD warnings (1 authentication bypass, 1 stale entry, 1 host-check warning); see the closing line',
    });
  });

  it('two of each are plural; none of a kind is left out or counted as zero', () => {
    const stale: ExpectedFailure[] = [FIRST, SECOND].map((requirement) => ({
      requirement,
      reason: 'x',
    }));
    const facts = factsOf(
      passingRows(),
      {
        failOn: 'should',
        hostChecks: checks(
          finding('auth.no-bypass', false),
          finding('auth.other', false),
          finding('wire.error-body', false, 'SHOULD'),
          finding('wire.version-header', false, 'SHOULD'),
        ),
      },
      { failOn: 'should', baseline: { file: 'b.yml', sha256: '0'.repeat(64), entries: stale } },
    );
    expect(reasonsOf(facts).find((r) => r.code === 'run-fails')?.text).toBe(
      'the run fails on authentication bypass and stale baseline and SHOULD warnings (2 authentication bypasses, 2 stale entries, 2 host-check warnings); see the closing line',
    );
    const bypassOnly = factsOf(passingRows(), {
      hostChecks: checks(finding('auth.no-bypass', false)),
    });
    expect(only(bypassOnly)).toEqual({
      code: 'run-fails',
      short: 'authentication bypass',
      text: 'the run fails on authentication bypass (1 authentication bypass, 0 stale entries, 0 host-check warnings); see the closing line',
    });
  });

  it("a passed row's SHOULD warning that fails the run under should", () => {
    const rows = changed(passingRows(), FIRST, {
      findings: [finding('task.passed', true), finding('wire.version-header', false, 'SHOULD')],
    });
    expect(only(factsOf(rows, { failOn: 'should' }, { failOn: 'should' }))).toMatchObject({
      code: 'run-fails',
      short: 'SHOULD warnings',
    });
    // A failed row's fault is a failure, not a warning.
    const failed = changed(passingRows(), FIRST, {
      disposition: 'executed-fail',
      findings: [finding('task.passed', false)],
    });
    expect(codes(factsOf(failed, { failOn: 'should' }, { failOn: 'should' }))).toEqual(['failed']);
  });
});

describe('what the run left out or judged otherwise', () => {
  const unselected = (rows: Rows, ids: readonly string[]) =>
    rows.map((r) =>
      ids.includes(r.id) ? { ...r, disposition: 'skipped' as const, reason: NOT_SELECTED } : r,
    );

  it('a selection', () => {
    const rows = unselected(passingRows(), [FIRST, SECOND]);
    expect(only(factsOf(rows))).toEqual({
      code: 'partial',
      short: `partial ${TOTAL - 2} of ${TOTAL}`,
      text: `partial: ${TOTAL - 2} of ${TOTAL} requirements selected; run the current set without --only and --skip`,
    });
  });

  it('strict mode off', () => {
    expect(only(factsOf(undefined, { strict: false }))).toEqual({
      code: 'strict-off',
      short: 'strict mode off',
      text: 'strict mode off: a capability the host does not advertise leaves its requirement inapplicable instead of failed; run with --require-behavior',
    });
  });

  it('inapplicable and skipped rows no opt-out explains', () => {
    const rows = changed(
      changed(passingRows(), FIRST, { disposition: 'inapplicable', reason: 'not advertised' }),
      SECOND,
      { disposition: 'skipped', reason: 'skipped' },
    );
    expect(only(factsOf(rows))).toEqual({
      code: 'inapplicable',
      short: `2 of ${TOTAL} inapplicable`,
      text: `inapplicable: 2 of ${TOTAL} requirements were not tested (not advertised; skipped)`,
    });
  });

  it('a row skipped through a declared opt-out is no reason, and the opt-out lists it', () => {
    const trials = passingRows().map((r) =>
      TRIALS.includes(r.id) ? { ...r, disposition: 'skipped' as const, reason: 'opted out' } : r,
    );
    const facts = factsOf(trials, { optedOut: ['agents.evalSuite.trials'] });
    const certification = certify(facts, VERIFIED, ciVerdict(facts));
    expect(certification.reasons).toEqual([]);
    expect(certification.optOuts).toEqual([
      { gate: 'agents.evalSuite.trials', requirements: TRIALS },
    ]);
    // Outside strict mode no leg is skipped through an opt-out.
    const loose = factsOf(trials, { optedOut: ['agents.evalSuite.trials'], strict: false });
    expect(codes(loose)).toEqual(['strict-off', 'inapplicable']);
    expect(certify(loose, VERIFIED, ciVerdict(loose)).optOuts).toEqual([
      { gate: 'agents.evalSuite.trials', requirements: [] },
    ]);
  });

  it('an unselected row is no opt-out, even of a gate declared', () => {
    const rows = unselected(passingRows(), TRIALS);
    const facts = factsOf(rows, { optedOut: ['agents.evalSuite.trials'] });
    expect(codes(facts)).toEqual(['partial']);
    expect(certify(facts, VERIFIED, ciVerdict(facts)).optOuts[0]?.requirements).toEqual([]);
  });

  it('no row that drives the host passed', () => {
    const rows = passingRows().map((r) =>
      r.fixtureId === undefined
        ? r
        : { ...r, disposition: 'skipped' as const, reason: 'opted out' },
    );
    const facts = factsOf(rows, {
      optedOut: ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'],
    });
    const reasons = reasonsOf(facts);
    expect(reasons.find((r) => r.code === 'nothing-driven')).toEqual({
      code: 'nothing-driven',
      short: 'no host leg passed',
      text: 'nothing tested: no requirement that drives the host passed, so the run shows nothing about it',
    });
  });

  it('a baseline, naming its file, or "the baseline" without one', () => {
    const facts = factsOf(
      passingRows(),
      {},
      {
        baseline: { file: 'team.yml', sha256: '0'.repeat(64), entries: [] },
      },
    );
    expect(only(facts)).toEqual({
      code: 'baseline',
      short: 'baseline',
      text: 'baseline: failures listed in team.yml do not fail the run; certify without --expected-failures',
    });
    const unnamed = {
      ...facts,
      baseline: { ...facts.baseline, file: undefined },
    } as unknown as CertificationFacts;
    expect(only(unnamed).text).toBe(
      'baseline: failures listed in the baseline do not fail the run; certify without --expected-failures',
    );
  });

  it('flaky rows, allowed or not, each with its outcomes', () => {
    const flakyRow = (id: string) => ({
      repetitions: [
        { ...passingRows()[0], id, disposition: 'executed-fail' as const } as ReportRow,
      ],
    });
    const rows = changed(changed(passingRows(), FIRST, flakyRow(FIRST)), SECOND, flakyRow(SECOND));
    const allowed = {
      requirement: SECOND,
      reason: 'x',
      outcomes: ['executed-pass', 'executed-fail'],
    } as ExpectedFailure;
    const facts = factsOf(
      rows,
      {},
      {
        repeat: 2,
        baseline: { file: 'b.yml', sha256: '0'.repeat(64), entries: [allowed] },
      },
    );
    expect(reasonsOf(facts).find((r) => r.code === 'flaky')).toEqual({
      code: 'flaky',
      short: '2 flaky',
      text: `flaky: 2 of ${TOTAL} requirements came to different dispositions across the repetitions (${FIRST}: executed-pass, executed-fail; ${SECOND}: executed-pass, executed-fail); a verdict that depends on the day certifies nothing`,
    });
  });

  it('a scoped severity, naming each override', () => {
    const severity = [
      {
        rule: 'wire.version-header',
        requirements: [FIRST],
        severity: 'MUST' as const,
        reason: 'r',
      },
      { rule: 'task.passed', requirements: ['*'], severity: 'SHOULD' as const, reason: 'r' },
    ];
    const facts = factsOf(
      passingRows(),
      {},
      {
        baseline: { file: 'b.yml', sha256: '0'.repeat(64), entries: [], severity },
      },
    );
    expect(reasonsOf(facts).map((r) => r.code)).toEqual(['baseline', 'severity-override']);
    expect(reasonsOf(facts)[1]).toEqual({
      code: 'severity-override',
      short: 'severity overridden',
      text: `severity overridden: wire.version-header raised to MUST on ${FIRST.split('.').at(-1) ?? ''}; task.passed lowered to SHOULD on *; the run was not judged at the RFC's severities; certify without the baseline's severity section`,
    });
  });
});

describe('the generated pack', () => {
  const pack = currentSet().pack;
  const withPack = (change: Record<string, unknown>) =>
    passingRows().map((r) =>
      r.id === GENERATED_REQUIREMENT && r.generated !== undefined
        ? ({ ...r, generated: { ...r.generated, ...change } } as ReportRow)
        : r,
    );

  it('not driven at all, with the set, the count and the seed to drive', () => {
    const rows = passingRows().filter((r) => r.id !== GENERATED_REQUIREMENT);
    expect(only(factsOf(rows))).toEqual({
      code: 'pack-not-driven',
      short: 'generated pack not driven',
      text: `generated pack not driven: requirement set ${currentSet().version} certifies with its generated pack (${pack.count} fixtures at seed ${pack.seed}) driven as ${GENERATED_REQUIREMENT}; seed what fixtures --out writes and run without --generate, or declare ${PACK_OPT_OUT} in OPENWOP_OPTED_OUT_PROFILES if the host cannot seed it`,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['one case alone', { case: 'generated-s1-n0001' }],
    ['another seed', { seed: pack.seed + 1 }],
    ['fewer cases', { count: pack.count - 1 }],
    ['another generator', { generator: (pack.generator ?? 0) + 1 }],
  ])('%s is not the pack', (_name, change) => {
    expect(codes(factsOf(withPack(change)))).toEqual(['pack-not-driven']);
  });

  it('more cases, the same generator, or a record naming none, is the pack', () => {
    expect(codes(factsOf(withPack({ count: pack.count + 5 })))).toEqual([]);
    expect(codes(factsOf(withPack({ generator: pack.generator })))).toEqual([]);
    expect(codes(factsOf(withPack({ generator: undefined })))).toEqual([]);
  });

  it("a pinned set is judged by its own pack, and by the suite's version when nothing is pinned", () => {
    const first = requirementSetOf('0.1.0');
    if (first === undefined) throw new Error('0.1.0 shipped a set');
    // 0.1.0 named no generator: a record of any generator at its seed and count is its pack.
    const rows = withPack({ generator: 99 });
    const pinned = factsOf(rows, {
      selection: { only: [], skip: [], selected: [], requirementSet: first },
    } as Partial<CertificationFacts>);
    expect(codes(pinned)).not.toContain('pack-not-driven');
    expect(codes(factsOf(rows, { suite: { version: '0.1.0' } }))).not.toContain('pack-not-driven');
    expect(codes(factsOf(rows, { suite: { version: '9.9.9' } }))).toContain('pack-not-driven');
    expect(codes(factsOf(rows))).toContain('pack-not-driven');
  });

  it('an opt-out of the pack, or strict mode off, needs no pack; the opt-out lists the row only when it was owed', () => {
    const rows = passingRows().filter((r) => r.id !== GENERATED_REQUIREMENT);
    const optedOut = factsOf(rows, { optedOut: [PACK_OPT_OUT] });
    expect(certify(optedOut, VERIFIED, ciVerdict(optedOut))).toMatchObject({
      certified: true,
      optOuts: [{ gate: PACK_OPT_OUT, requirements: [GENERATED_REQUIREMENT] }],
    });
    const drove = factsOf(passingRows(), { optedOut: [PACK_OPT_OUT] });
    expect(certify(drove, VERIFIED, ciVerdict(drove)).optOuts).toEqual([
      { gate: PACK_OPT_OUT, requirements: [] },
    ]);
    const loose = factsOf(rows, { optedOut: [PACK_OPT_OUT], strict: false });
    expect(codes(loose)).toEqual(['strict-off']);
    expect(certify(loose, VERIFIED, ciVerdict(loose)).optOuts).toEqual([
      { gate: PACK_OPT_OUT, requirements: [] },
    ]);
  });
});

describe('what the certificate would name, and who vouches', () => {
  it('an implementation neither advertised nor declared', () => {
    const facts = { ...factsOf(), implementation: undefined } as unknown as CertificationFacts;
    expect(only(facts)).toEqual({
      code: 'unnamed',
      short: 'implementation unnamed',
      text: "unnamed: the host's discovery advertises no implementation name and none was declared, so a certificate could not say what it certifies; advertise implementation in discovery or give --impl and --impl-version",
    });
    expect(codes({ ...facts, declared: { name: 'mine' } })).toEqual([]);
  });

  it('a declaration the discovery contradicts, by name or by version', () => {
    const byName = factsOf(undefined, { declared: { name: 'other-host', version: '1.2.0' } });
    expect(only(byName)).toEqual({
      code: 'implementation-mismatch',
      short: 'implementation mismatch',
      text: "implementation mismatch: declared other-host 1.2.0, but the host's discovery advertises acme-host 1.2.0; declare what the host advertises",
    });
    expect(
      codes(factsOf(undefined, { declared: { name: 'acme-host', version: '2.0.0' } })),
    ).toEqual(['implementation-mismatch']);
    expect(codes(factsOf(undefined, { declared: { name: 'acme-host' } }))).toEqual([]);
    expect(
      codes(
        factsOf(undefined, {
          implementation: { name: 'acme-host' },
          declared: { name: 'acme-host', version: '2' },
        }),
      ),
    ).toEqual([]);
  });

  it('no signature, and a signature no published key verifies', () => {
    expect(only(factsOf(), { state: 'unsigned' })).toEqual({
      code: 'unsigned',
      short: 'not signed',
      text: 'unsigned: integrity only, nobody vouches for it; sign with --sign and --key-id naming a key your discovery publishes',
    });
    expect(only(factsOf(), { state: 'unverified', why: 'no key K1 in discovery' })).toEqual({
      code: 'unverified',
      short: 'signature not verified',
      text: 'signed, but no key the host publishes verifies it: no key K1 in discovery',
    });
  });

  it('every reason at once, in the order a reader should fix them', () => {
    const rows = changed(changed(passingRows(), FIRST, { disposition: 'executed-fail' }), SECOND, {
      disposition: 'skipped',
      reason: NOT_SELECTED,
    }).filter((r) => r.id !== GENERATED_REQUIREMENT);
    const facts = factsOf(rows, {
      embedded: true,
      strict: true,
      implementation: { name: 'a' },
      declared: { name: 'b' },
    });
    expect(codes(facts, { state: 'unsigned' })).toEqual([
      'embedded',
      'failed',
      'partial',
      'pack-not-driven',
      'implementation-mismatch',
      'unsigned',
    ]);
  });
});

describe('the implementation a certification names', () => {
  it('the advertised one, with the declared version only where it advertises none', () => {
    expect(
      certifiedImplementation({
        implementation: { name: 'a', version: '1' },
        declared: { name: 'b', version: '2' },
      }),
    ).toEqual({ name: 'a', version: '1' });
    expect(
      certifiedImplementation({
        implementation: { name: 'a' },
        declared: { name: 'b', version: '2' },
      }),
    ).toEqual({ name: 'a', version: '2' });
    expect(certifiedImplementation({ implementation: { name: 'a' } })).toStrictEqual({ name: 'a' });
    expect(certifiedImplementation({ declared: { name: 'b' } })).toEqual({ name: 'b' });
    expect(certifiedImplementation({})).toBeUndefined();
    expect(implementationLabel({ name: 'acme-host', version: '1.2.0' })).toBe('acme-host 1.2.0');
    expect(implementationLabel({ name: 'acme-host' })).toBe('acme-host');
  });

  it('withCertification reads the target of the report it rebuilds', () => {
    const report: EvalGateReport = reportOf(passingRows());
    const rebuilt = withCertification(report, VERIFIED);
    expect(rebuilt.certification?.certified).toBe(true);
    const embedded = withCertification(
      { ...report, target: { ...report.target, embedded: true, declared: { name: 'zzz' } } },
      VERIFIED,
    );
    expect(embedded.certification?.reasons.map((r) => r.code)).toEqual([
      'embedded',
      'implementation-mismatch',
    ]);
    const bare = withCertification(
      { ...report, target: { baseUrl: 'http://h', embedded: false } },
      VERIFIED,
    );
    expect(bare.certification?.reasons.map((r) => r.code)).toEqual(['unnamed']);
  });
});
