// Builds the matrix from verified reports: a column each, sorted by label and digest so the input
// order never shows; the requirement rows in the order of the legs, the host checks by rule, the
// certification last.

import { LEGS } from '../../../legs.ts';
import { canonicalDigest } from '../../canonical.ts';
import type { EvalGateReport } from '../../report.ts';
import { REPORT_FILE, SUITE_NAME, SUITE_VERSION } from '../../report.ts';
import { certificationCell, hostCheckCell, hostCheckRules, requirementCell } from './cells.ts';
import type { Matrix, MatrixCell, MatrixColumn, ReportVerification } from './model.ts';

export interface MatrixInput {
  readonly verification: ReportVerification;
  /** Where the report was read from, relative to the matrix's folder: its `source`. */
  readonly file: string;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/** The digest a signature covers, for any JSON: a report that does not verify still has one. */
function digestOf(parsed: unknown): string {
  const object = record(parsed);
  return canonicalDigest(object === undefined ? parsed : { ...object, signature: undefined });
}

/** Who the report says it ran against; for a report that does not verify, only a label. */
function nameOf(parsed: unknown): { name: string; version: string | null; embedded: boolean } {
  const target = record(record(parsed)?.target);
  const embedded = target?.embedded === true;
  const impl = record(target?.implementation) ?? record(target?.declared);
  const name = typeof impl?.name === 'string' ? impl.name : 'unnamed host';
  const version = typeof impl?.version === 'string' ? impl.version : null;
  return { name: embedded ? `${name} (embedded)` : name, version, embedded };
}

/** Whether the report's digests recompute, so its rows are what the suite decided. */
export function recomputes(input: MatrixInput): boolean {
  return input.verification.state !== 'unverified';
}

interface Prepared {
  readonly input: MatrixInput;
  readonly column: Omit<MatrixColumn, 'label'> & { readonly base: string };
}

function prepare(input: MatrixInput): Prepared {
  const parsed = input.verification.report;
  const { name, version, embedded } = nameOf(parsed);
  const digest = digestOf(parsed);
  const suite = record(record(parsed)?.suite);
  const baseUrl = record(record(parsed)?.target)?.baseUrl;
  const startedAt = record(parsed)?.startedAt;
  return {
    input,
    column: {
      base: version === null ? name : `${name} ${version}`,
      implementation: name,
      version,
      embedded,
      verification: input.verification.state,
      problems: [...input.verification.problems],
      anchor: input.verification.anchor ?? null,
      digest,
      // A folder of its own, where the sidecar of its generated pack is copied beside it.
      file: `reports/${digest}/${REPORT_FILE}`,
      source: input.file,
      baseUrl: typeof baseUrl === 'string' ? baseUrl : null,
      startedAt: typeof startedAt === 'string' ? startedAt : null,
      page: recomputes(input) ? `reports/${digest}.html` : null,
      suiteVersion: typeof suite?.version === 'string' ? suite.version : null,
    },
  };
}

function requirementIds(reports: readonly EvalGateReport[]): string[] {
  const known = LEGS.map((l) => l.id);
  const seen = new Set(reports.flatMap((r) => r.requirements.map((row) => row.id)));
  const others = [...seen].filter((id) => !known.includes(id)).sort();
  return [...known.filter((id) => seen.has(id)), ...others];
}

/** A column's cell for a report that does not verify: its problem, never its claimed verdict. */
function unverifiedCell(problems: readonly string[]): MatrixCell {
  return { state: 'unverified', detail: problems[0] ?? 'the report does not verify' };
}

/** An unanchored or other-referee report recomputes, but its state is what the cell says first. */
function limited(cell: MatrixCell, input: MatrixInput): MatrixCell {
  const state = input.verification.state;
  if (state === 'verified' || state === 'unverified') return cell;
  return {
    ...cell,
    state,
    recomputed: cell.state,
    detail: `${input.verification.problems[0] ?? state}; recomputes as ${cell.state}: ${cell.detail}`,
  };
}

export function buildMatrix(inputs: readonly MatrixInput[]): Matrix {
  const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = inputs
    .map(prepare)
    .sort(
      (a, b) =>
        a.column.base.localeCompare(b.column.base, 'en') ||
        order(a.column.digest, b.column.digest) ||
        order(a.column.source, b.column.source),
    );
  // One report copied to two places is one column: the first file in order stands for it.
  const prepared = sorted.filter((p, i) => sorted[i - 1]?.column.digest !== p.column.digest);
  const counts = new Map<string, number>();
  for (const p of prepared) counts.set(p.column.base, (counts.get(p.column.base) ?? 0) + 1);
  const columns: MatrixColumn[] = prepared.map(({ column: { base, ...rest } }) => ({
    ...rest,
    label: (counts.get(base) ?? 0) > 1 ? `${base} @${rest.digest.slice(0, 8)}` : base,
  }));
  const reportOf = (p: Prepared): EvalGateReport | undefined =>
    recomputes(p.input) ? (p.input.verification.report as EvalGateReport) : undefined;
  const reports = prepared.flatMap((p) => reportOf(p) ?? []);
  const cell = (p: Prepared, make: (report: EvalGateReport) => MatrixCell): MatrixCell => {
    const report = reportOf(p);
    return report === undefined
      ? unverifiedCell(p.input.verification.problems)
      : limited(make(report), p.input);
  };
  return {
    matrixVersion: 1,
    suite: { name: SUITE_NAME, version: SUITE_VERSION },
    columns,
    rows: [
      ...requirementIds(reports).map((id) => ({
        kind: 'requirement' as const,
        id,
        cells: prepared.map((p) => cell(p, (r) => requirementCell(r, id))),
      })),
      ...hostCheckRules(reports).map((rule) => ({
        kind: 'host-check' as const,
        id: rule,
        cells: prepared.map((p) => cell(p, (r) => hostCheckCell(r, rule))),
      })),
      {
        kind: 'certification' as const,
        id: 'certification',
        cells: prepared.map((p) =>
          cell(p, (r) => certificationCell(r, p.input.verification.certification)),
        ),
      },
    ],
  };
}
