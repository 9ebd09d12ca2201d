// The host-check rules (lib/witness/host-checks.ts) on literal observations: each one-clause
// break of discovery or of a provoked refusal fails exactly its rule and names the member or the
// status at fault; correct discoveries (both reference-host variants, the oracle host in every
// mode) hold; a probe not sent or not answered is unexercised, never a finding.

import { describe, expect, it } from 'vitest';
import { judgeHostChecks } from '../../lib/witness/host-checks.ts';
import type { ObservedBody, ObservedProbe, ProbeName } from '../../lib/types.ts';
import { discoveryDocument } from '../../reference-host/discovery.ts';
import { discoveryOf, ORACLE_MODES } from '../support/oracle-host-modes.ts';

const AGENTS = { status: 'stable', since: '2.0', witness: 'witnessable-gated' };
const DISCOVERY = {
  protocolVersions: ['1.11', '2.0'],
  preferredVersion: '2.0',
  agents: { ...AGENTS, evalSuite: { modes: ['golden'], trials: { maxCount: 4 } } },
  fixtures: ['conformance-eval-trajectory-gate'],
};

const answered = (probe: ProbeName, status: number, body: ObservedBody): ObservedProbe => ({
  probe,
  outcome: 'answered',
  request:
    probe === 'unknown-run' || probe === 'unadvertised-summary'
      ? 'GET /runs/t%2Fprobe-1/eval-summary'
      : 'POST /runs',
  status,
  body,
});
const envelope = (error: string): ObservedBody => ({ json: { error, message: 'refused' } });
const CORRECT_PROBES: readonly ObservedProbe[] = [
  answered('no-credentials', 401, envelope('unauthenticated')),
  answered('wrong-credentials', 401, envelope('unauthenticated')),
  answered('near-miss-last-character', 401, envelope('unauthenticated')),
  answered('near-miss-extended', 401, envelope('unauthenticated')),
  answered('near-miss-case-flipped', 401, envelope('unauthenticated')),
  answered('near-miss-truncated', 401, envelope('unauthenticated')),
  answered('unknown-run', 404, envelope('not_found')),
  answered('unknown-suite', 404, envelope('not_found')),
];

/** The failing findings of a judgement, as [rule, message]. */
function failures(document: unknown, probes: readonly ObservedProbe[] = CORRECT_PROBES) {
  return judgeHostChecks({ ok: true, document }, probes)
    .findings.filter((f) => !f.ok)
    .map((f) => [f.rule, f.message] as const);
}
const failedRules = (document: unknown, probes?: readonly ObservedProbe[]): string[] =>
  failures(document, probes).map(([rule]) => rule);

describe('discovery', () => {
  it('a correct discovery and correct refusals hold every check, SHOULD but for the bypass rule', () => {
    const judged = judgeHostChecks({ ok: true, document: DISCOVERY }, CORRECT_PROBES);
    expect(judged.findings.filter((f) => !f.ok)).toEqual([]);
    expect(judged.findings).toHaveLength(18);
    const must = judged.findings.filter((f) => f.severity === 'MUST');
    expect(new Set(must.map((f) => f.rule))).toEqual(new Set(['auth.no-bypass']));
    expect(must).toHaveLength(5);
    expect(judged.unexercised).toEqual([]);
  });

  it.each([false, true])('the reference host discovery (varied %s) holds', (varied) => {
    const document = discoveryDocument({ has: () => false, varied, fixtureIds: ['f'] });
    expect(failures(document)).toEqual([]);
  });

  it.each([[[]], ...ORACLE_MODES.map((m) => [[m]])])(
    'the oracle host discovery (modes %j) holds',
    (modes) => {
      expect(failures(discoveryOf(new Set(modes), ['f']))).toEqual([]);
    },
  );

  it('supported: true inside agents.evalSuite fails, naming the member', () => {
    const document = { ...DISCOVERY, agents: { ...AGENTS, evalSuite: { supported: true } } };
    const [only, ...rest] = failures(document);
    expect(rest).toEqual([]);
    expect(only?.[0]).toBe('wire.discovery');
    expect(only?.[1]).toContain(
      'discovery#/agents/evalSuite additionalProperties: must NOT have additional properties (supported)',
    );
  });

  it('an agents record without witness fails, naming the member', () => {
    const agents: Record<string, unknown> = { ...DISCOVERY.agents };
    delete agents['witness'];
    const [only] = failures({ ...DISCOVERY, agents });
    expect(only?.[1]).toContain(
      "discovery#/agents required: must have required property 'witness' (witness)",
    );
  });

  it('a preferredVersion missing from protocolVersions fails, naming it', () => {
    const [only] = failures({ ...DISCOVERY, preferredVersion: '2.1' });
    expect(only?.[1]).toContain(
      'discovery#/preferredVersion: the string "2.1" is not one of protocolVersions',
    );
  });

  it.each([
    ['a v1 supported flag on the record itself', { agents: { ...AGENTS, supported: true } }],
    ['a stable status with an unknown witness', { agents: { ...AGENTS, witness: 'trust-me' } }],
    ['no protocolVersions', { protocolVersions: undefined }],
  ])('%s fails wire.discovery alone', (_name, change) => {
    const document = JSON.parse(JSON.stringify({ ...DISCOVERY, ...change })) as unknown;
    expect(failedRules(document)).toEqual(['wire.discovery']);
  });

  it('discovery that was not read is unexercised, with the reason, and judged nowhere', () => {
    const judged = judgeHostChecks({ ok: false, reason: 'answered 500' }, CORRECT_PROBES);
    expect(judged.findings.map((f) => f.rule)).not.toContain('wire.discovery');
    expect(judged.unexercised).toEqual([
      { rule: 'wire.discovery', reason: 'discovery was not read: answered 500' },
    ]);
  });
});

describe('the provoked refusals', () => {
  const withProbe = (probe: ObservedProbe): readonly ObservedProbe[] =>
    CORRECT_PROBES.map((p) => (p.probe === probe.probe ? probe : p));

  it.each([
    [200, { json: { runId: 't/x' } }, '200, so the host served a caller that sent no key'],
    [
      404,
      envelope('not_found'),
      '404 (error "not_found"), so the host looked past the missing key',
    ],
    [403, envelope('forbidden'), '403 (error "forbidden")'],
  ] as const)(
    'a keyless create answered %i fails the unauthenticated rule alone',
    (status, body, seen) => {
      const probes = withProbe(answered('no-credentials', status, body));
      expect(failures(DISCOVERY, probes)).toEqual([
        [
          'wire.unauthenticated-refused',
          `POST /runs (a create sent without an Authorization header) SHOULD be answered 401; the status is at fault: it was answered ${seen}`,
        ],
      ]);
    },
  );

  it.each([
    [200, { json: { runId: 't/x' } }, '200', 'served a caller that sent', 'a wrong key'],
    [404, envelope('not_found'), '404 (error "not_found")', 'looked past', 'the wrong key'],
  ] as const)(
    'a create with a wrong bearer token answered %i fails the wrong-key rule and is an authentication bypass',
    (status, body, seen, consequence, key) => {
      const probes = withProbe(answered('wrong-credentials', status, body));
      expect(failures(DISCOVERY, probes)).toEqual([
        [
          'wire.wrong-key-refused',
          `POST /runs (a create sent with a bearer token that is not the key) SHOULD be answered 401; the status is at fault: it was answered ${seen}, so the host ${consequence} ${key}`,
        ],
        [
          'auth.no-bypass',
          `authentication bypass: POST /runs (a create sent with a bearer token that is not the key) MUST be refused 401 or 403, before anything else is looked up; the status is at fault: it was answered ${seen}, so the host ${consequence} a token that is not the key`,
        ],
      ]);
    },
  );

  it('a create with a wrong bearer token refused 403 fails only the SHOULD that asks for 401', () => {
    const probes = withProbe(answered('wrong-credentials', 403, envelope('forbidden')));
    expect(failedRules(DISCOVERY, probes)).toEqual(['wire.wrong-key-refused']);
  });

  it.each([
    ['near-miss-last-character', 'the key, its last character changed,'],
    ['near-miss-extended', 'the key and one more character'],
    ['near-miss-case-flipped', 'the key, the case of every letter flipped,'],
    ['near-miss-truncated', 'the key, its last character removed,'],
  ] as const)(
    'a %s token served is a MUST authentication bypass, naming how it missed the key',
    (probe, words) => {
      const found = failures(DISCOVERY, withProbe(answered(probe, 404, envelope('not_found'))));
      expect(found.map(([rule]) => rule)).toEqual(['auth.no-bypass']);
      expect(found[0]?.[1]).toMatch(/^authentication bypass: POST \/runs \(a create sent with /);
      expect(found[0]?.[1]).toContain(words);
      expect(found[0]?.[1]).toContain('MUST be refused 401 or 403');
      const judged = judgeHostChecks(
        { ok: true, document: DISCOVERY },
        withProbe(answered(probe, 201, { json: { runId: 't/x' } })),
      );
      expect(judged.findings.filter((f) => !f.ok).map((f) => f.severity)).toEqual(['MUST']);
    },
  );

  it('a near-miss token refused 403 holds, and one answered 429 is unexercised, not judged', () => {
    expect(
      failures(DISCOVERY, withProbe(answered('near-miss-extended', 403, envelope('forbidden')))),
    ).toEqual([]);
    const judged = judgeHostChecks(
      { ok: true, document: DISCOVERY },
      CORRECT_PROBES.filter((p) => p.probe !== 'near-miss-case-flipped').concat([
        answered('near-miss-case-flipped', 429, envelope('rate_limited')),
      ]),
    );
    expect(judged.findings.filter((f) => !f.ok)).toEqual([]);
    expect(judged.unexercised.map((u) => u.rule)).toEqual(['auth.no-bypass']);
  });

  it.each([400, 200, 500])(
    'the summary of an unknown run answered %i fails the not-found rule',
    (status) => {
      const body =
        status === 200
          ? { json: {} }
          : envelope(status === 400 ? 'validation_error' : 'internal_error');
      expect(failedRules(DISCOVERY, withProbe(answered('unknown-run', status, body)))).toEqual([
        'wire.unknown-run-not-found',
      ]);
    },
  );

  it.each([
    [400, 'validation_error', true],
    [404, 'not_found', true],
    [422, 'capability_not_provided', true],
    [500, 'internal_error', false],
  ] as const)('an unknown-suite create answered %i (%s) holds: %s', (status, code, holds) => {
    const rules = failedRules(
      DISCOVERY,
      withProbe(answered('unknown-suite', status, envelope(code))),
    );
    expect(rules).toEqual(holds ? [] : ['wire.unknown-suite-refused']);
  });

  it('a record made before the near-miss probes judges the wrong key without the bypass rule, as that run did', () => {
    const served = answered('wrong-credentials', 201, { json: { runId: 't/run-1' } });
    const withoutNearMisses = CORRECT_PROBES.filter(
      (p) => !p.probe.startsWith('near-miss-') && p.probe !== 'wrong-credentials',
    ).concat([served]);
    expect(failedRules(DISCOVERY, withoutNearMisses)).toEqual(['wire.wrong-key-refused']);
    const judged = judgeHostChecks({ ok: true, document: DISCOVERY }, withoutNearMisses);
    expect(judged.findings.map((f) => f.rule)).not.toContain('auth.no-bypass');
    // One near-miss probe in the record brings the bypass rule back for the wrong key too.
    const withOne = withoutNearMisses.concat([
      answered('near-miss-extended', 401, envelope('unauthenticated')),
    ]);
    expect(failedRules(DISCOVERY, withOne).sort()).toEqual([
      'auth.no-bypass',
      'wire.wrong-key-refused',
    ]);
  });

  it('a record made before the truncated-key probe judges the near misses it holds and asks nothing of the one it lacks', () => {
    const older = CORRECT_PROBES.filter((p) => p.probe !== 'near-miss-truncated');
    const judged = judgeHostChecks({ ok: true, document: DISCOVERY }, older);
    expect(judged.findings.filter((f) => !f.ok)).toEqual([]);
    expect(judged.unexercised).toEqual([]);
    // Its wrong key and its near misses are still judged for a bypass.
    const served = older.map((p) =>
      p.probe === 'near-miss-extended'
        ? answered('near-miss-extended', 404, envelope('not_found'))
        : p,
    );
    expect(failedRules(DISCOVERY, served)).toEqual(['auth.no-bypass']);
  });

  it('a rule several probes share is listed unexercised once for each distinct reason', () => {
    const judged = judgeHostChecks(
      { ok: true, document: DISCOVERY },
      CORRECT_PROBES.filter(
        (p) => p.probe !== 'near-miss-extended' && p.probe !== 'near-miss-case-flipped',
      ).concat([
        { probe: 'near-miss-extended', outcome: 'not-made', reason: 'first reason' },
        { probe: 'near-miss-case-flipped', outcome: 'not-made', reason: 'second reason' },
      ]),
    );
    expect(judged.unexercised).toEqual([
      { rule: 'auth.no-bypass', reason: 'not sent: first reason' },
      { rule: 'auth.no-bypass', reason: 'not sent: second reason' },
    ]);
  });

  it('an unknown-suite create accepted with 201 fails, saying the host accepted it', () => {
    const [only] = failures(
      DISCOVERY,
      withProbe(answered('unknown-suite', 201, { json: { runId: 't/x' } })),
    );
    expect(only?.[1]).toMatch(
      /SHOULD be answered a 4xx .*it was answered 201, so the host accepted what it cannot have$/,
    );
  });

  it('a {code, message, status} body at the right status fails only wire.error-body, naming the members', () => {
    const dialect: ObservedBody = { json: { code: 'UNAUTHORIZED', message: 'no', status: 401 } };
    const found = failures(DISCOVERY, withProbe(answered('no-credentials', 401, dialect)));
    expect(found.map(([rule]) => rule)).toEqual(['wire.error-body']);
    expect(found[0]?.[1]).toContain("must have required property 'error' (error)");
    expect(found[0]?.[1]).toContain('must NOT have additional properties (code, status)');
  });

  it('a code registered at another status fails wire.error-body', () => {
    const probes = withProbe(answered('unknown-run', 404, envelope('unauthenticated')));
    expect(failures(DISCOVERY, probes)).toEqual([
      [
        'wire.error-body',
        'GET /runs/t%2Fprobe-1/eval-summary answered 404: the body SHOULD be the v2 error envelope {error: "<registered code>", message, details?} at the code\'s registered status; it is not (error "unauthenticated" is registered at 401 in openwop/openwop spec/v2/errors.json, answered with 404)',
      ],
    ]);
  });

  it.each([429, 503])('a probe answered %i is unexercised: the host deferred it', (status) => {
    const judged = judgeHostChecks(
      { ok: true, document: DISCOVERY },
      withProbe(answered('unknown-suite', status, envelope('rate_limited'))),
    );
    expect(judged.findings.map((f) => f.rule)).not.toContain('wire.unknown-suite-refused');
    expect(judged.unexercised).toEqual([
      {
        rule: 'wire.unknown-suite-refused',
        reason: `POST /runs was answered ${status}, which defers the request rather than answering it`,
      },
    ]);
  });

  it('a probe a host fact rules out is inapplicable, with that fact: no finding and nothing unexercised', () => {
    const judged = judgeHostChecks({ ok: true, document: DISCOVERY }, [
      ...CORRECT_PROBES,
      { probe: 'unadvertised-summary', outcome: 'inapplicable', reason: 'the host advertises it' },
    ]);
    expect(judged.findings.map((f) => f.rule)).not.toContain(
      'wire.unadvertised-operation-not-found',
    );
    expect(judged.unexercised).toEqual([]);
    expect(judged.inapplicable).toEqual([
      { rule: 'wire.unadvertised-operation-not-found', reason: 'the host advertises it' },
    ]);
  });

  it('the summary of a made-up run on a host without agents.evalSuite holds at 404 and fails at 422 capability_not_provided, naming the status and the gate', () => {
    const withheld = { ...DISCOVERY, agents: AGENTS };
    const held = judgeHostChecks({ ok: true, document: withheld }, [
      ...CORRECT_PROBES,
      answered('unadvertised-summary', 404, envelope('not_found')),
    ]);
    expect(held.findings.filter((f) => !f.ok)).toEqual([]);
    expect(held.findings.map((f) => f.rule)).toContain('wire.unadvertised-operation-not-found');
    expect(
      failures(withheld, [
        ...CORRECT_PROBES,
        answered('unadvertised-summary', 422, envelope('capability_not_provided')),
      ]),
    ).toEqual([
      [
        'wire.unadvertised-operation-not-found',
        'GET /runs/t%2Fprobe-1/eval-summary (the summary of a made-up run on a host that does not advertise agents.evalSuite, which gates that operation) SHOULD be answered 404; the status is at fault: it was answered 422 (error "capability_not_provided"), though a gated operation the host does not advertise answers 404, as a path it does not serve',
      ],
    ]);
  });

  it('a probe not sent or not answered is unexercised, with its reason, and yields no finding', () => {
    const judged = judgeHostChecks({ ok: true, document: DISCOVERY }, [
      { probe: 'no-credentials', outcome: 'not-made', reason: 'no API key is configured' },
      {
        probe: 'unknown-suite',
        outcome: 'unobserved',
        request: 'POST /runs',
        reason: 'POST /runs: timed out after 300 ms',
      },
    ]);
    expect(judged.findings.map((f) => f.rule)).toEqual(['wire.discovery']);
    expect(judged.unexercised).toEqual([
      { rule: 'wire.unauthenticated-refused', reason: 'not sent: no API key is configured' },
      {
        rule: 'wire.unknown-suite-refused',
        reason: 'POST /runs was sent and not observed: POST /runs: timed out after 300 ms',
      },
    ]);
  });

  it('the independent team host (no key check, {code, message, status} bodies) warns on both', () => {
    const dialect = (status: number, code: string): ObservedBody => ({
      json: { code, message: 'no', status },
    });
    const probes: readonly ObservedProbe[] = [
      answered('no-credentials', 404, dialect(404, 'NOT_FOUND')),
      answered('unknown-run', 404, dialect(404, 'NOT_FOUND')),
      answered('unknown-suite', 404, dialect(404, 'NOT_FOUND')),
    ];
    expect(failedRules(DISCOVERY, probes)).toEqual([
      'wire.unauthenticated-refused',
      'wire.error-body',
      'wire.error-body',
      'wire.error-body',
    ]);
  });
});

describe('the words of a host check', () => {
  const withProbe = (probe: ObservedProbe): readonly ObservedProbe[] =>
    CORRECT_PROBES.map((p) => (p.probe === probe.probe ? probe : p));
  const messages = (probes: readonly ObservedProbe[], document: unknown = DISCOVERY) =>
    judgeHostChecks({ ok: true, document }, probes).findings.map((f) => [f.rule, f.message]);

  it('holding checks say what was asked and what came back', () => {
    expect(messages(CORRECT_PROBES)).toEqual([
      [
        'wire.discovery',
        'GET /.well-known/openwop is the published v2 root for every member the suite reads',
      ],
      [
        'wire.unauthenticated-refused',
        'POST /runs (a create sent without an Authorization header) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'wire.wrong-key-refused',
        'POST /runs (a create sent with a bearer token that is not the key) was answered 401 (error "unauthenticated")',
      ],
      [
        'auth.no-bypass',
        'POST /runs (a create sent with a bearer token that is not the key) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'auth.no-bypass',
        'POST /runs (a create sent with the key, its last character changed, as the bearer token) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'auth.no-bypass',
        'POST /runs (a create sent with the key and one more character as the bearer token) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'auth.no-bypass',
        'POST /runs (a create sent with the key, the case of every letter flipped, as the bearer token) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'auth.no-bypass',
        'POST /runs (a create sent with the key, its last character removed, as the bearer token) was answered 401 (error "unauthenticated")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 401: /) as unknown],
      [
        'wire.unknown-run-not-found',
        'GET /runs/t%2Fprobe-1/eval-summary (the summary of a run id the host never minted, in the host\'s own tenant) was answered 404 (error "not_found")',
      ],
      [
        'wire.error-body',
        expect.stringMatching(/^GET \/runs\/t%2Fprobe-1\/eval-summary answered 404: /) as unknown,
      ],
      [
        'wire.unknown-suite-refused',
        'POST /runs (a create naming an eval suite the host does not have) was answered 404 (error "not_found")',
      ],
      ['wire.error-body', expect.stringMatching(/^POST \/runs answered 404: /) as unknown],
    ]);
  });

  it('a failing discovery leads with what the root must be', () => {
    const [only] = failures({ ...DISCOVERY, preferredVersion: '2.1' });
    expect(only?.[1]).toBe(
      'GET /.well-known/openwop SHOULD be the published v2 root (agents a closed capability record with status, since and witness; agents.evalSuite a closed facet, which has no supported key; preferredVersion one of protocolVersions); discovery#/preferredVersion: the string "2.1" is not one of protocolVersions',
    );
  });

  it('a discovery with two problems names both, in order', () => {
    const document = {
      ...DISCOVERY,
      preferredVersion: '2.1',
      agents: { ...AGENTS, evalSuite: { supported: true } },
    };
    const [only] = failures(document);
    expect(only?.[1]).toMatch(
      /\(supported\); discovery#\/preferredVersion: the string "2\.1" is not one of protocolVersions$/,
    );
  });

  it('a preferredVersion that is not a string is a schema problem, not a missing version', () => {
    const [only] = failures({ ...DISCOVERY, preferredVersion: 2 });
    expect(only?.[1]).toContain('discovery#/preferredVersion');
    expect(only?.[1]).not.toContain('is not one of protocolVersions');
  });

  it('an unknown suite refused at 499, the top of the 4xx range, holds', () => {
    const probes = withProbe(answered('unknown-suite', 499, envelope('not_found')));
    expect(failedRules(DISCOVERY, probes)).not.toContain('wire.unknown-suite-refused');
  });

  it.each([
    [299, ', so the host accepted what it cannot have'],
    [199, ''],
    [400, ''],
  ] as const)(
    'an unknown run answered %i says only what its status means (%j)',
    (status, meaning) => {
      const probes = withProbe(answered('unknown-run', status, { notJson: 'nope' }));
      const [only] = failures(DISCOVERY, probes).filter(
        ([rule]) => rule === 'wire.unknown-run-not-found',
      );
      // A body that is not JSON names no error code.
      expect(only?.[1]).toBe(
        `GET /runs/t%2Fprobe-1/eval-summary (the summary of a run id the host never minted, in the host's own tenant) SHOULD be answered 404; the status is at fault: it was answered ${status}${meaning}`,
      );
    },
  );
});
