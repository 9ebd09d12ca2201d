// What an earlier referee may have written differently without the host having done anything
// differently: a finding's message worded as that version worded it, and a report shape an earlier
// report schema allowed. Verify reads either as a difference of referee (the report is verified, and
// this verifier does not certify it), never as a problem, and only for a report another referee
// judged: this suite's own report must be exactly what it rebuilds. Anything else a replay does not
// rebuild as recorded (a verdict, a number, a disposition, a digest these do not explain) stays a
// problem.

import { canonicalDigest } from '../canonical.ts';
import type { JsonDifference } from './json-diff.ts';
import { describeDifference } from './json-diff.ts';
import type { EvalGateReport } from '../report.ts';

/**
 * A member the report schema made required after reports without it were written, and the value
 * its absence meant then. Each is listed with the change that added it (docs/report.md).
 */
interface EarlierShape {
  /** The member's JSON path as the report's comparer names it. */
  readonly path: string;
  /** The object that holds the member, or undefined when the report has no such object. */
  readonly holder: (report: Record<string, unknown>) => Record<string, unknown> | undefined;
  readonly member: string;
  /** What a report without the member meant, so a replay that rebuilds it differently still fails. */
  readonly absentMeans: unknown;
  readonly since: string;
}

const objectAt = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

export const EARLIER_SHAPES: readonly EarlierShape[] = [
  {
    path: 'hostChecks.inapplicable',
    holder: (report) => objectAt(report.hostChecks),
    member: 'inapplicable',
    absentMeans: [],
    since:
      'host checks record an inapplicable list since commit 6230871; builds numbered 0.1.0 before it wrote none',
  },
];

/** The members of `parsed` an earlier report schema did not require and it lacks, by path. */
export function absentMembers(parsed: unknown): string[] {
  const report = objectAt(parsed);
  if (report === undefined) return [];
  return EARLIER_SHAPES.filter((shape) => {
    const holder = shape.holder(report);
    return holder !== undefined && !(shape.member in holder);
  }).map((shape) => shape.path);
}

/**
 * `parsed` with each member an earlier report schema did not require filled in with what its
 * absence meant, so the current schema can judge the rest of it.
 */
export function inCurrentShape(parsed: unknown): unknown {
  const absent = absentMembers(parsed);
  if (absent.length === 0) return parsed;
  const shaped = structuredClone(parsed) as Record<string, unknown>;
  for (const shape of EARLIER_SHAPES.filter((s) => absent.includes(s.path))) {
    (shape.holder(shaped) as Record<string, unknown>)[shape.member] = structuredClone(
      shape.absentMeans,
    );
  }
  return shaped;
}

/** Why the member at `path` was absent, as a referee difference. */
export function earlierShapeLine(path: string): string {
  const shape = EARLIER_SHAPES.find((s) => s.path === path);
  return `${path}: absent, as the report schema of an earlier referee allowed (${String(shape?.since)}); read as ${JSON.stringify(shape?.absentMeans)}`;
}

const MESSAGE_PATH = /\.findings\[\d+\]\.message$/;
const NUMBER = /\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi;

/**
 * Whether two messages of one finding say the same thing in other words: every number the
 * recorded one states appears in the rebuilt one, in the same order. A rewording may add a number
 * (a condition spelled out), never change or drop one; a finding's other members are compared on
 * their own, so a different rule, outcome or severity is a difference of its own.
 */
export function sameFindingReworded(recorded: unknown, rebuilt: unknown): boolean {
  if (typeof recorded !== 'string' || typeof rebuilt !== 'string') return false;
  const later = rebuilt.match(NUMBER) ?? [];
  let at = 0;
  for (const n of recorded.match(NUMBER) ?? []) {
    while (at < later.length && Number(later[at]) !== Number(n)) at += 1;
    if (at === later.length) return false;
    at += 1;
  }
  return true;
}

/** The report members a recorded digest covers, with the digest recomputed over what is recorded. */
const DIGESTED: readonly {
  readonly member: 'requirements' | 'hostChecks';
  readonly digest: string;
}[] = [
  { member: 'requirements', digest: 'rows' },
  { member: 'hostChecks', digest: 'hostChecks' },
];

/**
 * Splits the replay's differences of a report another referee judged: wording and earlier shapes
 * are referee differences, and a digest over members whose every difference is one of those is
 * one too, provided it recomputes over the members as recorded (so the members are what that
 * referee digested). Everything else is a problem.
 */
export function splitEarlierDifferences(
  report: EvalGateReport,
  differences: readonly JsonDifference[],
): { problems: string[]; refereeDifferences: string[] } {
  const absent = absentMembers(report);
  const explained = new Set<JsonDifference>();
  const refereeDifferences: string[] = [];
  for (const d of differences) {
    if (MESSAGE_PATH.test(d.path) && sameFindingReworded(d.recorded, d.rebuilt)) {
      explained.add(d);
      refereeDifferences.push(`${describeDifference(d)} (worded by an earlier referee)`);
    } else if (
      absent.includes(d.path) &&
      d.recorded === undefined &&
      canonicalDigest(d.rebuilt) ===
        canonicalDigest(EARLIER_SHAPES.find((s) => s.path === d.path)?.absentMeans)
    ) {
      explained.add(d);
      refereeDifferences.push(earlierShapeLine(d.path));
    }
  }
  const recorded = report as unknown as Record<string, unknown>;
  const digests = report.digests as unknown as Record<string, unknown>;
  for (const { member, digest } of DIGESTED) {
    const d = differences.find((x) => x.path === `digests.${digest}`);
    if (d === undefined) continue;
    const under = differences.filter(
      (x) => x.path.startsWith(`${member}.`) || x.path.startsWith(`${member}[`),
    );
    const wholeAsRecorded =
      recorded[member] !== undefined && digests[digest] === canonicalDigest(recorded[member]);
    if (under.length > 0 && under.every((x) => explained.has(x)) && wholeAsRecorded) {
      explained.add(d);
      refereeDifferences.push(
        `digests.${digest}: recomputes over ${member} as recorded; differs from the rebuild only by the wording and shape above`,
      );
    }
  }
  return {
    problems: differences.filter((d) => !explained.has(d)).map(describeDifference),
    refereeDifferences,
  };
}
