// The command line as a function: argv and an output sink in, an exit code out. cli/main.ts is
// the process shell around it; tests call it directly. Every line it prints has the API key
// scrubbed, and a command that cannot start prints one line and exits 2.

import { dirname } from 'node:path';
import {
  readSettings,
  readGithubActions,
  readStepOutputPath,
  readStepSummaryPath,
} from '../lib/env.ts';
import { commandWordOf, nameFlags, parseArgs, UsageError } from './args.ts';
import { Refusal } from '../lib/refusal.ts';
import { announceStartFailure } from './start-failure.ts';
import type { ParsedArgs } from './args.ts';
import type { Working } from './flags.ts';
import type { Judgement } from './judge.ts';
import type { Rechecked } from './recheck.ts';
import type * as VerifyKeys from './verify-keys.ts';
import type { AnchoredVerification } from './verify-keys.ts';
import type * as Anchor from '../lib/report/verify/anchor.ts';
import type * as RecheckWords from '../lib/report/verify/recheck.ts';
import { scrubText } from '../lib/secrets.ts';
import { consoleBlock, consoleText } from '../lib/untrusted-text.ts';
import { EXAMPLE_FIXTURE_ID } from '../lib/legs.ts';
import { HELP } from './help.ts';
import { FixtureInputError } from './fixture-set.ts';
import { KEY_ID, readSigningKey } from '../lib/report/verify/signature.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { MAX_PACK_CONCURRENCY, PACK_CONCURRENCY } from '../lib/decide/pack-request.ts';

export interface CliIo {
  /** One line of standard output. */
  readonly log: (line: string) => void;
  /** One line of standard error. */
  readonly error: (line: string) => void;
  /** Rewrites one live line in place; given only when the output is a terminal. */
  readonly live?: (line: string) => void;
  /** The environment to read; absent: the process environment layered over ./.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock a verifier reads a report's date against; absent: the wall clock. */
  readonly now?: () => number;
  /** The clock verify's progress lines are spaced by; absent: the wall clock. */
  readonly progressClock?: () => number;
}

const PREFIX = 'openwop-eval-gate: ';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const raw = readSettings(io.env);
  const key = raw.OPENWOP_API_KEY?.trim();
  // A host or a report may have written any part of a line: its controls are shown, never obeyed.
  const out = (line: string): void => io.log(consoleBlock(scrubText(line, key)));
  const fail = async (line: string): Promise<number> => {
    const cause = consoleText(scrubText(line, key));
    io.error(`${PREFIX}${cause}`);
    const command = commandWordOf(argv);
    await announceStartFailure(cause, {
      log: out,
      annotate: readGithubActions(io.env),
      command,
      stepSummaryPath: command === 'run' ? readStepSummaryPath(io.env) : undefined,
      stepOutputPath: command === 'run' ? readStepOutputPath(io.env) : undefined,
    });
    return EXIT.badConfiguration;
  };
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return await fail(error.message);
    throw error;
  }
  try {
    switch (args.command) {
      case 'help': {
        const about = args.positionals[0] as Working | undefined;
        const text =
          about === undefined ? HELP : (await import('./command-help.ts')).commandHelp(about);
        for (const line of text.trimEnd().split('\n')) out(line);
        return EXIT.ok;
      }
      case 'version': {
        // The package file and the judging files' digest, so --version answers without loading
        // the suite; the digest is the one a report records as its referee's.
        const { PACKAGE_MANIFEST } = await import('../lib/package-root.ts');
        const { thisReferee } = await import('../lib/report/verify/referee.ts');
        const { judgingDigest } = await thisReferee();
        out(`${PACKAGE_MANIFEST.name} ${PACKAGE_MANIFEST.version}`);
        out(`judging digest ${String(judgingDigest)}`);
        return EXIT.ok;
      }
      case 'list': {
        const { listCommand } = await import('./list.ts');
        return listCommand(args.options.json !== undefined, out);
      }
      case 'run':
        return await run(args, io, out);
      case 'verify':
        return await verify(args, {
          print: out,
          raw,
          live: io.live,
          now: io.now,
          progressLine: (line) => io.error(consoleText(scrubText(line, key))),
          progressClock: io.progressClock,
        });
      case 'judge':
        return await judge(args, out);
      case 'fixtures':
        return await fixtures(args, out);
      case 'expect':
        return await expectCommand(args, out);
      case 'diff': {
        const { diffCommand } = await import('./diff.ts');
        return await diffCommand(args.positionals, args.options, out);
      }
      case 'report': {
        const { reportCommand } = await import('./report-html.ts');
        return await reportCommand(args.positionals[0] ?? '', args.options, out);
      }
      case 'matrix': {
        const { matrixCommand } = await import('./matrix.ts');
        return await matrixCommand(args.positionals, args.options, out);
      }
      case 'badge': {
        const { badgeCommand } = await import('./badge.ts');
        return await badgeCommand(args.positionals[0] ?? '', args.options, out);
      }
    }
  } catch (error) {
    if (error instanceof Refusal) return await fail(nameFlags(error.message, args.flagFor));
    return await fail(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `--sign KEY.pem --key-id ID`: both or neither, the id one a discovery can publish. */
function signingFlags(args: ParsedArgs): { sign?: string; keyId?: string } {
  const sign = args.options.sign;
  const keyId = args.options['key-id'];
  if (keyId !== undefined && sign === undefined) {
    throw new UsageError('--key-id names the key of --sign; give --sign KEY.pem as well');
  }
  // A signature without a key id can be matched to no key the host publishes, so the run could
  // never be certified: refused now, as every other key problem is, not after every leg.
  if (sign !== undefined && keyId === undefined) {
    throw new UsageError(
      '--sign needs --key-id ID, the id under which your discovery signingKeys publishes its public half; without it the report can never be certified',
    );
  }
  if (keyId !== undefined && !KEY_ID.test(keyId)) {
    throw new UsageError(`--key-id must match ${KEY_ID.source} (a discovery signingKeys keyId)`);
  }
  return { ...(sign === undefined ? {} : { sign }), ...(keyId === undefined ? {} : { keyId }) };
}

async function run(args: ParsedArgs, io: CliIo, out: (line: string) => void): Promise<number> {
  const { sign, keyId } = signingFlags(args);
  const waitForHostS = waitSecondsOf(args.options['wait-for-host']);
  const given = generatedPack(args);
  const caseId = args.options.case;
  if (caseId !== undefined && given === undefined) {
    throw new UsageError(
      '--case names a case of a generated pack: give --generate N and --seed S, the pack it was drawn from, with it',
    );
  }
  const concurrency = concurrencyOf(args.options.concurrency);
  // Loaded on demand, since --help and a refused flag should not wait for them: the run options
  // (they read the witness's rule catalogue) and the API with its run engine. Both at once: one
  // after the other, each load waits its own turn on a busy machine.
  const modules = Promise.all([import('./run-options.ts'), import('./api.ts')]);
  // Awaited below; held so that a key file refused first is not an unhandled rejection as well.
  modules.catch(() => undefined);
  const signingKey = sign === undefined ? undefined : await readSigningKey(sign);
  const [{ runOptionsFrom }, api] = await modules;
  const runOptions = await runOptionsFrom(args.options);
  const pack =
    given === undefined
      ? undefined
      : {
          ...given,
          ...(caseId === undefined ? {} : { case: caseId }),
          ...(concurrency === undefined ? {} : { concurrency }),
        };
  const stepSummaryPath = readStepSummaryPath(io.env);
  const stepOutputPath = readStepOutputPath(io.env);
  const annotate = readGithubActions(io.env);
  try {
    const { verdict } = await api.runConformance({
      ...(io.env === undefined ? {} : { env: io.env }),
      settings: args.settings,
      log: out,
      ...(signingKey === undefined ? {} : { signingKey }),
      ...(keyId === undefined ? {} : { keyId }),
      ...(stepSummaryPath === undefined ? {} : { stepSummaryPath }),
      ...(stepOutputPath === undefined ? {} : { stepOutputPath }),
      ...(annotate ? { annotate } : {}),
      ...(waitForHostS === undefined ? {} : { waitForHostS }),
      ...(pack === undefined ? {} : { pack }),
      ...(args.options.silent === undefined ? {} : { silent: true }),
      ...(io.live === undefined ? {} : { live: io.live }),
      runOptions,
    });
    return verdict.exitCode;
  } catch (error) {
    // The run has already printed why it wrote nothing.
    if (error instanceof api.NoReportError) return EXIT.badConfiguration;
    throw error;
  }
}

/** A whole number from min to max, or the refusal; every bounded count flag reads this way. */
function wholeNumberIn(given: string, min: number, max: number, refusal: string): number {
  const value = Number(given);
  if (!/^\d+$/.test(given) || value < min || value > max) throw new UsageError(refusal);
  return value;
}

/** `--concurrency N`: a whole number of cases in flight, bounded so a run never floods a host. */
function concurrencyOf(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  return wholeNumberIn(
    given,
    1,
    MAX_PACK_CONCURRENCY,
    `--concurrency takes how many generated cases are in flight at once, 1 to ${MAX_PACK_CONCURRENCY}, such as --concurrency ${PACK_CONCURRENCY}`,
  );
}

/** `--wait-for-host SECONDS`: a whole number of seconds, bounded so the wait always ends. */
function waitSecondsOf(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  return wholeNumberIn(
    given,
    1,
    3600,
    `--wait-for-host takes whole seconds from 1 to 3600; got "${given}"`,
  );
}

/** What verify writes to and reads besides its arguments. */
interface VerifyIo {
  readonly print: (line: string) => void;
  readonly raw: ReturnType<typeof readSettings>;
  readonly live?: ((line: string) => void) | undefined;
  readonly now?: (() => number) | undefined;
  /** Standard error, for progress off a terminal. */
  readonly progressLine: (line: string) => void;
  readonly progressClock?: (() => number) | undefined;
}

async function verify(args: ParsedArgs, io: VerifyIo): Promise<number> {
  const path = args.positionals[0] ?? '';
  const { trustOptionsOf } = await import('./trust-source.ts');
  const { inputLimitsOf } = await import('./input-limits.ts');
  const trust = trustOptionsOf(args.options);
  const limits = inputLimitsOf(args.options);
  // The recheck drives a host and loads the generator; a plain verify loads neither.
  const wantsRecheck = ['recheck', 'recheck-sample'].some((f) => args.options[f] !== undefined);
  const recheck = wantsRecheck ? await import('./recheck.ts') : undefined;
  const recheckOptions = recheck?.recheckOptionsOf(args.options);
  const api = await import('./api.ts');
  const live = io.live;
  const { throttledProgress } = await import('./verify-progress.ts');
  const verified = await api.verifyReport(path, {
    ...trust,
    limits,
    ...(io.now === undefined ? {} : { now: io.now }),
    // A large pack's replay takes a while: on a terminal, a live line on stderr says how far it
    // is; elsewhere (a CI log) a line on stderr every few seconds.
    progress:
      live === undefined
        ? throttledProgress(io.progressLine, io.progressClock ?? Date.now)
        : (file: string, lines: number, bytes: number) =>
            live(consoleText(`verify: replaying ${file}: ${lines} lines, ${bytes} bytes read`)),
  });
  const { problems } = verified;
  let result = verified.result;
  // Every verify line is one line, whatever the report holds.
  const out = (line: string): void => io.print(consoleText(line));
  for (const problem of problems) out(problem);
  // Only a report that verifies is held to the live host: one that does not is refused already.
  const rechecked =
    recheck !== undefined &&
    recheckOptions !== undefined &&
    result.kind === 'report' &&
    problems.length === 0
      ? await recheck.recheckVerified(result, recheckOptions, io.raw, dirname(path))
      : undefined;
  if (rechecked !== undefined) result = rechecked.result;
  else if (recheckOptions !== undefined) out('recheck: not run: the report does not verify');
  const [keys, recheckWords, { anchorLine }] = await Promise.all([
    import('./verify-keys.ts'),
    import('../lib/report/verify/recheck.ts'),
    import('../lib/report/verify/anchor.ts'),
  ]);
  const lines = { ...keys, ...recheckWords, anchorLine };
  for (const line of verifiedLines(path, result, problems, rechecked, lines)) out(line);
  const exit = problems.length === 0 ? EXIT.ok : EXIT.failed;
  return rechecked === undefined || recheck === undefined
    ? exit
    : recheck.recheckExit(rechecked.outcome, exit);
}

/** The words verify's closing lines are made of, loaded with the verification. */
interface VerifyWords {
  readonly anchorLine: typeof Anchor.anchorLine;
  readonly anchoredClause: typeof VerifyKeys.anchoredClause;
  readonly verifyHeadline: typeof VerifyKeys.verifyHeadline;
  readonly evidenceClause: typeof RecheckWords.evidenceClause;
  readonly recheckLine: typeof RecheckWords.recheckLine;
}

/** Verify's lines after its problems: anchor, referee, recheck, certification, headline. */
function verifiedLines(
  path: string,
  result: AnchoredVerification,
  problems: readonly string[],
  rechecked: Rechecked | undefined,
  words: VerifyWords,
): string[] {
  if (result.kind !== 'report') {
    return [
      `certification: ${words.anchoredClause(result)}`,
      `${words.verifyHeadline(result)}: ${path}: not a report`,
    ];
  }
  const { integrity, anchored, report } = result;
  const lines = [
    `anchor: ${words.anchorLine(anchored.anchor)}, ${anchored.time.asOf}`,
    `referee: ${anchored.referee ?? `this suite (${report.suite.name} ${report.suite.version}) judged it`}`,
  ];
  if (anchored.stale !== undefined) lines.push(`stale: ${anchored.stale}`);
  if (rechecked !== undefined) {
    if (rechecked.sampled.length > 0) lines.push(`recheck sample: ${rechecked.sampled.join(', ')}`);
    lines.push(`recheck: ${words.recheckLine(rechecked.outcome)}`);
  }
  const certified = result.verdict.certification.certified && problems.length === 0;
  const evidence = certified ? ` ${words.evidenceClause(rechecked?.outcome)}` : '';
  lines.push(`certification: ${words.anchoredClause(result)}`);
  const how = `${integrity.recomputed} rows recomputed, ${integrity.consistencyOnly} checked for consistency only`;
  const found =
    problems.length === 0
      ? `${how}, every digest matches`
      : `${problems.length} problem${problems.length === 1 ? '' : 's'} (${how}), ${anchored.time.asOf}`;
  lines.push(`${words.verifyHeadline(result)}: ${path}: ${found}${evidence}`);
  return lines;
}

async function fixtures(args: ParsedArgs, out: (line: string) => void): Promise<number> {
  const { fixtureManifest, MANIFEST_FILE, writeFixtureSet } = await import('./fixture-set.ts');
  const dir = args.options.out;
  if (dir === undefined) {
    if (args.options.generate !== undefined) throw new UsageError('--generate needs --out DIR');
    const manifest = await fixtureManifest();
    for (const f of manifest.fixtures)
      out(`${f.id}  ${f.requirement}  ${f.file}  sha256:${f.sha256}`);
    out(`${manifest.fixtures.length} fixtures; --out DIR writes them with ${MANIFEST_FILE}`);
    return EXIT.ok;
  }
  // The pack a strict run drives is written beside the hand fixtures unless --generate names another.
  const { currentSet } = await import('../lib/requirement-sets.ts');
  const written = await writeFixtureSet(dir, generatedPack(args) ?? currentSet().pack);
  for (const file of written) out(`wrote ${file}`);
  out(`${written.length - 1} fixtures and ${MANIFEST_FILE} in ${dir}; seed the fixtures verbatim`);
  return EXIT.ok;
}

/** `--generate N --seed S`: the pack to write beside the shipped fixtures; S defaults to 1. */
function generatedPack(args: ParsedArgs): { count: number; seed: number } | undefined {
  const { generate, seed } = args.options;
  if (generate === undefined) {
    if (seed !== undefined) throw new UsageError('--seed needs --generate N');
    return undefined;
  }
  const count = Number(generate);
  const seedValue = Number(seed ?? '1');
  if (!/^\d+$/.test(generate) || count < 1 || count > 10_000) {
    throw new UsageError('--generate takes a pack size from 1 to 10000, such as --generate 200');
  }
  if (!/^\d+$/.test(seed ?? '1') || seedValue > 0x7fffffff) {
    throw new UsageError(`--seed takes an integer from 0 to ${0x7fffffff}, such as --seed 1`);
  }
  return { count, seed: seedValue };
}

async function expectCommand(args: ParsedArgs, out: (line: string) => void): Promise<number> {
  const { readFixtureRef } = await import('./fixture-set.ts');
  const { expectedView, renderExpected } = await import('../lib/report/expect.ts');
  const fixture = await readFixtureRef(args.positionals[0] ?? '');
  let view;
  try {
    view = expectedView(fixture);
  } catch (error) {
    // The witness throws only on a fixture it cannot grade.
    throw new FixtureInputError(`the fixture cannot be graded: ${(error as Error).message}`);
  }
  if (args.options.json !== undefined) out(JSON.stringify(view, null, 2));
  else for (const line of renderExpected(view)) out(line);
  return EXIT.ok;
}

async function judge(args: ParsedArgs, out: (line: string) => void): Promise<number> {
  const fixture = args.options.fixture;
  const caseId = args.options.case;
  if (caseId !== undefined) return await judgeCase(args, caseId, out);
  if (fixture === undefined) {
    throw new UsageError(
      `judge needs --fixture ID|FILE.json, such as --fixture ${EXAMPLE_FIXTURE_ID}`,
    );
  }
  const events = args.options.events;
  // `--generate N --seed S`: the fixture is that pack's case, refused when it is not one.
  const pack = generatedPack(args);
  const api = await import('./api.ts');
  // Bad judge input is a Refusal: one line, exit 2.
  const judgement = await api.judge({
    summaryPath: args.positionals[0] ?? '',
    fixture,
    ...(events === undefined ? {} : { eventsPath: events }),
    ...(pack === undefined ? {} : { pack }),
  });
  return await printJudgement(judgement, out);
}

/** `judge REPORT --case ID`: the case as the report's sidecar recorded it. */
async function judgeCase(
  args: ParsedArgs,
  caseId: string,
  out: (line: string) => void,
): Promise<number> {
  const extra = ['fixture', 'events', 'generate', 'seed'].filter(
    (name) => args.options[name] !== undefined,
  );
  if (extra.length > 0) {
    throw new UsageError(
      `--case reads the case, its fixture and its events from the report: judge REPORT --case ID, without ${extra.map((n) => `--${n}`).join(', ')}`,
    );
  }
  const api = await import('./api.ts');
  const judgement = await api.judge({ reportPath: args.positionals[0] ?? '', case: caseId });
  return await printJudgement(judgement, out);
}

async function printJudgement(judgement: Judgement, out: (line: string) => void): Promise<number> {
  const { renderJudgement } = await import('./judge-output.ts');
  for (const line of renderJudgement(judgement)) out(line);
  return judgement.disposition === 'executed-pass' ? EXIT.ok : EXIT.failed;
}
