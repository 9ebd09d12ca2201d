// A SuiteRun made into the report and its renderings: build the report, certify (and sign) it,
// refuse it if it fails its schema or still holds the key, take the one verdict, and write the
// JSON, JUnit, Markdown and HTML files and the in-toto statement about the JSON. The CLI and the
// legs file both publish a run through this, so both write the same report for the same run.

import type { KeyObject } from 'node:crypto';
import { reportText } from './report-text.ts';
import { appendFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SuiteConfig } from '../env.ts';
import { makeDirectory } from '../make-directory.ts';
import type { SuiteRun } from '../decide/run-suite.ts';
import type { DecidedCasesByRow, LegOutcome } from '../types.ts';
import { decidedCasesByRow } from '../decide/decided-cases.ts';
import { describeError } from '../observe/errors.ts';
import { formatSchemaErrors, validate } from '../schemas.ts';
import { holdsSecret } from '../secrets.ts';
import { holdsSecretForm, keyAndTokens, secretDetector } from '../secret-forms.ts';
import { canonicalJson } from './canonical.ts';
import { JUNIT_FILE, renderJunit } from './render/junit.ts';
import { MARKDOWN_FILE, renderMarkdown } from './render/markdown.ts';
import type { EvalGateReport } from './report.ts';
import { buildReport, REPORT_FILE } from './report.ts';
import type { RunOptions } from './run-record.ts';
import { ciVerdict } from './verdict/ci-verdict.ts';
import type { RunVerdict } from './verdict/run-verdict.ts';
import { runVerdict, stepOutputs } from './verdict/run-verdict.ts';
import { certifiedReport, signerOf } from './verify/signature.ts';
import { sidecarFilesOf, sidecarReader } from './generated-sidecar.ts';
import { expectationsFor } from './side-by-side.ts';
import { thisReferee } from './verify/referee.ts';
import { certificationStatement, STATEMENT_FILE } from './render/statement.ts';

export interface PublishOptions {
  /** The base URL the legs drove, and whether it was the embedded reference host. */
  readonly baseUrl: string;
  readonly embedded: boolean;
  /** The key the report must not hold; the scrubbing is checked, not assumed. */
  readonly apiKey: string | undefined;
  readonly signingKey?: KeyObject;
  /** Recorded in the signature: the key's id among the host's discovery signingKeys. */
  readonly keyId?: string;
  /** The selection, baseline and severity gate a CI job chose; recorded in the report. */
  readonly runOptions?: RunOptions;
  /** Where a CI system wants the Markdown appended (GITHUB_STEP_SUMMARY). */
  readonly stepSummaryPath?: string;
  /** Where a CI system reads the step's outputs (GITHUB_OUTPUT). */
  readonly stepOutputPath?: string;
  /** Under --repeat: the outcomes of every later run of the suite, in order. */
  readonly repetitions?: readonly (readonly LegOutcome[])[];
}

export type Published =
  | {
      readonly ok: true;
      readonly report: EvalGateReport;
      readonly verdict: RunVerdict;
      readonly files: readonly string[];
    }
  /** Nothing was written: `problem` says why, and it is a suite bug, never a verdict. */
  | { readonly ok: false; readonly problem: string };

export async function publishRun(
  run: SuiteRun,
  config: SuiteConfig,
  options: PublishOptions,
): Promise<Published> {
  let unsigned: EvalGateReport;
  try {
    unsigned = await buildReport({
      outcomes: run.outcomes,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      baseUrl: options.baseUrl,
      embedded: options.embedded,
      strict: config.requireBehavior,
      optedOut: config.optedOut,
      ...declaredOf(config),
      discovery: run.discovery ?? { ok: false, reason: 'no base URL' },
      ...(options.runOptions === undefined ? {} : { runOptions: options.runOptions }),
      ...(run.hostChecks === undefined ? {} : { hostChecks: run.hostChecks }),
      ...(options.repetitions === undefined ? {} : { repetitions: options.repetitions }),
    });
  } catch (error) {
    // A report that cannot be built (a host document too deep to redact, say) is not written.
    return { ok: false, problem: `the report could not be built (${describeError(error)})` };
  }
  // The run's CI verdict, decided once: the certification reads it and so does the verdict below.
  const gate = ciVerdict(unsigned);
  const report = certifiedReport(unsigned, options.signingKey, options.keyId, gate);
  // The text is made once: the key is looked for in the very bytes the report file will hold.
  const text = reportText(report);
  const refusal = refuseToWrite(report, text, options.apiKey);
  if (refusal !== undefined) return { ok: false, problem: refusal };
  // The one verdict every channel below renders; nothing after this line decides again.
  const verdict = runVerdict(report, report.certification, gate);
  const statement = statementText(report, text, verdict);
  if (!statement.ok) return { ok: false, problem: statement.problem };
  const files = await writeOutputs(
    { report, text, statement: statement.text, decidedCases: decidedCasesByRow(run.outcomes) },
    verdict,
    config.reportDir,
    options.stepSummaryPath,
    secretDetector(keyAndTokens(options.apiKey)),
  );
  if (typeof files === 'string') return { ok: false, problem: files };
  if (options.stepOutputPath !== undefined) {
    await appendFile(options.stepOutputPath, `${stepOutputs(verdict).join('\n')}\n`);
  }
  return { ok: true, report, verdict, files };
}

function declaredOf(config: SuiteConfig): { declared?: { name: string; version?: string } } {
  if (config.implementationName === undefined) return {};
  return {
    declared: {
      name: config.implementationName,
      ...(config.implementationVersion === undefined
        ? {}
        : { version: config.implementationVersion }),
    },
  };
}

/**
 * Why a report must not be written: it fails its own schema, it still holds the key, or its
 * certification names a signer its signature does not have (checked here, at write time).
 */
function refuseToWrite(
  report: EvalGateReport,
  text: string,
  apiKey: string | undefined,
): string | undefined {
  const recorded = canonicalJson(report.certification?.signer ?? null);
  if (recorded !== canonicalJson(signerOf(report))) {
    return `the certification records signer ${recorded}, which the signature does not bear out`;
  }
  const errors = validate('eval-gate-report', report);
  if (errors.length > 0) {
    return `the report does not match its schema (${formatSchemaErrors(errors).replace(/\n/g, '; ')})`;
  }
  if (holdsSecret(text, apiKey)) {
    return 'the report still holds the API key after scrubbing';
  }
  if (holdsSecretForm(text, keyAndTokens(apiKey))) {
    return 'the report still holds the API key or a token made from it, escaped or encoded, after scrubbing';
  }
  return undefined;
}

/** The HTML page's modules, the largest of the renderers, loaded once and only by a run. */
const importHtml = () =>
  Promise.all([import('./render/html/render-html.ts'), import('./page-inputs.ts')]);
let htmlLoading: ReturnType<typeof importHtml> | undefined;
const loadHtml = (): ReturnType<typeof importHtml> => (htmlLoading ??= importHtml());

/**
 * What publishing a run needs besides the run itself, started early: the HTML page's modules and
 * the referee's digest of the judging code. `runSuite` calls this once the runs are created, so the
 * work is done while the host works instead of after it answers.
 */
export function preparePublishing(): void {
  // A failed load is reported where it is awaited, by the write that needs it.
  loadHtml().catch(() => undefined);
  void thisReferee();
}

/** The in-toto statement's text, checked against its schema before anything is written. */
function statementText(
  report: EvalGateReport,
  text: string,
  verdict: RunVerdict,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string } {
  const statement = certificationStatement(report, text, verdict.certification);
  const errors = validate('eval-gate-statement', statement);
  if (errors.length > 0) {
    return {
      ok: false,
      problem: `the in-toto statement does not match its schema (${formatSchemaErrors(errors).replace(/\n/g, '; ')})`,
    };
  }
  return { ok: true, text: `${JSON.stringify(statement, null, 2)}\n` };
}

async function writeOutputs(
  {
    report,
    text,
    statement,
    decidedCases,
  }: {
    readonly report: EvalGateReport;
    readonly text: string;
    readonly statement: string;
    /** The failing generated cases the page opens, as the run decided them. */
    readonly decidedCases: DecidedCasesByRow;
  },
  verdict: RunVerdict,
  dir: string,
  stepSummaryPath: string | undefined,
  leaks: (text: string) => boolean,
): Promise<string[] | string> {
  await makeDirectory(dir);
  const page = loadHtml().then(
    async ([html, inputs]) =>
      [html, await inputs.pageViewsFor(report, decidedCases, sidecarReader(dir))] as const,
  );
  const [expectations, [{ HTML_FILE, renderHtml }, views]] = await Promise.all([
    expectationsFor(report),
    page,
  ]);
  const markdown = renderMarkdown(report, verdict, expectations);
  const outputs: readonly (readonly [string, string])[] = [
    [join(dir, REPORT_FILE), text],
    [join(dir, JUNIT_FILE), renderJunit(report, verdict, expectations)],
    [join(dir, MARKDOWN_FILE), markdown],
    [join(dir, HTML_FILE), renderHtml(report, verdict, expectations, views)],
    [join(dir, STATEMENT_FILE), statement],
  ];
  // Every file is searched for every form of the key before any is written: a page or a summary
  // renders text from the report, and a rendering must not undo an escape.
  const leaked = outputs.find(([, rendered]) => leaks(rendered));
  if (leaked !== undefined) {
    return `${basename(leaked[0])} would hold the API key or a token made from it; nothing was written`;
  }
  await Promise.all(outputs.map(([path, text]) => writeFile(path, text)));
  // The pack sidecars were written as the cases finished; they are named here so a job keeps them.
  const files = [
    ...outputs.map(([path]) => path),
    ...sidecarFilesOf(report).map((f) => join(dir, f)),
  ];
  if (stepSummaryPath !== undefined) {
    await appendFile(stepSummaryPath, `${markdown}\n`);
    files.push(stepSummaryPath);
  }
  return files;
}
