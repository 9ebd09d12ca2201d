// The package's programmatic API, its main export (`runConformance` and the rest, typed). The
// command line, the legs file and a host team's own code call these same functions, so a run
// is decided, rendered and written by one code path whichever door it came in by.

import type { KeyObject } from 'node:crypto';
import type { RawSettings, SuiteConfig } from '../lib/env.ts';
import { readSettings, resolveConfig } from '../lib/env.ts';
import type { PackRequest } from '../lib/decide/pack-request.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { RunOptions } from '../lib/report/run-record.ts';
import type { RunVerdict } from '../lib/report/verdict/run-verdict.ts';
import { Refusal } from '../lib/refusal.ts';
import type { AnchoredVerification } from './verify-keys.ts';
import type { Judgement } from './judge.ts';
import type { TrustOptions } from './trust-source.ts';
import type { InputLimits } from '../lib/bounded-input.ts';
import type { SidecarProgress } from '../lib/report/generated-sidecar.ts';

export type { EvalGateReport, RunOptions, RunVerdict, Judgement, TrustOptions, SuiteConfig };
export type { RawSettings, PackRequest, AnchoredVerification };
export type { Finding, Fixture, RunObservation, Disposition } from '../lib/types.ts';
export { Refusal };
/** The witness: pure functions from a fixture and an observation to findings. */
export { judgeEvalRun, mustFailures, expectRun } from '../lib/eval-gate-witness.ts';

export interface RunConformanceOptions {
  /** The host to drive; absent (here and in the settings): the embedded reference host. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Where the report files are written (OPENWOP_REPORT_DIR). */
  readonly reportDir?: string;
  /** Strict mode (OPENWOP_REQUIRE_BEHAVIOR): a requirement that cannot be driven fails. */
  readonly strict?: boolean;
  /** Any other setting by its variable name; the named options above win over these. */
  readonly settings?: RawSettings;
  /**
   * Where settings not given here are read from: an object of variables, or false for none.
   * Absent: the process environment over ./.env, as the command line reads them.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | false;
  /** Every line the run prints, with the API key scrubbed; absent: nothing is printed. */
  readonly log?: (line: string) => void;
  /** Rewrites one live line in place (a terminal's progress line). */
  readonly live?: (line: string) => void;
  readonly signingKey?: KeyObject;
  /** The signing key's id among the host's discovery signingKeys. */
  readonly keyId?: string;
  /** A generated pack to drive (`--generate N --seed S [--case ID]`); absent: strict mode's own. */
  readonly pack?: PackRequest;
  /** Selection, baseline, severity gate and repeat, as `run`'s flags set them. */
  readonly runOptions?: RunOptions;
  readonly waitForHostS?: number;
  readonly silent?: boolean;
  readonly stepSummaryPath?: string;
  readonly stepOutputPath?: string;
  readonly annotate?: boolean;
}

export interface ConformanceRun {
  /** The run's one verdict: the exit code, the closing line and every channel render it. */
  readonly verdict: RunVerdict;
  readonly report: EvalGateReport;
  /** The files written, report first. */
  readonly files: readonly string[];
}

/**
 * The run produced no report (a suite bug): exit 2 like any refusal, though the line saying why
 * has already been logged.
 */
export class NoReportError extends Refusal {
  override readonly name: string = 'NoReportError';
}

/** The suite's settings from the options, over the environment the options name. */
export function configOf(options: RunConformanceOptions): SuiteConfig {
  const base =
    options.env === false ? {} : readSettings(options.env === undefined ? undefined : options.env);
  const named: RawSettings = {
    ...(options.baseUrl === undefined ? {} : { OPENWOP_BASE_URL: options.baseUrl }),
    ...(options.apiKey === undefined ? {} : { OPENWOP_API_KEY: options.apiKey }),
    ...(options.reportDir === undefined ? {} : { OPENWOP_REPORT_DIR: options.reportDir }),
    ...(options.strict === undefined
      ? {}
      : { OPENWOP_REQUIRE_BEHAVIOR: options.strict ? 'true' : 'false' }),
  };
  return resolveConfig({ ...base, ...options.settings, ...named });
}

/**
 * Drives every leg (and, strict, the generated pack) against the host, writes the report files
 * and resolves to the verdict. A setting, file or host refused before any leg rejects with a
 * Refusal; a verdict of FAIL or BLOCKED resolves like a pass, its exit code in `verdict.exitCode`.
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<ConformanceRun> {
  const config = configOf(options);
  if (options.keyId !== undefined && options.signingKey === undefined) {
    throw new Refusal('keyId names the key of signingKey; give signingKey as well');
  }
  const [{ packToDrive }, { runConformance: drive }] = await Promise.all([
    import('./run-options.ts'),
    import('./conformance.ts'),
  ]);
  const given = options.runOptions ?? {};
  const chosen = packToDrive(options.pack, config, given);
  let runOptions = given;
  if (chosen?.case !== undefined) {
    const { caseOfPack } = await import('./generated-case.ts');
    await caseOfPack('--case', chosen.case, chosen);
    runOptions = await caseAlone(given);
  }
  const result = await drive(config, {
    log: options.log ?? (() => undefined),
    runOptions,
    ...(chosen === undefined ? {} : { pack: chosen }),
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.stepSummaryPath === undefined ? {} : { stepSummaryPath: options.stepSummaryPath }),
    ...(options.stepOutputPath === undefined ? {} : { stepOutputPath: options.stepOutputPath }),
    ...(options.annotate === true ? { annotate: true } : {}),
    ...(options.waitForHostS === undefined ? {} : { waitForHostS: options.waitForHostS }),
    ...(options.silent === true ? { silent: true } : {}),
    ...(options.live === undefined ? {} : { live: options.live }),
  });
  if (result.report === undefined || result.verdict === undefined) {
    throw new NoReportError('the run produced no report; this is a suite bug');
  }
  return { verdict: result.verdict, report: result.report, files: result.files };
}

/**
 * A case driven alone drives no hand leg: unless the caller selected legs, the selection is the
 * one leg that talks to no host, as a report's reproduce command selects it.
 */
async function caseAlone(given: RunOptions): Promise<RunOptions> {
  const selection = given.selection;
  if (selection !== undefined && selection.only.length + selection.skip.length > 0) return given;
  const [{ LEGS }, { resolveSelection }] = await Promise.all([
    import('../lib/legs.ts'),
    import('../lib/report/run-options.ts'),
  ]);
  const serverFree = LEGS.filter((leg) => leg.fixtureId === undefined).map((leg) => leg.id);
  return { ...given, selection: resolveSelection(serverFree, [], selection?.requirementSet) };
}

export interface VerifyResult {
  /** True when every digest and verdict recomputes and no anchored signature is refuted. */
  readonly ok: boolean;
  readonly problems: readonly string[];
  /** Whether it is certified, and by whose key: the verdict this verifier stands behind. */
  readonly headline: string;
  readonly result: AnchoredVerification;
}

/** Where a verifier may find the key, and how far it reads what someone else wrote. */
export interface VerifyOptions extends TrustOptions {
  /** Limits on the report and its sidecar (lib/bounded-input.ts); the defaults when absent. */
  readonly limits?: InputLimits;
  /** The verifier's clock, in epoch milliseconds: a report's age and a key's retirement read it. */
  readonly now?: () => number;
  /** Called as a generated pack's sidecar is replayed, for a progress line. */
  readonly progress?: SidecarProgress;
}

/**
 * Verifies a report file: its digests and verdicts recomputed (a generated pack's from the sidecar
 * beside it) and its signature anchored in the source `options` names (a key file, a keyring, the
 * live host, or nothing with `offline`).
 */
export async function verifyReport(
  path: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const { dirname } = await import('node:path');
  const [{ TrustSources }, keys, { readReportJson }] = await Promise.all([
    import('./trust-source.ts'),
    import('./verify-keys.ts'),
    import('./verified-report.ts'),
  ]);
  const { limits, now, progress, ...trust } = options;
  const result = await keys.verifyAnchored(
    await readReportJson(path, limits),
    new TrustSources(trust, now),
    dirname(path),
    limits,
    progress,
  );
  const problems = keys.problemsOf(result);
  return { ok: problems.length === 0, problems, headline: keys.verifyHeadline(result), result };
}

export type JudgeInput =
  | {
      /** A recorded EvalSummary file. */
      readonly summaryPath: string;
      /** A fixture id, a fixture or suite file, or a generated case id with `pack`. */
      readonly fixture: string;
      readonly eventsPath?: string;
      /** The generated pack the fixture is a case of. */
      readonly pack?: { readonly count: number; readonly seed: number };
    }
  | {
      /** A report whose generated pack recorded the case (its sidecar beside it). */
      readonly reportPath: string;
      /** The generated case's id, such as generated-s1-n0007. */
      readonly case: string;
    };

/**
 * Judges a recorded summary offline against its fixture, as a leg judges a live one: a summary
 * file, or a generated case as a report recorded it.
 */
export async function judge(input: JudgeInput): Promise<Judgement> {
  if ('reportPath' in input) {
    const { judgeReportedCase } = await import('./judge-case.ts');
    return judgeReportedCase(input.reportPath, input.case);
  }
  if (input.pack !== undefined) {
    const { caseOfPack } = await import('./generated-case.ts');
    await caseOfPack('--fixture', input.fixture, input.pack);
  }
  const { judgeRecorded } = await import('./judge.ts');
  return judgeRecorded({
    summaryPath: input.summaryPath,
    fixture: input.fixture,
    ...(input.eventsPath === undefined ? {} : { eventsPath: input.eventsPath }),
  });
}
