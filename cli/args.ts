// Command-line parsing. Flags that configure the suite are mapped onto the environment variable
// names lib/env.ts reads, so every setting is validated in one place whichever way it was given.
// Nothing here echoes a flag's value: a mistyped flag may hold a secret.

import { Refusal } from '../lib/refusal.ts';
import type { EnvVar, RawSettings } from '../lib/env.ts';
import { EXAMPLE_FIXTURE_ID } from '../lib/legs.ts';

export type Command =
  | 'run'
  | 'verify'
  | 'judge'
  | 'fixtures'
  | 'expect'
  | 'diff'
  | 'badge'
  | 'list'
  | 'report'
  | 'matrix'
  | 'help'
  | 'version';

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

interface FlagSpec {
  readonly takesValue: boolean;
  /** The variable a setting flag stands for; absent for a command option. */
  readonly variable?: EnvVar;
  readonly repeatable?: boolean;
  readonly example: string;
}

const RUN_FLAGS: Readonly<Record<string, FlagSpec>> = {
  'base-url': { takesValue: true, variable: 'OPENWOP_BASE_URL', example: 'http://127.0.0.1:8080' },
  'require-behavior': { takesValue: false, variable: 'OPENWOP_REQUIRE_BEHAVIOR', example: 'true' },
  'opt-out': {
    takesValue: true,
    variable: 'OPENWOP_OPTED_OUT_PROFILES',
    repeatable: true,
    example: 'agents.evalSuite.trials',
  },
  'report-dir': { takesValue: true, variable: 'OPENWOP_REPORT_DIR', example: 'reports' },
  impl: { takesValue: true, variable: 'OPENWOP_IMPLEMENTATION_NAME', example: 'acme-host' },
  'impl-version': {
    takesValue: true,
    variable: 'OPENWOP_IMPLEMENTATION_VERSION',
    example: '3.2.0',
  },
  'allow-insecure-key': {
    takesValue: false,
    variable: 'OPENWOP_ALLOW_INSECURE_KEY',
    example: 'true',
  },
  sign: { takesValue: true, example: 'host-ed25519.pem' },
  'key-id': { takesValue: true, example: 'host-2026-01' },
  'expected-failures': { takesValue: true, example: 'expected-failures.yml' },
  only: { takesValue: true, repeatable: true, example: 'mean-gated' },
  skip: { takesValue: true, repeatable: true, example: 'all-rule-unchanged' },
  requirements: { takesValue: true, example: '0.1.0' },
  'fail-on': { takesValue: true, example: 'should' },
  repeat: { takesValue: true, example: '3' },
  'wait-for-host': { takesValue: true, example: '60' },
  generate: { takesValue: true, example: '200' },
  seed: { takesValue: true, example: '1' },
};

/** Where the commands that read a certification may find the key (cli/trust-source.ts). */
const TRUST_FLAGS: Readonly<Record<string, FlagSpec>> = {
  key: { takesValue: true, example: 'host-ed25519.pub.pem' },
  'trusted-keys': { takesValue: true, example: 'trusted-keys.json' },
  host: { takesValue: true, example: 'https://host.example' },
  offline: { takesValue: false, example: '' },
};

/** The commands that take flags and arguments; help and version take nothing. */
type Working = Exclude<Command, 'help' | 'version'>;

const FLAGS: Readonly<Record<Working, Readonly<Record<string, FlagSpec>>>> = {
  run: RUN_FLAGS,
  verify: TRUST_FLAGS,
  judge: {
    fixture: { takesValue: true, example: EXAMPLE_FIXTURE_ID },
    events: { takesValue: true, example: 'events.json' },
  },
  fixtures: {
    out: { takesValue: true, example: 'seed/fixtures' },
    generate: { takesValue: true, example: '200' },
    seed: { takesValue: true, example: '1' },
  },
  expect: { json: { takesValue: false, example: '' } },
  diff: {
    json: { takesValue: false, example: '' },
    all: { takesValue: false, example: '' },
    format: { takesValue: true, example: 'markdown' },
    ...TRUST_FLAGS,
  },
  badge: { out: { takesValue: true, example: 'badge.json' }, ...TRUST_FLAGS },
  list: { json: { takesValue: false, example: '' } },
  report: { html: { takesValue: true, example: 'eval-gate-report.html' }, ...TRUST_FLAGS },
  matrix: { out: { takesValue: true, example: 'matrix' }, ...TRUST_FLAGS },
};

/** How many arguments a command takes; `some` is one or more. */
const POSITIONALS: Readonly<Record<Working, { count: number | 'some'; name: string }>> = {
  run: { count: 0, name: '' },
  verify: { count: 1, name: 'REPORT' },
  judge: { count: 1, name: 'SUMMARY.json' },
  fixtures: { count: 0, name: '' },
  expect: { count: 1, name: 'FIXTURE (a shipped fixture id or a FILE.json)' },
  diff: { count: 2, name: 'OLD.json NEW.json' },
  badge: { count: 1, name: 'REPORT' },
  list: { count: 0, name: '' },
  report: { count: 1, name: 'REPORT' },
  matrix: { count: 'some', name: 'REPORT' },
};

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
    return { command: 'help', positionals: [], settings: {}, flagFor: {}, options: {} };
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
  const rest = argv.slice(argv[0] === command ? 1 : 0);
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] ?? '';
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (KEY_FLAG.test(arg)) {
      throw new UsageError(
        `--${name} is not accepted: the API key is read only from OPENWOP_API_KEY (environment or .env), ` +
          'never from the command line, which shell history and process listings keep',
      );
    }
    const spec = specs[name];
    if (spec === undefined) {
      const valid = Object.keys(specs)
        .map((f) => `--${f}`)
        .join(', ');
      throw new UsageError(
        `unknown flag --${name} for "${command}"; its flags are ${valid} (see --help)`,
      );
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (!spec.takesValue) value = 'true';
    else {
      const next = rest[i + 1];
      if (next === undefined || next.startsWith('--')) value = '';
      else {
        value = next;
        i += 1;
      }
    }
    if (value.trim() === '') {
      // An empty base URL is most often an unset CI variable: it must not become the embedded host.
      const why =
        spec.variable === 'OPENWOP_BASE_URL'
          ? ' (an unset CI variable?); leave the flag out entirely to run the embedded reference host'
          : '';
      throw new UsageError(`--${name} needs a value, such as --${name} ${spec.example}${why}`);
    }
    if (spec.variable === undefined) {
      const given = options[name];
      if (given !== undefined && spec.repeatable !== true) {
        throw new UsageError(`--${name} was given twice; give it once`);
      }
      options[name] = given === undefined ? value : `${given},${value}`;
      continue;
    }
    const previous = settings[spec.variable];
    if (previous !== undefined && spec.repeatable !== true) {
      throw new UsageError(`--${name} was given twice; give it once`);
    }
    settings[spec.variable] = previous === undefined ? value : `${previous},${value}`;
    flagFor[spec.variable] = `--${name}`;
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
