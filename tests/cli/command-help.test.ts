// `COMMAND --help` is that command's part of the overview, not all of it: its usage lines, every
// flag the parser takes for it, the sections that belong to it and its exit codes. `--help` and
// `help` alone stay the overview.

import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args.ts';
import { commandHelp } from '../../cli/command-help.ts';
import { FLAGS, type Working } from '../../cli/flags.ts';
import { HELP } from '../../cli/help.ts';
import { cli } from './support.ts';

const COMMANDS = Object.keys(FLAGS) as Working[];
const overview = HELP.trimEnd().split('\n');

describe('per-command help', () => {
  it('--help or help alone is the overview; COMMAND --help and help COMMAND name the command', () => {
    expect(parseArgs(['--help']).positionals).toEqual([]);
    expect(parseArgs(['help']).positionals).toEqual([]);
    expect(parseArgs(['verify', '--help']).positionals).toEqual(['verify']);
    expect(parseArgs(['help', 'diff']).positionals).toEqual(['diff']);
    expect(parseArgs(['verify', '--bogus', '-h'])).toMatchObject({
      command: 'help',
      positionals: ['verify'],
    });
  });

  it('verify --help prints verify’s usage, flags, limits and exit codes, and nothing of run', async () => {
    const run = await cli(['verify', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual(commandHelp('verify').trimEnd().split('\n'));
    expect(run.stdout.length).toBeLessThan(overview.length / 3);
    const text = run.stdout.join('\n');
    expect(text).toContain('openwop-eval-gate verify REPORT');
    expect(text).toContain('--max-report-bytes N');
    expect(text).toMatch(/^ {2}verify {2}0 every verdict/m);
    for (const foreign of ['--base-url', 'openwop-eval-gate judge', 'diff    0', 'badge   0']) {
      expect(text).not.toContain(foreign);
    }
    expect((await cli(['--help'])).stdout).toEqual(overview);
    expect((await cli(['help'])).stdout).toEqual(overview);
  });

  it.each(COMMANDS)(
    '%s --help names each of its flags, its usage and its exit codes',
    (command) => {
      const text = commandHelp(command);
      for (const name of Object.keys(FLAGS[command])) expect(text).toContain(`--${name}`);
      expect(text).toMatch(new RegExp(`^ {2}openwop-eval-gate (\\[${command}\\]|${command})`, 'm'));
      const exits = text.slice(text.indexOf('Exit codes'));
      expect(exits).toMatch(new RegExp(`^ {2}([a-z-]+, )*${command}\\b.* 0\\b`, 'm'));
      expect(text.split('\n').length).toBeLessThan(overview.length);
    },
  );

  it('run --help keeps the whole of its exit-code entry, continuation lines included', () => {
    expect(commandHelp('run')).toContain('before any leg (2)');
  });
});
