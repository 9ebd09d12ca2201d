// The host checks the suite provokes once per run (contract §1, §6), one object each: its name,
// the request the observer sends and the grounds it needs, and the checks the witness makes of
// the answer (the rule with its catalogue entry, what the request is, the status expected and the
// pure predicate that holds it). Everything else derives from this table: the probe names, the
// send list (lib/observe/probes.ts), the judging (lib/witness/host-checks.ts), the rules'
// catalogue entries and the host-check coverage (lib/witness/rules.ts), and the report schema's
// probe names (npm run docs:generate). The observer reads only `request`; the witness reads only
// `checks`. This module imports nothing that runs, so the witness stays pure reading it.

import type { NearMissKind } from './observe/near-miss-keys.ts';

/** A rule's catalogue entry, declared beside the probe that judges it. */
export interface ProbeRule<Id extends string = string> {
  readonly id: Id;
  readonly severity: 'MUST' | 'SHOULD';
  readonly ref: string;
  readonly statement: string;
}

/** What the witness asks of a probe's status, and how it says so. */
export interface ProbeCheck {
  readonly rule: ProbeRule;
  /** What the request is, for a reader who does not know the probe. */
  readonly what: string;
  readonly expected: string;
  /** Pure: whether the answered status keeps the rule. */
  readonly holds: (status: number) => boolean;
}

/**
 * The credential a create carries, and why it is not sent without a configured key (a missing or
 * a wrong key proves nothing to a host that checks none).
 */
export type ProbeCredential =
  | { readonly send: 'key' }
  | { readonly send: 'none'; readonly withoutKey: string }
  | { readonly send: 'wrong-key'; readonly withoutKey: string }
  | { readonly send: 'near-miss'; readonly kind: NearMissKind; readonly withoutKey: string };

/**
 * The request a probe sends: a create naming a suite no host has, with a credential; the summary
 * of a run id the host never minted, in the tenant of the run it returned (sent only when it
 * returned one); or the summary of a made-up run, asked only of a host that does not advertise
 * agents.evalSuite, the capability gating it.
 */
export type ProbeRequest =
  | { readonly send: 'create'; readonly credential: ProbeCredential }
  | { readonly send: 'unknown-run-summary' }
  | { readonly send: 'unadvertised-summary' };

export interface HostProbe {
  readonly name: string;
  readonly request: ProbeRequest;
  readonly checks: readonly ProbeCheck[];
}

const rule = <const Id extends string>(
  id: Id,
  severity: 'MUST' | 'SHOULD',
  ref: string,
  statement: string,
): ProbeRule<Id> => ({ id, severity, ref, statement });

const UNAUTHENTICATED_REFUSED = rule(
  'wire.unauthenticated-refused',
  'SHOULD',
  'contract §1',
  'a request without an Authorization header is refused with status 401, before anything else is looked up',
);

const WRONG_KEY_REFUSED = rule(
  'wire.wrong-key-refused',
  'SHOULD',
  'contract §1, openwop/openwop spec/v2/errors.json',
  'a request whose bearer token is not the key is refused with status 401 unauthenticated, before anything else is looked up',
);

/**
 * Contract §1: a token that is not the key is refused before anything else is looked up. Any other
 * answer served it past authentication, which no status can excuse: a MUST, unlike the SHOULD
 * that asks for exactly 401.
 */
const NO_BYPASS = rule(
  'auth.no-bypass',
  'MUST',
  'contract §1',
  'a request whose bearer token is not the key (a wholly different token, or the key with its last character changed, a character appended, its case flipped or its last character removed) is refused 401 or 403 before anything else is looked up; serving it in any way is an authentication bypass',
);

const noBypass = (what: string) =>
  ({
    rule: NO_BYPASS,
    what,
    expected: 'refused 401 or 403, before anything else is looked up',
    holds: (status: number) => status === 401 || status === 403,
  }) as const;

const NOT_THE_KEY = 'a create sent with a bearer token that is not the key';
const NO_KEY_TO_MISS = 'no API key is configured, so there is no key to miss narrowly';

/**
 * The probes, in the order they are sent and recorded. A near-miss probe's `what` says how its token
 * differs from the key, never the token.
 */
export const HOST_PROBES = [
  {
    name: 'no-credentials',
    request: {
      send: 'create',
      credential: {
        send: 'none',
        withoutKey: 'no API key is configured, so a request without one shows nothing',
      },
    },
    checks: [
      {
        rule: UNAUTHENTICATED_REFUSED,
        what: 'a create sent without an Authorization header',
        expected: '401',
        holds: (status: number) => status === 401,
      },
    ],
  },
  {
    name: 'wrong-credentials',
    request: {
      send: 'create',
      credential: {
        send: 'wrong-key',
        withoutKey: 'no API key is configured, so the host is not expected to check one',
      },
    },
    checks: [
      {
        rule: WRONG_KEY_REFUSED,
        what: NOT_THE_KEY,
        expected: '401',
        holds: (status: number) => status === 401,
      },
      noBypass(NOT_THE_KEY),
    ],
  },
  {
    name: 'near-miss-last-character',
    request: {
      send: 'create',
      credential: { send: 'near-miss', kind: 'last-character', withoutKey: NO_KEY_TO_MISS },
    },
    checks: [
      noBypass('a create sent with the key, its last character changed, as the bearer token'),
    ],
  },
  {
    name: 'near-miss-extended',
    request: {
      send: 'create',
      credential: { send: 'near-miss', kind: 'extended', withoutKey: NO_KEY_TO_MISS },
    },
    checks: [noBypass('a create sent with the key and one more character as the bearer token')],
  },
  {
    name: 'near-miss-case-flipped',
    request: {
      send: 'create',
      credential: { send: 'near-miss', kind: 'case-flipped', withoutKey: NO_KEY_TO_MISS },
    },
    checks: [
      noBypass('a create sent with the key, the case of every letter flipped, as the bearer token'),
    ],
  },
  {
    name: 'near-miss-truncated',
    request: {
      send: 'create',
      credential: { send: 'near-miss', kind: 'truncated', withoutKey: NO_KEY_TO_MISS },
    },
    checks: [
      noBypass('a create sent with the key, its last character removed, as the bearer token'),
    ],
  },
  {
    name: 'unknown-run',
    request: { send: 'unknown-run-summary' },
    checks: [
      {
        rule: rule(
          'wire.unknown-run-not-found',
          'SHOULD',
          'contract §6',
          "the summary of a run id the host never minted, in the host's own tenant, is answered 404",
        ),
        what: "the summary of a run id the host never minted, in the host's own tenant",
        expected: '404',
        holds: (status: number) => status === 404,
      },
    ],
  },
  {
    name: 'unknown-suite',
    request: { send: 'create', credential: { send: 'key' } },
    checks: [
      {
        rule: rule(
          'wire.unknown-suite-refused',
          'SHOULD',
          'contract §6',
          'a create naming an eval suite the host does not have is refused with a 4xx status (404 not_found in the v2 registry)',
        ),
        what: 'a create naming an eval suite the host does not have',
        expected: 'a 4xx (404 not_found in the v2 registry)',
        holds: (status: number) => status >= 400 && status <= 499,
      },
    ],
  },
  {
    name: 'unadvertised-summary',
    request: { send: 'unadvertised-summary' },
    checks: [
      {
        rule: rule(
          'wire.unadvertised-operation-not-found',
          'SHOULD',
          'contract §6, openwop/openwop spec/v2/core/runs.md',
          'on a host that does not advertise agents.evalSuite, the operation it gates, GET /runs/{runId}/eval-summary, is answered 404, not a capability refusal such as 422 capability_not_provided',
        ),
        what: 'the summary of a made-up run on a host that does not advertise agents.evalSuite, which gates that operation',
        expected: '404',
        holds: (status: number) => status === 404,
      },
    ],
  },
] as const satisfies readonly HostProbe[];

/** A probe's name: what the report records it under. */
export type ProbeName = (typeof HOST_PROBES)[number]['name'];

/** Every probe's name, in the order they are sent. */
export const PROBE_NAMES: readonly ProbeName[] = HOST_PROBES.map((p) => p.name);

type ProbeRuleOf<P> = P extends { readonly checks: readonly (infer C)[] }
  ? C extends { readonly rule: infer R }
    ? R
    : never
  : never;

/** The catalogue entry of every rule a probe judges, each once, in the order probes first name them. */
export const PROBE_RULES: readonly ProbeRuleOf<(typeof HOST_PROBES)[number]>[] =
  HOST_PROBES.flatMap((p) => p.checks.map((c) => c.rule)).filter(
    (r, i, all) => all.findIndex((other) => other.id === r.id) === i,
  );

/** A probe's object by its name. */
export function probeNamed(name: ProbeName): HostProbe {
  return HOST_PROBES.find((p) => p.name === name) as HostProbe;
}
