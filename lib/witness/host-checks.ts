// The host checks (contract §1, §2, §6): discovery against the published v2 root, and the
// refusals the suite provoked once per run, each against the status it must have and the v2 error
// envelope. Pure: the observations come in as data, recorded in the report so `verify` judges
// them again offline. Every rule is SHOULD, so none decides an RFC 0246 leg; a probe that was not
// made or not answered is said to be unexercised, and one a host fact rules out is inapplicable
// with that fact: neither is ever passed or failed.

import type {
  Finding,
  InapplicableRule,
  ObservedBody,
  ObservedProbe,
  ProbeName,
  UnexercisedRule,
} from '../types.ts';
import { PROBE_RULES, probeNamed, type ProbeCheck } from '../host-probes.ts';
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
  readonly inapplicable: readonly InapplicableRule[];
}

/** Whether a probe sends a near-miss token, beside which the wrong key is judged for a bypass. */
function sendsNearMiss(name: ProbeName): boolean {
  const request = probeNamed(name).request;
  return request.send === 'create' && request.credential.send === 'near-miss';
}

/**
 * Every rule the host checks can judge: discovery, each probe's status, and the error envelope of
 * each probe's answer. A leg that also owes one of them (`wire.error-body`) owes it for the run,
 * not for itself: one judgement anywhere in the run exercises it.
 */
export const HOST_CHECK_RULES: ReadonlySet<RuleId> = new Set<RuleId>([
  'wire.discovery',
  ...PROBE_RULES.map((r) => r.id),
  'wire.error-body',
]);

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
  const inapplicable: InapplicableRule[] = [];
  if (discovery.ok) findings.push(judgeDiscovery(discovery.document));
  else
    unexercised.push({
      rule: 'wire.discovery',
      reason: `discovery was not read: ${discovery.reason}`,
    });
  const bypassProbed = probes.some((p) => sendsNearMiss(p.probe));
  for (const probe of probes) {
    // A record made before the near-miss keys were probed holds none of them: the bypass rule,
    // which reads the wrong key beside them, was not part of what that run judged, so a replay of
    // it judges the wrong key as that run did.
    const expectations = probeNamed(probe.probe).checks.filter(
      (e) => bypassProbed || e.rule.id !== 'auth.no-bypass',
    );
    const each = (why: string, into: { rule: string; reason: string }[]): void => {
      // A rule judged on several probes is listed once for each distinct reason it was left open.
      for (const e of expectations) {
        if (!into.some((u) => u.rule === e.rule.id && u.reason === why)) {
          into.push({ rule: e.rule.id, reason: why });
        }
      }
    };
    switch (probe.outcome) {
      case 'answered':
        if (DEFERRING.has(probe.status)) {
          each(
            `${probe.request} was answered ${probe.status}, which defers the request rather than answering it`,
            unexercised,
          );
        } else {
          findings.push(...judgeProbe(expectations, probe.request, probe.status, probe.body));
        }
        break;
      case 'unobserved':
        each(`${probe.request} was sent and not observed: ${probe.reason}`, unexercised);
        break;
      case 'not-made':
        each(`not sent: ${probe.reason}`, unexercised);
        break;
      case 'inapplicable':
        each(probe.reason, inapplicable);
        break;
    }
  }
  return { findings, unexercised, inapplicable };
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
  expectations: readonly ProbeCheck[],
  request: string,
  status: number,
  body: ObservedBody,
): Finding[] {
  const seen = `answered ${status}${codeOf(body)}`;
  const out: Finding[] = expectations.map((expectation) => {
    const id = expectation.rule.id as RuleId;
    const held = expectation.holds(status);
    if (held) return finding(id, true, `${request} (${expectation.what}) was ${seen}`);
    const severity = expectation.rule.severity;
    const lead = id === 'auth.no-bypass' ? 'authentication bypass: ' : '';
    return finding(
      id,
      false,
      `${lead}${request} (${expectation.what}) ${severity} be ${id === 'auth.no-bypass' ? '' : 'answered '}${expectation.expected}; the status is at fault: it was ${seen}${consequence(id, status)}`,
    );
  });
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
  if (rule === 'wire.unadvertised-operation-not-found') {
    return ', though a gated operation the host does not advertise answers 404, as a path it does not serve';
  }
  return '';
}

/** What the caller of each credential probe sent, in the words of a consequence. */
const CREDENTIAL_WORDS: Partial<Record<RuleId, { readonly sent: string; readonly past: string }>> =
  {
    'wire.unauthenticated-refused': { sent: 'no key', past: 'the missing key' },
    'wire.wrong-key-refused': { sent: 'a wrong key', past: 'the wrong key' },
    'auth.no-bypass': { sent: 'a token that is not the key', past: 'a token that is not the key' },
  };

/** ` (error "not_found")` when the body names a string code, else nothing. */
function codeOf(body: ObservedBody): string {
  if (!('json' in body)) return '';
  const code = member(body.json, 'error');
  return typeof code === 'string' ? ` (error ${JSON.stringify(code)})` : '';
}
