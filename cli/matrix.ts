// `openwop-eval-gate matrix REPORT... --out DIR`: verifies every report through one injected
// function, builds the matrix from what verification stands behind, checks it against its
// schema, and writes matrix.json, matrix.md, index.html and a page per recomputing report. The
// output depends on the reports alone: the same reports in any order give the same bytes.

import { copyFile, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { makeDirectory, unwritableReason } from '../lib/make-directory.ts';
import { Refusal } from '../lib/refusal.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import type { InputLimits } from '../lib/bounded-input.ts';
import { sidecarFilesOf, sidecarReader } from '../lib/report/generated-sidecar.ts';
import { pageViewsFor } from '../lib/report/page-inputs.ts';
import { renderHtml } from '../lib/report/render/html/render-html.ts';
import type { MatrixInput } from '../lib/report/render/matrix/build.ts';
import { buildMatrix, recomputes } from '../lib/report/render/matrix/build.ts';
import type { Matrix, MatrixVerifier } from '../lib/report/render/matrix/model.ts';
import {
  MATRIX_HTML,
  MATRIX_JSON,
  MATRIX_MARKDOWN,
  renderMatrixHtml,
  renderMatrixMarkdown,
} from '../lib/report/render/matrix/render.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import { runVerdict } from '../lib/report/verdict/run-verdict.ts';
import { expectationsFor } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { UsageError } from './args.ts';
import { consoleText, mixedScripts } from '../lib/untrusted-text.ts';
import { anchoredVerifier } from './matrix-verifier.ts';
import { inputLimitsOf } from './input-limits.ts';
import { TrustSources, trustOptionsOf } from './trust-source.ts';

/** A path as a link from the matrix's folder: relative, forward slashes, never a scheme. */
function linkPath(outDir: string, path: string): string {
  const rel = relative(resolve(outDir), resolve(path)).split(sep).join('/');
  return isAbsolute(rel) || rel.startsWith('.') ? rel : `./${rel}`;
}

const dirOf = (path: string | undefined): string | undefined =>
  path === undefined ? undefined : dirname(path);

/**
 * The sidecars a report that recomputes names for its generated packs, its repetitions' included:
 * file names in its own folder, which verify has just read there. A name that would leave the
 * folder is never copied.
 */
function sidecarsOf(input: MatrixInput): string[] {
  if (!recomputes(input)) return [];
  return sidecarFilesOf(input.verification.report as EvalGateReport).filter(
    (file) => basename(file) === file,
  );
}

/** An --out folder the matrix cannot be written to. */
export class MatrixOutError extends Refusal {
  override readonly name: string = 'MatrixOutError';
}

export async function matrixCommand(
  paths: readonly string[],
  options: Readonly<Record<string, string>>,
  out: (line: string) => void,
  verifier: MatrixVerifier = anchoredVerifier(
    new TrustSources(trustOptionsOf(options)),
    inputLimitsOf(options),
  ),
): Promise<number> {
  const limits = inputLimitsOf(options);
  const outDir = options.out;
  if (outDir === undefined) throw new UsageError('matrix needs --out DIR, such as --out matrix');
  // Proved writable, in steps bounded by the path's depth, before any report is verified.
  const unwritable = await unwritableReason(join(outDir, 'reports'));
  if (unwritable !== undefined) {
    throw new MatrixOutError(
      `--out ${outDir} could not be written (${unwritable}); give --out a writable folder`,
    );
  }
  const { inputs, read } = await verifyEach(paths, outDir, verifier);
  const matrix = buildMatrix(inputs);
  const errors = validate('matrix', matrix);
  if (errors.length > 0) {
    throw new Error(
      `the matrix does not match its schema (${formatSchemaErrors(errors).replace(/\n/g, '; ')})`,
    );
  }
  await writeMatrix(outDir, matrix, inputs, read, limits);
  // A published folder keeps its links, and its copies verify: each report is copied into a
  // folder of its own beside its page, with the sidecars its generated pack names.
  await Promise.all(
    matrix.columns.map(async (c) => {
      const from = read.get(c.source);
      const input = inputs.find((i) => i.file === c.source);
      if (from === undefined || input === undefined) return;
      const to = join(outDir, c.file);
      await makeDirectory(dirname(to));
      await copyFile(from, to);
      for (const sidecar of sidecarsOf(input)) {
        await copyFile(join(dirname(from), sidecar), join(dirname(to), sidecar));
      }
    }),
  );
  for (const column of matrix.columns) out(columnLine(column));
  out(
    `wrote ${join(outDir, MATRIX_JSON)}, ${MATRIX_MARKDOWN} and ${MATRIX_HTML}: ${matrix.columns.length} reports, ${matrix.rows.length} rows`,
  );
  // A matrix of reports none of which verifies shows nothing a reader may rely on: as `verify`
  // exits 1 on a report that does not verify, so does the matrix when none does.
  if (matrix.columns.every((c) => c.verification === 'unverified')) {
    out(`no report verifies: the matrix shows no result (${matrix.columns.length} unverified)`);
    return EXIT.failed;
  }
  return EXIT.ok;
}

/**
 * Each report once, verified, with where the matrix links it; `read` maps that link back to the
 * file, so the report can be copied in beside its page.
 */
async function verifyEach(
  paths: readonly string[],
  outDir: string,
  verifier: MatrixVerifier,
): Promise<{ inputs: MatrixInput[]; read: Map<string, string> }> {
  const unique = [...new Set(paths.map((p) => resolve(p)))];
  const inputs: MatrixInput[] = [];
  const read = new Map<string, string>();
  // One at a time: verification recomputes every row, and the machine may be busy.
  for (const path of unique) {
    const source = linkPath(outDir, path);
    read.set(source, path);
    inputs.push({ verification: await verifier(path), file: source });
  }
  return { inputs, read };
}

/** The label is the report's: one line, its controls shown, a look-alike name flagged. */
function columnLine(column: Matrix['columns'][number]): string {
  const why = column.problems[0];
  const mixed = mixedScripts(column.implementation);
  return consoleText(
    `${column.verification}: ${column.label}${mixed === undefined ? '' : ` (mixed scripts: ${mixed})`} (${column.source})${why === undefined ? '' : `: ${why}`}`,
  );
}

async function writeMatrix(
  outDir: string,
  matrix: Matrix,
  inputs: readonly MatrixInput[],
  read: ReadonlyMap<string, string>,
  limits: InputLimits,
): Promise<void> {
  await makeDirectory(join(outDir, 'reports'));
  const pages = await Promise.all(
    inputs.filter(recomputes).map(async (input) => {
      const report = input.verification.report as EvalGateReport;
      const column = matrix.columns.find((c) => c.source === input.file);
      if (column?.page === null || column === undefined) return [];
      const [expectations, views] = await Promise.all([
        expectationsFor(report),
        // The smallest failing cases of a streamed pack are read from the sidecar beside the
        // report, as `report --html` reads them.
        pageViewsFor(
          report,
          input.verification.decidedCases ?? new Map(),
          sidecarReader(dirOf(read.get(input.file)), limits),
        ),
      ]);
      return [
        [
          join(outDir, column.page),
          renderHtml(
            report,
            runVerdict(report, input.verification.certification),
            expectations,
            views,
          ),
        ] as const,
      ];
    }),
  );
  const files: (readonly [string, string])[] = [
    [join(outDir, MATRIX_JSON), `${JSON.stringify(matrix, null, 2)}\n`],
    [join(outDir, MATRIX_MARKDOWN), renderMatrixMarkdown(matrix)],
    [join(outDir, MATRIX_HTML), renderMatrixHtml(matrix)],
    ...pages.flat(),
  ];
  await Promise.all(files.map(([path, text]) => writeFile(path, text)));
}
