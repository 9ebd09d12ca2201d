// Command-line parsing, with node:util's parseArgs over the flag table of cli/flags.ts. Flags that
// configure the suite are mapped onto the environment variable names lib/env.ts reads, so every
// setting is validated in one place whichever way it was given. Nothing here echoes a flag's
// value: a mistyped flag may hold a secret.

import { parseArgs as parseTokens } from 'node:util';
import { Refusal } from '../lib/refusal.ts';
import type { EnvVar, RawSettings } from '../lib/env.ts';
import { FLAGS, POSITIONALS, type Command, type FlagSpec, type Working } from './flags.ts';

export type { Command } from './flags.ts';

export interface ParsedArgs {
  readonly command: Command;
  readonly positionals: readonly string[];
  /** Settings given as flags, under the variable names they stand for. */
  readonly settings: RawSettings;
  /** Which flag set each variable, so a validation message can name the flag instead. */
  readonly flagFor: Readonly<Partial<Record<EnvVar, string>>>;
  /**
   * Flags that are not settings: --sign, --key-id, --key, --fixture, --events, --out, --json, and
   * the CI options of run; a repeatable one (--only, --skip) holds its values comma-joined.
   */
  readonly options: Readonly<Record<string, string>>;
}

/** A command line that cannot be run; its message is the one line the CLI prints (exit 2). */
export class UsageError extends Refusal {
  override readonly name: string = 'UsageError';
}

/** Every command, in the order the help lists them; an unknown one is refused naming these. */
export const COMMANDS: readonly Command[] = [...Object.keys(FLAGS), 'help', 'version'] as Command[];

/** Anything that looks like an attempt to pass the key on the command line. */
const KEY_FLAG = /^--(api[-_]?key|key[-_]env|token|bearer|secret)/i;

/** The command word of a command line: its first word, or `run` when it starts with a flag. */
export function commandWordOf(argv: readonly string[]): string {
  const first = argv[0];
  return first !== undefined && !first.startsWith('-') ? first : 'run';
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    // `verify --help` and `help verify` are that command's help; `--help` alone the overview.
    const named = argv[0] === 'help' ? argv[1] : argv[0];
    const about = named !== undefined && named in FLAGS ? [named] : [];
    return { command: 'help', positionals: about, settings: {}, flagFor: {}, options: {} };
  }
  // Asked of any command, as a bug report asks it: the rest of the line is not checked.
  if (argv.includes('--version') || argv.includes('-V') || argv[0] === 'version') {
    return { command: 'version', positionals: [], settings: {}, flagFor: {}, options: {} };
  }
  const command = commandWordOf(argv);
  if (!isCommand(command)) {
    throw new UsageError(
      `unknown command "${command}"; the commands are ${COMMANDS.slice(0, -1).join(', ')} and ${COMMANDS.at(-1) ?? ''}`,
    );
  }
  const specs = FLAGS[command];
  const settings: Partial<Record<EnvVar, string>> = {};
  const flagFor: Partial<Record<EnvVar, string>> = {};
  const options: Record<string, string> = {};
  const positionals: string[] = [];
  for (const token of tokensOf(argv.slice(argv[0] === command ? 1 : 0), specs)) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    const { name } = token;
    if (KEY_FLAG.test(token.rawName)) {
      throw new UsageError(
        `${token.rawName} is not accepted: the API key is read only from OPENWOP_API_KEY (environment or .env), ` +
          'never from the command line, which shell history and process listings keep',
      );
    }
    const spec = specs[name];
    if (spec === undefined || !token.rawName.startsWith('--')) {
      const valid = Object.keys(specs)
        .map((f) => `--${f}`)
        .join(', ');
      throw new UsageError(
        `unknown flag ${token.rawName} for "${command}"; its flags are ${valid} (see --help)`,
      );
    }
    // parseArgs takes the next word as the value even when it is a flag; the suite reads that as
    // no value (a flag's value never starts with --), as a user who left the value out meant.
    const taken = token.inlineValue === true || !(token.value ?? '').startsWith('--');
    const value = spec.takesValue ? (taken ? (token.value ?? '') : '') : (token.value ?? 'true');
    if (value.trim() === '') {
      // An empty base URL is most often an unset CI variable: it must not become the embedded host.
      const why =
        spec.variable === 'OPENWOP_BASE_URL'
          ? ' (an unset CI variable?); leave the flag out entirely to run the embedded reference host'
          : '';
      throw new UsageError(`--${name} needs a value, such as --${name} ${spec.example}${why}`);
    }
    const store: Record<string, string> = spec.variable === undefined ? options : settings;
    const key = spec.variable ?? name;
    const given = store[key];
    if (given !== undefined && spec.repeatable !== true) {
      throw new UsageError(`--${name} was given twice; give it once`);
    }
    store[key] = given === undefined ? value : `${given},${value}`;
    if (spec.variable !== undefined) flagFor[spec.variable] = `--${name}`;
  }
  const wanted = POSITIONALS[command];
  if (wanted.count === 'some') {
    if (positionals.length === 0) {
      throw new UsageError(`"${command}" takes one or more ${wanted.name} files; see --help`);
    }
  } else if (positionals.length !== wanted.count) {
    throw new UsageError(
      wanted.count === 0
        ? `"${command}" takes no arguments besides flags; see --help`
        : `"${command}" takes exactly ${wanted.count === 1 ? 'one' : 'two'} ${wanted.name}; see --help`,
    );
  }
  return { command, positionals, settings, flagFor, options };
}

/**
 * The command line in tokens, read by node:util's parseArgs with the command's flags. It reads
 * leniently (an unknown flag is a token, not a throw) so the refusal can name the command's flags
 * in the suite's own words. A flag that takes a value and is followed by another flag, or by
 * nothing, has no value, which the caller refuses with an example.
 */
function tokensOf(
  args: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
): readonly Token[] {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.takesValue ? ('string' as const) : ('boolean' as const) },
    ]),
  );
  const { tokens } = parseTokens({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens;
}

type Token = ReturnType<typeof parseTokens>['tokens'] extends (infer T)[] | undefined ? T : never;

function isCommand(name: string): name is Working {
  return Object.hasOwn(FLAGS, name);
}

/** Rewrites a validation message about a variable that a flag set so that it names the flag. */
export function nameFlags(message: string, flagFor: ParsedArgs['flagFor']): string {
  let out = message;
  for (const [variable, flag] of Object.entries(flagFor)) {
    if (flag !== undefined) out = out.split(variable).join(flag);
  }
  return out;
}
