// The host checks (contract §1, §2, §6): discovery against the published v2 root, and the
// refusals the suite provoked once per run, each against the status it must have and the v2 error
// envelope. Pure: the observations come in as data, recorded in the report so `verify` judges
// them again offline. Every rule is SHOULD, so none decides an RFC 0246 leg; a probe that was not
// made or not answered is said to be unexercised, never passed and never failed.

import type { Finding, ObservedBody, ObservedProbe, ProbeName, UnexercisedRule } from '../types.ts';
import { validate } from '../schemas.ts';
import { schemaProblems } from './schema-words.ts';
import { describe, finding, member } from './finding.ts';
import type { RuleId } from './rules.ts';
import { judgeErrorAnswer } from './wire.ts';

/** The discovery the run read: its parsed document, or why there is none. */
export type DiscoveryRead =
  | { readonly ok: true; readonly document: unknown }
  | { readonly ok: false; readonly reason: string };

export interface HostCheckJudgement {
  readonly findings: readonly Finding[];
  readonly unexercised: readonly UnexercisedRule[];
}

interface ProbeExpectation {
  readonly rule: RuleId;
  /** What the request is, for a reader who does not know the probe. */
  readonly what: string;
  readonly expected: string;
  readonly holds: (status: number) => boolean;
}

const PROBES: Readonly<Record<ProbeName, ProbeExpectation>> = {
  'no-credentials': {
    rule: 'wire.unauthenticated-refused',
    what: 'a create sent without an Authorization header',
    expected: '401',
    holds: (status) => status === 401,
  },
  'wrong-credentials': {
    rule: 'wire.wrong-key-refused',
    what: 'a create sent with a bearer token that is not the key',
    expected: '401',
    holds: (status) => status === 401,
  },
  'unknown-run': {
    rule: 'wire.unknown-run-not-found',
    what: "the summary of a run id the host never minted, in the host's own tenant",
    expected: '404',
    holds: (status) => status === 404,
  },
  'unknown-suite': {
    rule: 'wire.unknown-suite-refused',
    what: 'a create naming an eval suite the host does not have',
    expected: 'a 4xx (404 not_found in the v2 registry)',
    holds: (status) => status >= 400 && status <= 499,
  },
};

/** Every rule the host checks can record: discovery, each probe's status, and its error body. */
export const HOST_CHECK_RULES: readonly RuleId[] = [
  'wire.discovery',
  ...Object.values(PROBES).map((p) => p.rule),
  'wire.error-body',
];

/**
 * Statuses that put a request off (rate limited, unavailable) rather than answer it: the probe is
 * sent once, so such an answer shows nothing about the clause, which is said, not judged.
 */
const DEFERRING: ReadonlySet<number> = new Set([429, 503]);

/** Schema errors shown in a discovery finding; the rest are counted. */
const DISCOVERY_ERRORS_SHOWN = 4;

export function judgeHostChecks(
  discovery: DiscoveryRead,
  probes: readonly ObservedProbe[],
): HostCheckJudgement {
  const findings: Finding[] = [];
  const unexercised: UnexercisedRule[] = [];
  if (discovery.ok) findings.push(judgeDiscovery(discovery.document));
  else
    unexercised.push({
      rule: 'wire.discovery',
      reason: `discovery was not read: ${discovery.reason}`,
    });
  for (const probe of probes) {
    const expectation = PROBES[probe.probe];
    switch (probe.outcome) {
      case 'answered':
        if (DEFERRING.has(probe.status)) {
          unexercised.push({
            rule: expectation.rule,
            reason: `${probe.request} was answered ${probe.status}, which defers the request rather than answering it`,
          });
        } else {
          findings.push(...judgeProbe(expectation, probe.request, probe.status, probe.body));
        }
        break;
      case 'unobserved':
        unexercised.push({
          rule: expectation.rule,
          reason: `${probe.request} was sent and not observed: ${probe.reason}`,
        });
        break;
      case 'not-made':
        unexercised.push({ rule: expectation.rule, reason: `not sent: ${probe.reason}` });
        break;
    }
  }
  return { findings, unexercised };
}

function judgeDiscovery(document: unknown): Finding {
  const problems: string[] = [];
  const errors = validate('discovery', document);
  if (errors.length > 0) {
    problems.push(schemaProblems(errors, document, DISCOVERY_ERRORS_SHOWN));
  }
  const preferred = member(document, 'preferredVersion');
  const versions = member(document, 'protocolVersions');
  if (typeof preferred === 'string' && Array.isArray(versions) && !versions.includes(preferred)) {
    problems.push(
      `discovery#/preferredVersion: ${describe(preferred)} is not one of protocolVersions`,
    );
  }
  return finding(
    'wire.discovery',
    problems.length === 0,
    problems.length === 0
      ? 'GET /.well-known/openwop is the published v2 root for every member the suite reads'
      : `GET /.well-known/openwop SHOULD be the published v2 root (agents a closed capability record with status, since and witness; agents.evalSuite a closed facet, which has no supported key; preferredVersion one of protocolVersions); ${problems.join('; ')}`,
  );
}

function judgeProbe(
  expectation: ProbeExpectation,
  request: string,
  status: number,
  body: ObservedBody,
): Finding[] {
  const held = expectation.holds(status);
  const seen = `answered ${status}${codeOf(body)}`;
  const out: Finding[] = [
    finding(
      expectation.rule,
      held,
      held
        ? `${request} (${expectation.what}) was ${seen}`
        : `${request} (${expectation.what}) SHOULD be answered ${expectation.expected}; the status is at fault: it was ${seen}${consequence(expectation.rule, status)}`,
    ),
  ];
  const bodyFinding = judgeErrorAnswer(request, status, body);
  if (bodyFinding !== undefined) out.push(bodyFinding);
  return out;
}

/** What a wrong status means, when it means more than a wrong number. */
function consequence(rule: RuleId, status: number): string {
  const credential = CREDENTIAL_WORDS[rule];
  if (status >= 200 && status <= 299) {
    return credential === undefined
      ? ', so the host accepted what it cannot have'
      : `, so the host served a caller that sent ${credential.sent}`;
  }
  if (credential !== undefined && status !== 403) {
    return `, so the host looked past ${credential.past}`;
  }
  return '';
}

/** What the caller of each credential probe sent, in the words of a consequence. */
const CREDENTIAL_WORDS: Partial<Record<RuleId, { readonly sent: string; readonly past: string }>> =
  {
    'wire.unauthenticated-refused': { sent: 'no key', past: 'the missing key' },
    'wire.wrong-key-refused': { sent: 'a wrong key', past: 'the wrong key' },
  };

/** ` (error "not_found")` when the body names a string code, else nothing. */
function codeOf(body: ObservedBody): string {
  if (!('json' in body)) return '';
  const code = member(body.json, 'error');
  return typeof code === 'string' ? ` (error ${JSON.stringify(code)})` : '';
}
