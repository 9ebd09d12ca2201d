// Command-line parsing: flags land on the variable names lib/env.ts validates, and a command
// line that cannot run is refused with one line that never quotes a flag's value.

import { describe, expect, it } from 'vitest';
import { nameFlags, parseArgs, UsageError } from '../../cli/args.ts';
import { FLAGS } from '../../cli/flags.ts';
import { HELP } from '../../cli/help.ts';

function usageError(argv: readonly string[]): string {
  try {
    parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseArgs', () => {
  it('maps each run flag onto the variable it stands for; run is the default command', () => {
    const parsed = parseArgs([
      '--base-url=https://host.example',
      '--require-behavior',
      '--opt-out',
      'agents.evalSuite.trials',
      '--opt-out=agents.evalSuite.trajectory',
      '--report-dir',
      'out',
      '--impl',
      'acme-host',
      '--impl-version',
      '3.2.0',
      '--allow-insecure-key',
      '--sign',
      'k.pem',
    ]);
    expect(parsed.command).toBe('run');
    expect(parsed.settings).toEqual({
      OPENWOP_BASE_URL: 'https://host.example',
      OPENWOP_REQUIRE_BEHAVIOR: 'true',
      OPENWOP_OPTED_OUT_PROFILES: 'agents.evalSuite.trials,agents.evalSuite.trajectory',
      OPENWOP_REPORT_DIR: 'out',
      OPENWOP_IMPLEMENTATION_NAME: 'acme-host',
      OPENWOP_IMPLEMENTATION_VERSION: '3.2.0',
      OPENWOP_ALLOW_INSECURE_KEY: 'true',
    });
    expect(parsed.options).toEqual({ sign: 'k.pem' });
  });

  it('a boolean flag may be turned off explicitly, leaving validation to lib/env.ts', () => {
    expect(parseArgs(['--require-behavior=false']).settings).toEqual({
      OPENWOP_REQUIRE_BEHAVIOR: 'false',
    });
  });

  it('verify and judge take their one positional and their own flags', () => {
    expect(parseArgs(['verify', 'r.json', '--key', 'k.pub']).options).toEqual({ key: 'k.pub' });
    const judge = parseArgs(['judge', '--fixture', 'f', 's.json', '--events', 'e.json']);
    expect(judge.positionals).toEqual(['s.json']);
    expect(judge.options).toEqual({ fixture: 'f', events: 'e.json' });
  });

  it('--help anywhere wins over everything else on the line', () => {
    expect(parseArgs(['verify', '--bogus', '--help']).command).toBe('help');
  });

  it.each([
    [
      ['--base-url'],
      '--base-url needs a value, such as --base-url http://127.0.0.1:8080 (an unset CI variable?); leave the flag out entirely to run the embedded reference host',
    ],
    [
      ['--base-url='],
      '--base-url needs a value, such as --base-url http://127.0.0.1:8080 (an unset CI variable?); leave the flag out entirely to run the embedded reference host',
    ],
    [
      ['--base-url', '--require-behavior'],
      '--base-url needs a value, such as --base-url http://127.0.0.1:8080 (an unset CI variable?); leave the flag out entirely to run the embedded reference host',
    ],
    [
      ['run', '-x'],
      'unknown flag -x for "run"; its flags are --base-url, --require-behavior, --opt-out, --report-dir, --impl, --impl-version, --allow-insecure-key, --sign, --key-id, --expected-failures, --only, --skip, --requirements, --fail-on, --repeat, --wait-for-host, --budget, --generate, --seed, --case, --concurrency, --silent (see --help)',
    ],
    [['--impl', 'a', '--impl', 'b'], '--impl was given twice; give it once'],
    [['verify'], '"verify" takes exactly one REPORT; see --help'],
    [['run', 'extra'], '"run" takes no arguments besides flags; see --help'],
    [
      ['verify', 'r.json', '--sign', 'k'],
      'unknown flag --sign for "verify"; its flags are --key, --trusted-keys, --host, --offline, --max-age, --max-report-bytes, --max-depth, --max-sidecar-bytes, --max-inflated-bytes, --max-line-bytes, --recheck, --recheck-sample (see --help)',
    ],
  ])('%j is refused: %s', (argv, message) => {
    expect(usageError(argv)).toBe(message);
  });

  it('a key passed as a flag is refused without its value being repeated', () => {
    const message = usageError(['--token=sk-secret-value-123']);
    expect(message).toMatch(
      /^--token is not accepted: the API key is read only from OPENWOP_API_KEY/,
    );
    expect(message).not.toContain('sk-secret-value-123');
  });
});

describe('nameFlags', () => {
  it('names the flag in a message about the variable it set, and leaves other variables alone', () => {
    const flagFor = { OPENWOP_BASE_URL: '--base-url' };
    expect(nameFlags('OPENWOP_BASE_URL must be absolute; OPENWOP_API_KEY is fine', flagFor)).toBe(
      '--base-url must be absolute; OPENWOP_API_KEY is fine',
    );
  });
});

describe('parseArgs: the CI options and commands', () => {
  it('--only and --skip repeat into comma lists; --expected-failures and --fail-on are options', () => {
    const parsed = parseArgs([
      'run',
      '--only',
      'mean-gated',
      '--only=suite-gated',
      '--skip',
      'all-rule-unchanged',
      '--expected-failures',
      'b.yml',
      '--fail-on',
      'should',
    ]);
    expect(parsed.options).toEqual({
      only: 'mean-gated,suite-gated',
      skip: 'all-rule-unchanged',
      'expected-failures': 'b.yml',
      'fail-on': 'should',
    });
    expect(usageError(['run', '--fail-on', 'must', '--fail-on', 'should'])).toBe(
      '--fail-on was given twice; give it once',
    );
    expect(usageError(['run', '--only'])).toBe('--only needs a value, such as --only mean-gated');
  });

  it('diff takes two reports, --json, --all and --format; badge takes one and --out', () => {
    expect(parseArgs(['diff', 'a.json', 'b.json', '--json'])).toMatchObject({
      command: 'diff',
      positionals: ['a.json', 'b.json'],
      options: { json: 'true' },
    });
    expect(parseArgs(['diff', 'a.json', 'b.json', '--all', '--format', 'markdown'])).toMatchObject({
      options: { all: 'true', format: 'markdown' },
    });
    expect(parseArgs(['badge', 'r.json', '--out', 'badge.json'])).toMatchObject({
      command: 'badge',
      options: { out: 'badge.json' },
    });
    expect(usageError(['badge'])).toBe('"badge" takes exactly one REPORT; see --help');
    expect(usageError(['diff', 'a.json', '--out', 'x'])).toBe(
      'unknown flag --out for "diff"; its flags are --json, --all, --format, --key, --trusted-keys, --host, --offline, --max-age, --max-report-bytes, --max-depth, --max-sidecar-bytes, --max-inflated-bytes, --max-line-bytes (see --help)',
    );
  });
});

describe('the help is rendered from the flag table', () => {
  it('names every flag of every command, and gives each flag of run its own words', () => {
    for (const [command, specs] of Object.entries(FLAGS)) {
      for (const name of Object.keys(specs)) {
        expect(HELP, `--${name} of ${command}`).toContain(`--${name}`);
      }
    }
    for (const [name, spec] of Object.entries(FLAGS.run)) {
      const firstWords = (spec.help ?? '').split(' ').slice(0, 3).join(' ');
      expect(firstWords.length, `--${name} has words in the table`).toBeGreaterThan(0);
      const line = HELP.split('\n').find((l) => l.startsWith(`  --${name}`)) ?? '';
      expect(line, `--${name} heads its own help line`).not.toBe('');
      expect(HELP.replace(/\s+/g, ' ')).toContain(firstWords);
    }
  });
});
