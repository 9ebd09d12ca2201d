// The results matrix: one column per report (an implementation at a version), one row per
// requirement, per host check and for the certification. A cell shows only what verification
// stands behind: a report that does not verify shows as unverified in every cell, never as the
// verdict it claims. Built from verified inputs alone, with no clock, so the same reports in any
// order make the same matrix.

import type { Certification } from '../../report.ts';
import type { DecidedCasesByRow } from '../../../types.ts';

/** What verifying one report came to; the matrix command's one injected function decides it. */
export type ReportState = 'verified' | 'unverified' | 'unanchored' | 'different-referee';

export interface ReportVerification {
  readonly state: ReportState;
  /** The parsed file: a report when it verifies, any JSON when it does not. */
  readonly report: unknown;
  /** Why it is not verified, or what limits it; empty when verified. */
  readonly problems: readonly string[];
  /** Where the key that vouches for it was found (live discovery, a pinned keyring). */
  readonly anchor?: string;
  /** The certification the verifier stands behind; absent: the one the report records. */
  readonly certification?: Certification;
  /** The failing generated cases the report's page opens, as the verification decided them. */
  readonly decidedCases?: DecidedCasesByRow;
}

/** Verifies the report at a path; the matrix never reads a verdict this did not stand behind. */
export type MatrixVerifier = (path: string) => Promise<ReportVerification>;

export type CellState =
  | 'pass'
  | 'fail'
  | 'blocked'
  | 'inapplicable'
  | 'opted-out'
  | 'excused'
  | 'flaky'
  | 'skipped'
  | 'warning'
  | 'not-judged'
  | 'absent'
  | 'certified'
  | 'not-certified'
  | 'unverified'
  | 'unanchored'
  | 'different-referee';

export interface MatrixCell {
  readonly state: CellState;
  /** The finding, reason or problem behind the state, in a line. */
  readonly detail: string;
  /** The fragment of the report's page that holds it (`req--3`, `host-checks`, `verdict`). */
  readonly anchor?: string;
  /** For a cell whose report verifies but is unanchored or judged by another referee: what it recomputes to. */
  readonly recomputed?: CellState;
}

export interface MatrixColumn {
  /** `name version`, unique in the matrix (a digest prefix tells two runs of one version apart). */
  readonly label: string;
  readonly implementation: string;
  readonly version: string | null;
  readonly embedded: boolean;
  readonly verification: ReportState;
  readonly problems: readonly string[];
  readonly anchor: string | null;
  /** The canonical digest of the report without its signature: what a signature covers. */
  readonly digest: string;
  /**
   * The report's copy inside the matrix's folder (`reports/DIGEST/eval-gate-report.json`), with
   * the sidecar of its generated pack beside it, so the copy verifies where it is published;
   * links never leave the folder.
   */
  readonly file: string;
  /** Where the report was read from, relative to the matrix's folder; shown, never linked. */
  readonly source: string;
  /** The host address the report names. */
  readonly baseUrl: string | null;
  /** When the run started, as the report records it. */
  readonly startedAt: string | null;
  /** Its HTML page in the matrix's folder, for a report whose digests recompute. */
  readonly page: string | null;
  readonly suiteVersion: string | null;
}

export type RowKind = 'requirement' | 'host-check' | 'certification';

export interface MatrixRow {
  readonly kind: RowKind;
  readonly id: string;
  /** One per column, in column order. */
  readonly cells: readonly MatrixCell[];
}

export interface Matrix {
  readonly matrixVersion: 1;
  readonly suite: { readonly name: string; readonly version: string };
  readonly columns: readonly MatrixColumn[];
  readonly rows: readonly MatrixRow[];
}
