// The host checks of the falsifiability matrix, written by hand: for each row, the host-check
// rules that must fail (discovery judged, refusals provoked once per run). A row not listed must
// fail none, so a defect in one clause cannot hide behind another. Kept apart from expected.ts,
// whose table is per leg: host checks belong to no leg.
//
// Why each listed row fails what it does:
//   no-key-check        the creates sent without Authorization and with a wrong bearer token are
//                       answered 404 not_found (the unknown suite they name), not 401:
//                       wire.unauthenticated-refused and wire.wrong-key-refused.
//   any-bearer-accepted the create with a wrong bearer token is answered 404 not_found, the
//                       keyless one 401: only wire.wrong-key-refused.
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
import type { RowName } from './expected.ts';

export type HostCheckRule = Extract<
  RuleId,
  | 'wire.discovery'
  | 'wire.unauthenticated-refused'
  | 'wire.wrong-key-refused'
  | 'wire.unknown-run-not-found'
  | 'wire.unknown-suite-refused'
  | 'wire.unadvertised-operation-not-found'
  | 'wire.error-body'
>;

export const HOST_CHECK_FAILURES: Readonly<Partial<Record<RowName, readonly HostCheckRule[]>>> = {
  'no-key-check': ['wire.unauthenticated-refused', 'wire.wrong-key-refused'],
  'any-bearer-accepted': ['wire.wrong-key-refused'],
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
