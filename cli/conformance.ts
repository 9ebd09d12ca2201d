// The default job: pick the target (the configured host, or the embedded reference host), run
// every leg, build the report, check it against its schema, write it with its JUnit and Markdown
// renderings, and return the exit status of contract §10. The closing line is always printed last.

import type { KeyObject } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PackRequest } from '../lib/decide/generated-pack.ts';
import { writePackFiles } from './fixture-set.ts';
import type { SuiteConfig } from '../lib/env.ts';
import { canonicalJson } from '../lib/report/canonical.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import { holdsSecret, scrubText } from '../lib/secrets.ts';
import { startEmbeddedHost } from './embedded-host.ts';
import { checkHost, checkReportDir } from './preflight.ts';
import { JUNIT_FILE, renderJunit } from '../lib/report/junit.ts';
import { MARKDOWN_FILE, renderMarkdown } from '../lib/report/markdown.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import { buildReport, REPORT_FILE } from '../lib/report/report.ts';
import { reportText } from '../lib/report/report-text.ts';
import { describeError, runSuite } from './run-suite.ts';
import { expectationsFor } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict.ts';
import { gateProblems } from '../lib/report/gate.ts';
import { errorAnnotations } from '../lib/report/annotations.ts';
import type { RunVerdict } from '../lib/report/run-verdict.ts';
import { closingLineOf, runVerdict, stepOutputs } from '../lib/report/run-verdict.ts';
import { certifiedReport, signerOf } from '../lib/report/signer.ts';
import type { RunOptions } from '../lib/report/run-record.ts';
import { unexercisedLine, unexercisedTally } from '../lib/report/unexercised.ts';
import { hostCheckSummary, warningSummary } from '../lib/report/warnings.ts';

export interface ConformanceResult {
  /** Absent when the suite failed to produce a valid report (exit 2, nothing written). */
  readonly report?: EvalGateReport;
  /** Present with the report: what every channel rendered. */
  readonly verdict?: RunVerdict;
  readonly exitCode: number;
  readonly files: readonly string[];
}

export interface ConformanceOptions {
  /** Every line the run prints; the API key is scrubbed from each before it gets here. */
  readonly log: (line: string) => void;
  /** vitest console reporters; none by default, since the CLI prints its own lines. */
  readonly reporters?: readonly string[];
  readonly signingKey?: KeyObject;
  /** Recorded in the signature: the key's id among the host's discovery signingKeys. */
  readonly keyId?: string;
  /** Where a CI system wants the Markdown appended (GITHUB_STEP_SUMMARY). */
  readonly stepSummaryPath?: string;
  /** Where a CI system reads the step's outputs (GITHUB_OUTPUT): the verdict's result and certification. */
  readonly stepOutputPath?: string;
  /** GitHub Actions (GITHUB_ACTIONS=true): print an `::error` line per failing requirement. */
  readonly annotate?: boolean;
  /** `--wait-for-host`: how long discovery may take to answer before the run gives up. */
  readonly waitForHostS?: number;
  /** The selection, baseline and severity gate a CI job chose; recorded in the report. */
  readonly runOptions?: RunOptions;
  /** A generated pack to drive as one more requirement; the embedded host is seeded with it. */
  readonly pack?: PackRequest;
}

export async function runConformance(
  config: SuiteConfig,
  options: ConformanceOptions,
): Promise<ConformanceResult> {
  // Configuration errors end the run here, in one line with exit 2, before any leg or host starts.
  await checkReportDir(config.reportDir);
  await checkHost(config, {
    log: (line) => options.log(scrubText(line, config.apiKey)),
    ...(options.waitForHostS === undefined ? {} : { waitForHostS: options.waitForHostS }),
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
  });
  // The embedded host seeds the pack the way any host would: from the files `fixtures --out` writes.
  const packDir =
    config.baseUrl === undefined && options.pack !== undefined
      ? await mkdtemp(join(tmpdir(), 'openwop-eval-gate-pack-'))
      : undefined;
  if (packDir !== undefined && options.pack !== undefined) {
    const { generatePack } = await import('../lib/generate/pack.ts');
    await writePackFiles(packDir, generatePack(options.pack)).catch(async (error: unknown) => {
      await rm(packDir, { recursive: true, force: true });
      throw error;
    });
  }
  const embedded =
    config.baseUrl === undefined ? await startEmbeddedHost(config.apiKey, packDir) : undefined;
  const apiKey = embedded?.apiKey ?? config.apiKey;
  const log = (line: string): void => options.log(scrubText(line, apiKey));
  try {
    const effective: SuiteConfig =
      embedded === undefined
        ? config
        : { ...config, baseUrl: embedded.url, apiKey: embedded.apiKey };
    const baseUrl = effective.baseUrl ?? '';
    log(
      embedded === undefined
        ? `target: ${baseUrl}`
        : `target: the embedded reference host at ${baseUrl} (no OPENWOP_BASE_URL given; this is not evidence about any other host)`,
    );
    const selection = options.runOptions?.selection;
    const run = await runSuite(effective, {
      reporters: options.reporters ?? [],
      ...(selection === undefined ? {} : { selection }),
      ...(options.pack === undefined ? {} : { pack: options.pack }),
    });
    let unsigned: EvalGateReport;
    try {
      unsigned = await buildReport({
        outcomes: run.outcomes,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        baseUrl,
        embedded: embedded !== undefined,
        strict: config.requireBehavior,
        optedOut: config.optedOut,
        ...declaredOf(config),
        discovery: run.discovery ?? { ok: false, reason: 'no base URL' },
        ...(options.runOptions === undefined ? {} : { runOptions: options.runOptions }),
        ...(run.hostChecks === undefined ? {} : { hostChecks: run.hostChecks }),
      });
    } catch (error) {
      // A report that cannot be built (a host document too deep to redact, say) is not written.
      log(
        `openwop-eval-gate: the report could not be built (${describeError(error)}); this is a suite bug and nothing was written`,
      );
      return { exitCode: EXIT.badConfiguration, files: [] };
    }
    const report = certifiedReport(unsigned, options.signingKey, options.keyId);
    const refusal = refuseToWrite(report, apiKey);
    if (refusal !== undefined) {
      log(`openwop-eval-gate: ${refusal}; this is a suite bug and nothing was written`);
      return { exitCode: EXIT.badConfiguration, files: [] };
    }
    // The one verdict every channel below renders; nothing after this line decides again.
    const verdict = runVerdict(report);
    const files = await writeOutputs(report, verdict, config.reportDir, options.stepSummaryPath);
    if (options.stepOutputPath !== undefined) {
      await appendFile(options.stepOutputPath, `${stepOutputs(verdict).join('\n')}\n`);
    }
    for (const row of report.requirements) {
      const warned = warningSummary(row);
      log(
        `${row.disposition.padEnd(13)} ${row.id}${row.reason === undefined ? '' : `: ${row.reason}`}` +
          (warned === undefined ? '' : ` (${warned}; see ${MARKDOWN_FILE})`),
      );
    }
    if (report.hostChecks !== undefined) {
      log(`${hostCheckSummary(report.hostChecks)} (see ${MARKDOWN_FILE})`);
    }
    for (const file of files) log(`wrote ${file}`);
    for (const problem of gateProblems(report)) log(problem);
    if (options.annotate === true) for (const line of errorAnnotations(report, verdict)) log(line);
    // The count before the closing line, which stays the last: CI parses that one.
    const quiet = unexercisedTally(report).rules;
    log(unexercisedLine(report) + (quiet === 0 ? '' : ` (why: ${MARKDOWN_FILE})`));
    log(closingLineOf(report, verdict));
    return { report, verdict, exitCode: verdict.exitCode, files };
  } finally {
    await embedded?.close();
    if (packDir !== undefined) await rm(packDir, { recursive: true, force: true });
  }
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
function refuseToWrite(report: EvalGateReport, apiKey: string | undefined): string | undefined {
  const recorded = canonicalJson(report.certification?.signer ?? null);
  if (recorded !== canonicalJson(signerOf(report))) {
    return `the certification records signer ${recorded}, which the signature does not bear out`;
  }
  const errors = validate('eval-gate-report', report);
  if (errors.length > 0) {
    return `the report does not match its schema (${formatSchemaErrors(errors).replace(/\n/g, '; ')})`;
  }
  if (holdsSecret(JSON.stringify(report), apiKey)) {
    return 'the report still holds the API key after scrubbing';
  }
  return undefined;
}

async function writeOutputs(
  report: EvalGateReport,
  verdict: RunVerdict,
  dir: string,
  stepSummaryPath: string | undefined,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const expectations = await expectationsFor(report);
  const markdown = renderMarkdown(report, expectations, verdict);
  const outputs: readonly (readonly [string, string])[] = [
    [join(dir, REPORT_FILE), reportText(report)],
    [join(dir, JUNIT_FILE), renderJunit(report, expectations, verdict)],
    [join(dir, MARKDOWN_FILE), markdown],
  ];
  for (const [path, text] of outputs) await writeFile(path, text);
  const files = outputs.map(([path]) => path);
  if (stepSummaryPath !== undefined) {
    await appendFile(stepSummaryPath, `${markdown}\n`);
    files.push(stepSummaryPath);
  }
  return files;
}
