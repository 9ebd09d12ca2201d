// The host checks of the falsifiability matrix, written by hand: for each row, the host-check
// rules that must fail (discovery judged, refusals provoked once per run). A row not listed must
// fail none, so a defect in one clause cannot hide behind another. Kept apart from expected.ts,
// whose table is per leg: host checks belong to no leg.
//
// Why each listed row fails what it does:
//   no-key-check        the creates sent without Authorization, with a wrong bearer token and
//                       with the four near-miss tokens are answered 404 not_found (the unknown
//                       suite they name), not 401: wire.unauthenticated-refused,
//                       wire.wrong-key-refused, and auth.no-bypass for every token served.
//   any-bearer-accepted the creates with a wrong or a near-miss bearer token are answered 404
//                       not_found, the keyless one 401: wire.wrong-key-refused and auth.no-bypass.
//   key-prefix-accepted, key-case-insensitive, key-last-character-unchecked,
//   key-truncation-accepted
//                       the one near-miss token each lets through is answered 404 not_found,
//                       every other credential probe 401: only auth.no-bypass.
//   discovery-no-witness  agents has no witness: one wire.discovery finding naming it.
//   discovery-v1-flag     agents.evalSuite has supported: true: one wire.discovery finding
//                       naming it.
//   unknown-run-bad-request     the unknown run's summary is answered 400 validation_error, a
//                       valid envelope at its registered status: only wire.unknown-run-not-found.
//   unknown-suite-server-error  the unknown suite's create is answered 500 internal_error, a
//                       valid envelope at its registered status: only wire.unknown-suite-refused.
//   unadvertised-summary-refused  discovery withholds agents.evalSuite and the summary of a
//                       made-up run is answered 422 capability_not_provided, a valid envelope at
//                       its registered status: only wire.unadvertised-operation-not-found.
//   error-body-dialect  every provoked refusal has the right status and a {error: {code,
//                       message}} body: wire.error-body on each, and no status rule.

import type { RuleId } from '../../lib/eval-gate-witness.ts';
import type { PROBE_RULES } from '../../lib/host-probes.ts';
import type { RowName } from './expected.ts';

/** Discovery's rule, the error envelope's, and every rule a probe of the probe table judges. */
export type HostCheckRule = Extract<
  RuleId,
  'wire.discovery' | 'wire.error-body' | (typeof PROBE_RULES)[number]['id']
>;

export const HOST_CHECK_FAILURES: Readonly<Partial<Record<RowName, readonly HostCheckRule[]>>> = {
  'no-key-check': ['wire.unauthenticated-refused', 'wire.wrong-key-refused', 'auth.no-bypass'],
  'any-bearer-accepted': ['wire.wrong-key-refused', 'auth.no-bypass'],
  'key-prefix-accepted': ['auth.no-bypass'],
  'key-case-insensitive': ['auth.no-bypass'],
  'key-last-character-unchecked': ['auth.no-bypass'],
  'key-truncation-accepted': ['auth.no-bypass'],
  'discovery-no-witness': ['wire.discovery'],
  'discovery-v1-flag': ['wire.discovery'],
  'unknown-run-bad-request': ['wire.unknown-run-not-found'],
  'unknown-suite-server-error': ['wire.unknown-suite-refused'],
  'unadvertised-summary-refused': ['wire.unadvertised-operation-not-found'],
  'error-body-dialect': ['wire.error-body'],
};

/** The rules that must fail on a row's host checks, sorted; none for an unlisted row. */
export function hostCheckFailures(row: RowName): readonly HostCheckRule[] {
  return [...(HOST_CHECK_FAILURES[row] ?? [])].sort();
}
