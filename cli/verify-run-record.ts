// The CI half of `verify`: the report's record of its selection, baseline, severity gate and
// certification must be what the rows, the recorded options and the signature rebuild to. The row
// digest does not cover these members, so an unsigned report edited to excuse a failure, or to
// claim a certification, is caught here.

import { canonicalJson } from '../lib/report/canonical.ts';
import { plain } from '../lib/report/baseline.ts';
import { plainOverride } from '../lib/report/severity.ts';
import type { Certification, EvalGateReport } from '../lib/report/report.ts';
import type { RunOptions } from '../lib/report/run-record.ts';
import type { Selection } from '../lib/report/run-options.ts';
import { runRecord } from '../lib/report/run-record.ts';
import { withCertification } from '../lib/report/certification.ts';
import { signerOf } from '../lib/report/signature.ts';
import { baselineContext } from '../lib/report/ci-verdict.ts';
import { requirementSetOf } from '../lib/requirement-sets.ts';

export function checkRunRecord(report: EvalGateReport): string[] {
  const { failOn, selection, baseline, repeat, certification } = report;
  // A report written before these were recorded has none of them and ran with none.
  const none = [failOn, selection, baseline, repeat, certification].every((m) => m === undefined);
  if (none) return [];
  const options: RunOptions = {
    ...(failOn === undefined ? {} : { failOn }),
    ...(selection === undefined ? {} : { selection: selectionOf(selection) }),
    ...(baseline === undefined
      ? {}
      : {
          baseline: {
            file: baseline.file,
            sha256: baseline.sha256,
            entries: baseline.entries.map(plain),
            ...(baseline.severity === undefined
              ? {}
              : { severity: baseline.severity.map(plainOverride) }),
          },
        }),
    // The count is what the run asked for; the rows' repetitions say what it came to.
    ...(repeat === undefined ? {} : { repeat: repeat.count }),
  };
  const again = {
    ...runRecord(options, report.requirements, baselineContext(report)),
    certification: rulesOfItsTime(
      report,
      withCertification(report, signerOf(report)).certification,
    ),
  };
  const recorded = { failOn: failOn ?? 'must', selection, baseline, repeat, certification };
  const problems: string[] = [...checkRepetitionCounts(report)];
  for (const member of ['failOn', 'selection', 'baseline', 'repeat', 'certification'] as const) {
    const was = canonicalJson(recorded[member] ?? null);
    const now = canonicalJson(again[member] ?? null);
    if (was !== now) {
      problems.push(`${member}: recorded ${clip(was)}, the rows and options rebuild ${clip(now)}`);
    }
  }
  return problems;
}

/**
 * Every row of a repeated run holds one repetition fewer than the count, each of its own
 * requirement; a run that did not repeat holds none.
 */
function checkRepetitionCounts(report: EvalGateReport): string[] {
  const expected = (report.repeat?.count ?? 1) - 1;
  return report.requirements.flatMap((row) => {
    const held = row.repetitions ?? [];
    const problems =
      held.length === expected
        ? []
        : [
            `row ${row.id}: ${held.length} repetitions recorded, the run's repeat count gives ${expected}`,
          ];
    held.forEach((r, i) => {
      if (r.id !== row.id || r.fixtureId !== row.fixtureId) {
        problems.push(`row ${row.id}: repetitions[${i}] is of ${r.id}, not of its row`);
      }
      if ('repetitions' in r) problems.push(`row ${row.id}: repetitions[${i}] holds repetitions`);
    });
    return problems;
  });
}

/** The reasons a run began to record once it recorded its referee's judging digest. */
const NAMING_REASONS: ReadonlySet<string> = new Set(['unnamed', 'implementation-mismatch']);

/**
 * The certification a report's own suite would have recorded: one written before the suite
 * recorded its judging digest did not yet withhold a certification for an unnamed or mismatched
 * implementation, so those reasons are not asked of it (verify still withholds its certification:
 * another referee judged it).
 */
function rulesOfItsTime(
  report: EvalGateReport,
  rebuilt: Certification | undefined,
): Certification | undefined {
  if (rebuilt === undefined || report.suite.judgingDigest !== undefined) return rebuilt;
  const reasons = rebuilt.reasons.filter((r) => !NAMING_REASONS.has(r.code));
  return { ...rebuilt, reasons, certified: reasons.length === 0 };
}

/**
 * The selection as given; a pinned set is rebuilt from the version the suite shipped, so a report
 * edited to claim a set with fewer requirements than that version holds does not verify.
 */
function selectionOf(selection: NonNullable<EvalGateReport['selection']>): Selection {
  const version = selection.requirementSet?.version;
  const shipped = version === undefined ? undefined : requirementSetOf(version);
  return {
    only: selection.only,
    skip: selection.skip,
    ...(shipped === undefined ? {} : { requirementSet: shipped }),
  };
}

/** Enough of a member's JSON to see where it differs without flooding the output. */
function clip(json: string): string {
  return json.length > 240 ? `${json.slice(0, 240)}…` : json;
}
