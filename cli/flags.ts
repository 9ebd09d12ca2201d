// Every flag of every command, in one table: the parser reads it (cli/args.ts) and the help renders
// its settings and CI options from it (cli/help.ts), so a flag is added in one place.

import { DEFAULT_BUDGET_MS, formatDuration, type EnvVar } from '../lib/env.ts';
import { EXAMPLE_FIXTURE_ID, GENERATED_REQUIREMENT, REQUIREMENT_PREFIX } from '../lib/legs.ts';
import { currentSet } from '../lib/requirement-sets.ts';
import { MAX_PACK_CONCURRENCY, PACK_CONCURRENCY } from '../lib/decide/pack-request.ts';
import { DEFAULT_INPUT_LIMITS, INPUT_LIMIT_FLAGS, type InputLimits } from '../lib/bounded-input.ts';

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

export interface FlagSpec {
  readonly takesValue: boolean;
  /** The variable a setting flag stands for; absent for a command option. */
  readonly variable?: EnvVar;
  readonly repeatable?: boolean;
  /** A value a usage message suggests when the flag is given without one. */
  readonly example: string;
  /** What the help writes after the flag for its value (`URL`); absent for a switch. */
  readonly value?: string;
  /** The help's words for a flag of `run`, whose settings and CI options it lists. */
  readonly help?: string;
  /** Where the help lists a flag of `run`: among the settings, or the CI options. */
  readonly section?: 'settings' | 'ci';
}

const RUN_FLAGS: Readonly<Record<string, FlagSpec>> = {
  'base-url': {
    takesValue: true,
    variable: 'OPENWOP_BASE_URL',
    example: 'http://127.0.0.1:8080',
    value: 'URL',
    section: 'settings',
    help: 'the host; absent: the embedded reference host (never certified); given but empty: exit 2',
  },
  'require-behavior': {
    takesValue: false,
    variable: 'OPENWOP_REQUIRE_BEHAVIOR',
    example: 'true',
    section: 'settings',
    help: "strict mode: a failing gate fails the leg, and the requirement set's generated pack is driven",
  },
  'opt-out': {
    takesValue: true,
    variable: 'OPENWOP_OPTED_OUT_PROFILES',
    repeatable: true,
    example: 'agents.evalSuite.trials',
    value: 'NAME',
    section: 'settings',
    help: 'gate excused in strict mode; repeat or comma list: agents.evalSuite, agents.evalSuite.trajectory, agents.evalSuite.trials, generated-pack (the host cannot seed the pack)',
  },
  'report-dir': {
    takesValue: true,
    variable: 'OPENWOP_REPORT_DIR',
    example: 'reports',
    value: 'DIR',
    section: 'settings',
    help: 'where outputs go (default reports)',
  },
  impl: {
    takesValue: true,
    variable: 'OPENWOP_IMPLEMENTATION_NAME',
    example: 'acme-host',
    value: 'NAME',
    section: 'settings',
    help: 'the implementation you certify',
  },
  'impl-version': {
    takesValue: true,
    variable: 'OPENWOP_IMPLEMENTATION_VERSION',
    example: '3.2.0',
    value: 'VERSION',
    section: 'settings',
    help: 'its version',
  },
  'allow-insecure-key': {
    takesValue: false,
    variable: 'OPENWOP_ALLOW_INSECURE_KEY',
    example: 'true',
    section: 'settings',
    help: 'allow the key over http:// to a non-loopback host',
  },
  sign: {
    takesValue: true,
    example: 'host-ed25519.pem',
    value: 'KEY.pem',
    section: 'settings',
    help: 'sign the report digest with an ed25519 private key',
  },
  'key-id': {
    takesValue: true,
    example: 'host-2026-01',
    value: 'ID',
    section: 'settings',
    help: "the key's id in your discovery signingKeys, which must publish its public half",
  },
  'expected-failures': {
    takesValue: true,
    example: 'expected-failures.yml',
    value: 'FILE',
    section: 'ci',
    help: 'a YAML or JSON baseline: {"expectedFailures": [{"requirement": ID, "rule": RULE (optional), "reason": TEXT, "ticket", "owner", "expires": YYYY-MM-DD (optional)}]}; requirement "*" (or a rule alone) names the rule on every requirement, "host-checks" a host check; a listed failure does not fail the exit code, an entry that now holds fails it as stale, an entry past its expires day excuses nothing; an unknown id, or a rule its requirement never records, is a configuration error; an empty list is no baseline',
  },
  only: {
    takesValue: true,
    repeatable: true,
    example: 'mean-gated',
    value: 'ID',
    section: 'ci',
    help: `run only these requirements (repeat or comma list; the ${REQUIREMENT_PREFIX} prefix is optional); the others are skipped as "not selected" and the run is marked partial`,
  },
  skip: {
    takesValue: true,
    repeatable: true,
    example: 'all-rule-unchanged',
    value: 'ID',
    section: 'ci',
    help: 'run all but these requirements, as --only does',
  },
  requirements: {
    takesValue: true,
    example: '0.1.0',
    value: 'VERSION',
    section: 'ci',
    help: 'run exactly the requirement set that suite version shipped (recorded in the report), so an upgrade adds no leg; default: the current set',
  },
  'fail-on': {
    takesValue: true,
    example: 'should',
    value: 'must|should|none',
    section: 'ci',
    help: 'should: a SHOULD warning fails the exit code too (default must); none: exit 0 whatever failed, while the result still says FAIL and a failure still withholds certification (a blocked run still exits 3)',
  },
  repeat: {
    takesValue: true,
    example: '3',
    value: 'N',
    section: 'ci',
    help: 'drive every requirement N times (2-20); a row is stable (one disposition every time) or flaky (the outcomes seen); a flaky row fails the run unless a baseline entry lists its outcomes ({"requirement": ID, "outcomes": [executed-pass, executed-fail], "reason": TEXT}), and withholds certification either way',
  },
  'wait-for-host': {
    takesValue: true,
    example: '60',
    value: 'SECONDS',
    section: 'settings',
    help: 'wait up to SECONDS for discovery to answer first; a TLS or protocol mismatch stops it at once',
  },
  budget: {
    takesValue: true,
    variable: 'OPENWOP_BUDGET',
    example: '10m',
    value: 'DURATION',
    section: 'settings',
    help: `how long the whole run may take, as 90s, 10m or 1h30m (1s-24h, default ${formatDuration(DEFAULT_BUDGET_MS)}); once spent, every leg and generated case not yet decided is blocked, naming the budget, and the cases not started are not run`,
  },
  generate: {
    takesValue: true,
    example: '200',
    value: 'N',
    section: 'settings',
    help: `also drive N generated fixtures (1-10000) as ${GENERATED_REQUIREMENT}; seed them with fixtures --out DIR --generate N --seed S; without it a strict run drives the pack its requirement set names (${currentSet().pack.count} at seed ${currentSet().pack.seed})`,
  },
  seed: {
    takesValue: true,
    example: '1',
    value: 'S',
    section: 'settings',
    help: 'the seed the generated fixtures are drawn from (default 1)',
  },
  case: {
    takesValue: true,
    example: 'generated-s1-n0137',
    value: 'ID',
    section: 'settings',
    help: "drive only this case of the --generate N --seed S pack, alone, with the same fixture and expectations; the report's generated row names every case's id",
  },
  concurrency: {
    takesValue: true,
    example: String(PACK_CONCURRENCY),
    value: 'N',
    section: 'settings',
    help: `how many generated cases are in flight at once (1-${MAX_PACK_CONCURRENCY}, default ${PACK_CONCURRENCY})`,
  },
  silent: {
    takesValue: false,
    example: '',
    section: 'ci',
    help: 'print nothing but the closing line (and, under GITHUB_ACTIONS, the ::error lines); without it a pack shows its progress: a live line on a terminal, a line every 10 s otherwise',
  },
};

// The flags that raise the limits on what the report-reading commands read (lib/bounded-input.ts);
// cli/input-limits.ts turns them into limits. Kept here, beside the other flag tables, so that
// module imports no flag table and no import cycle runs through the parser.
const LIMIT_KEYS = Object.keys(INPUT_LIMIT_FLAGS) as (keyof InputLimits)[];

/** `--max-report-bytes N` and its kin, for every command that reads a report. */
export const INPUT_FLAGS: Readonly<Record<string, FlagSpec>> = Object.fromEntries(
  LIMIT_KEYS.map((limit) => [
    INPUT_LIMIT_FLAGS[limit].slice(2),
    { takesValue: true, example: String(DEFAULT_INPUT_LIMITS[limit]), value: 'N' },
  ]),
);

/** Where the commands that read a certification may find the key (cli/trust-source.ts). */
const TRUST_FLAGS: Readonly<Record<string, FlagSpec>> = {
  key: { takesValue: true, example: 'host-ed25519.pub.pem' },
  'trusted-keys': { takesValue: true, example: 'trusted-keys.json' },
  host: { takesValue: true, example: 'https://host.example' },
  offline: { takesValue: false, example: '' },
  'max-age': { takesValue: true, example: '30' },
};

/** The commands that take flags and arguments; help and version take nothing. */
export type Working = Exclude<Command, 'help' | 'version'>;

export const FLAGS: Readonly<Record<Working, Readonly<Record<string, FlagSpec>>>> = {
  run: RUN_FLAGS,
  verify: {
    ...TRUST_FLAGS,
    ...INPUT_FLAGS,
    recheck: { takesValue: false, example: '' },
    'recheck-sample': { takesValue: true, example: '8' },
  },
  judge: {
    fixture: { takesValue: true, example: EXAMPLE_FIXTURE_ID },
    case: { takesValue: true, example: 'generated-s1-n0001' },
    events: { takesValue: true, example: 'events.json' },
    generate: { takesValue: true, example: '200' },
    seed: { takesValue: true, example: '1' },
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
    ...INPUT_FLAGS,
  },
  badge: { out: { takesValue: true, example: 'badge.json' }, ...TRUST_FLAGS, ...INPUT_FLAGS },
  list: { json: { takesValue: false, example: '' } },
  report: {
    html: { takesValue: true, example: 'eval-gate-report.html' },
    ...TRUST_FLAGS,
    ...INPUT_FLAGS,
  },
  matrix: { out: { takesValue: true, example: 'matrix' }, ...TRUST_FLAGS, ...INPUT_FLAGS },
};

/** How many arguments a command takes; `some` is one or more. */
export const POSITIONALS: Readonly<Record<Working, { count: number | 'some'; name: string }>> = {
  run: { count: 0, name: '' },
  verify: { count: 1, name: 'REPORT' },
  judge: { count: 1, name: 'SUMMARY.json (or REPORT, with --case)' },
  fixtures: { count: 0, name: '' },
  expect: { count: 1, name: 'FIXTURE (a shipped fixture id or a FILE.json)' },
  diff: { count: 2, name: 'OLD.json NEW.json' },
  badge: { count: 1, name: 'REPORT' },
  list: { count: 0, name: '' },
  report: { count: 1, name: 'REPORT' },
  matrix: { count: 'some', name: 'REPORT' },
};
