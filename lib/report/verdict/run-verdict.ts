// The one verdict of a run: its exit code, why the exit code is what it is, the counts, and the
// certification the report records. Every channel (the closing line, the summary's first line,
// JUnit, the badge, the action's outputs) renders this object and decides nothing again.

import { ciLimits, ciVerdict, gateCounts } from './ci-verdict.ts';
import type { GateCounts } from './ci-verdict.ts';
import { causesOf, clip, LEAD_LIMIT } from './lead.ts';
import type { CiVerdict } from './ci-verdict.ts';
import { certifiedImplementation, implementationLabel } from './certification.ts';
import type { Certification, EvalGateReport, Implementation } from '../report.ts';
import { EXIT, tally } from './verdict.ts';

export type RunResult = 'PASS' | 'FAIL' | 'BLOCKED';

/** Every count a channel states; each channel reads them here and counts nothing itself. */
export interface RunCounts extends GateCounts {
  readonly passed: number;
  readonly failed: number;
  readonly blocked: number;
  /** Inapplicable and skipped rows, the unselected among them. */
  readonly skipped: number;
  readonly total: number;
  /** Under --repeat: rows whose repetitions came to more than one disposition, allowed or not. */
  readonly flaky: number;
}

export interface RunVerdict {
  readonly exitCode: number;
  readonly result: RunResult;
  /** Why the exit code is not 0, each with what to do; empty on a pass. */
  readonly causes: readonly string[];
  /** The one leading cause, short (lib/report/verdict/lead.ts); absent when nothing fails or blocks the run. */
  readonly lead?: string;
  readonly counts: RunCounts;
  readonly embedded: boolean;
  readonly gate: CiVerdict;
  readonly certification: Certification;
  /** What a certification of this run names: the host's advertised implementation, or the declared one. */
  readonly implementation?: Implementation;
  /** What limits the run beyond its counts (a selection, a baseline, the severity gate). */
  readonly limits: readonly string[];
  /** One line per reason the run fails that the dispositions alone do not show. */
  readonly problems: readonly string[];
}

/** What a report that recorded no certification (written before it was recorded) comes to. */
export const UNRECORDED: Certification = {
  certified: false,
  reasons: [
    {
      code: 'unsigned',
      short: 'no certification recorded',
      text: 'the report records no certification, so it certifies nothing',
    },
  ],
  optOuts: [],
  signer: { state: 'unsigned' },
};

function countsOf(report: EvalGateReport, gate: CiVerdict): RunCounts {
  return {
    ...tally(report.requirements.map((r) => r.disposition)),
    total: report.requirements.length,
    flaky: gate.flaky.length + gate.allowedFlaky.length,
    ...gateCounts(report, gate),
  };
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * The verdict of `report`. A run renders the certification it recorded; a verifier passes the
 * certification it stands behind (lib/report/verify/anchor.ts), which may withhold what the run claimed.
 */
export function runVerdict(
  report: EvalGateReport,
  certification: Certification = report.certification ?? UNRECORDED,
  gate: CiVerdict = ciVerdict(report),
): RunVerdict {
  const exitCode = gate.exitCode;
  const implementation = certifiedImplementation(report.target);
  const counts = countsOf(report, gate);
  const { lead, causes, problems } = causesOf(report, gate);
  return {
    exitCode,
    // Under --fail-on none the exit code waives a failure; the result still names it.
    result: gate.failing ? 'FAIL' : exitCode === EXIT.blocked ? 'BLOCKED' : 'PASS',
    causes: [...causes],
    ...(lead === undefined ? {} : { lead }),
    counts,
    embedded: report.target.embedded,
    gate,
    certification,
    ...(implementation === undefined ? {} : { implementation }),
    limits: ciLimits(report, gate, counts),
    problems: [...problems],
  };
}

/**
 * `certified: acme-host 1.2.0 (signed by key K; opted out: G (3 requirements))`, naming what it
 * certifies, or `not certified: A, B`.
 */
export function certificationClause(verdict: RunVerdict): string {
  const c = verdict.certification;
  if (!c.certified) return `not certified: ${c.reasons.map((r) => r.short).join(', ')}`;
  const signer = c.signer.state === 'verified' ? `signed by key ${c.signer.keyId}` : 'signed';
  const what =
    verdict.implementation === undefined ? '' : `: ${implementationLabel(verdict.implementation)}`;
  return `certified${what} (${[signer, ...optOutClauses(verdict)].join('; ')})`;
}

/** `opted out: agents.evalSuite.trials (3 requirements)`, one per declared opt-out. */
export function optOutClauses(verdict: RunVerdict): string[] {
  return verdict.certification.optOuts.map(
    (o) => `opted out: ${o.gate} (${plural(o.requirements.length, 'requirement')})`,
  );
}

/**
 * `Result: FAIL (exit 1): 12 requirements failed, first suite.passed in mean-gated`: the result
 * and its one leading cause, with the certification when it fits, in at most LEAD_LIMIT
 * characters. The summary's first line and the action's `verdict` output; the causes in full
 * follow it in the summary.
 */
export function headline(verdict: RunVerdict): string {
  const target = verdict.embedded ? ' against the embedded reference host' : '';
  const head = `Result: ${verdict.result} (exit ${verdict.exitCode})${target}`;
  const certification = certificationClause(verdict);
  if (verdict.lead === undefined) return clip(`${head}; ${certification}`);
  const waived =
    verdict.result === 'FAIL' && verdict.exitCode === EXIT.ok
      ? '; exit 0 under --fail-on none'
      : '';
  const line = `${head}: ${verdict.lead}${waived}`;
  const whole = `${line}; ${certification}`;
  return clip(whole.length <= LEAD_LIMIT ? whole : line);
}

/**
 * `FAIL: 12 requirements failed, first suite.passed in mean-gated`, or `PASS`: the result and its
 * one leading cause, in at most LEAD_LIMIT characters. The closing line's first clause.
 */
export function verdictClause(verdict: RunVerdict): string {
  return clip(verdict.lead === undefined ? verdict.result : `${verdict.result}: ${verdict.lead}`);
}

/**
 * The closing line, the console's last (CI reads it) and the summary's and the page's: the
 * verdict and its one leading cause first, then `N passed, N failed, N blocked, N skipped`, what
 * limits the run and the certification. CLOSING_LINE_FORMAT is its shape as the docs state it.
 */
export function closingLineOf(verdict: RunVerdict): string {
  const c = verdict.counts;
  return [
    verdictClause(verdict),
    `${c.passed} passed, ${c.failed} failed, ${c.blocked} blocked, ${c.skipped} skipped`,
    ...verdict.limits,
    ...(verdict.embedded ? ['embedded reference host'] : []),
    certificationClause(verdict),
  ].join('; ');
}

/** The closing line's shape, in the words README.md, the help and docs/*.md state it. */
export const CLOSING_LINE_FORMAT =
  'RESULT[: CAUSE]; N passed, N failed, N blocked, N skipped[; LIMITS]; CERTIFICATION';

/**
 * The action's step outputs beside `exit-code` (which the process exit status carries):
 * `name=value` lines for $GITHUB_OUTPUT, each value one line.
 */
export function stepOutputs(verdict: RunVerdict): readonly string[] {
  return [
    `result=${verdict.result}`,
    `certified=${verdict.certification.certified}`,
    `implementation=${verdict.implementation === undefined ? '' : implementationLabel(verdict.implementation).replace(/[\r\n]+/g, ' ')}`,
    `verdict=${headline(verdict).replace(/[\r\n]+/g, ' ')}`,
    `passed=${verdict.counts.passed}`,
    `failed=${verdict.counts.failed}`,
    `blocked=${verdict.counts.blocked}`,
    `skipped=${verdict.counts.skipped}`,
    `flaky=${verdict.counts.flaky}`,
  ];
}
