// The in-toto Statement a run writes beside its report: the report file as the one subject (its
// name and the sha256 of its bytes), and the run's certification as the predicate. The report's
// own signature says who the host is; a statement attested by the CI job that ran the suite
// (actions/attest, cosign attest-blob) says who ran it, through an identity the report cannot
// reach. Pure: lib/report/publish.ts validates it against its schema and writes it.

import { currentSet, requirementSetOf, type RequirementSet } from '../../requirement-sets.ts';
import { sha256Hex } from '../canonical.ts';
import type { Certification, EvalGateReport } from '../report.ts';
import { REPORT_FILE } from '../report.ts';

export const STATEMENT_FILE = 'eval-gate-report.intoto.json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** This suite's predicate: a URI under the suite's own repository, versioned with the format. */
export const PREDICATE_TYPE =
  'https://github.com/openwop/openwop-eval-gate-conformance/certification/v1';

export interface CertificationStatement {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly [
    { readonly name: string; readonly digest: { readonly sha256: string } },
  ];
  readonly predicateType: typeof PREDICATE_TYPE;
  readonly predicate: {
    readonly certification: Certification;
    readonly requirementSet: RequirementSet;
    readonly suite: EvalGateReport['suite'];
    readonly target: EvalGateReport['target'];
    readonly startedAt: string;
    readonly finishedAt: string;
  };
}

/**
 * The statement about the report whose file holds exactly `reportText`. The requirement set is the
 * one --requirements pinned, else the current set of this suite, which the run was judged under.
 */
export function certificationStatement(
  report: EvalGateReport,
  reportText: string,
  certification: Certification,
): CertificationStatement {
  const pinned = report.selection?.requirementSet?.version;
  const set = (pinned === undefined ? undefined : requirementSetOf(pinned)) ?? currentSet();
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: REPORT_FILE, digest: { sha256: sha256Hex(reportText) } }],
    predicateType: PREDICATE_TYPE,
    predicate: {
      certification,
      requirementSet: {
        version: set.version,
        requirements: [...set.requirements],
        pack: { count: set.pack.count, seed: set.pack.seed },
      },
      suite: report.suite,
      target: report.target,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
    },
  };
}
