// `openwop-eval-gate COMMAND --help`: one command's part of the overview, cut from HELP itself
// (its usage lines, the sections that belong to it, its exit codes) with every flag the parser
// accepts for it, so the two texts cannot say different things.

import { INPUT_FLAGS, FLAGS, type Working } from './flags.ts';
import { HELP } from './help.ts';

/** The overview's sections, by their heading lines (a line that starts in column 0). */
function sections(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of HELP.trimEnd().split('\n')) {
    if (line !== '' && !line.startsWith(' ')) {
      current = [];
      out.set(line, current);
    } else current.push(line);
  }
  return out;
}

/** The lines of a section whose heading starts with `prefix`, blank lines at its end dropped. */
function section(all: Map<string, string[]>, prefix: string): { head: string; lines: string[] } {
  for (const [head, lines] of all) {
    if (head.startsWith(prefix)) {
      const kept = [...lines];
      while (kept.at(-1) === '') kept.pop();
      return { head, lines: kept };
    }
  }
  return { head: prefix, lines: [] };
}

/**
 * Entries of a list whose first line starts two columns in and names its commands; `owners`
 * reads them, and a line that names none continues the entry above it.
 */
function entriesFor(
  lines: readonly string[],
  command: Working,
  owners: (first: string) => readonly string[],
): string[] {
  const out: string[] = [];
  let keep = false;
  for (const line of lines) {
    const named = /^ {2}\S/.test(line) ? owners(line) : [];
    if (named.length > 0) keep = named.includes(command);
    if (keep) out.push(line);
  }
  return out;
}

function isCommandWord(word: string): boolean {
  return word in FLAGS || word === '--help' || word === '--version';
}

/** `  openwop-eval-gate [run] [flags]`: the command a usage line is about. */
function usageOwners(first: string): readonly string[] {
  const word = /^ {2}openwop-eval-gate (\S+)/.exec(first)?.[1] ?? '';
  return [word === '[run]' ? 'run' : word].filter(isCommandWord);
}

/** `  run     0 ...`, `  fixtures, expect  0 done`, `  run with CI options: ...`. */
function exitOwners(first: string): readonly string[] {
  const label = /^ {2}([a-z-]+(?:, [a-z-]+)*)/.exec(first)?.[1] ?? '';
  return label.split(', ').filter(isCommandWord);
}

/** Every flag the parser accepts for `command`, as one wrapped list. */
function flagList(command: Working, withLimits: boolean): string[] {
  const names = Object.keys(FLAGS[command])
    .filter((name) => withLimits || !(name in INPUT_FLAGS))
    .map((name) => `--${name}`);
  if (names.length === 0) return ['  (none)'];
  const lines: string[] = [];
  let line = ' ';
  for (const name of names) {
    const word = ` ${name}${name === names.at(-1) ? '' : ','}`;
    if (line.length + word.length > 100) {
      lines.push(line);
      line = ' ';
    }
    line += word;
  }
  lines.push(line);
  return lines;
}

/** The help of one command: a few dozen lines instead of the whole overview. */
export function commandHelp(command: Working): string {
  const all = sections();
  const usage = entriesFor(section(all, 'Usage').lines, command, usageOwners);
  const exits = entriesFor(section(all, 'Exit codes').lines, command, exitOwners);
  const limits = section(all, 'Input limits');
  const takesLimits = new RegExp(`\\b${command}\\b`).test(limits.head);
  // run's flags have sections of their own, with their variables and words.
  const ownSections =
    command === 'run'
      ? ['Settings for run', 'CI options for run', 'Outputs'].map((p) => section(all, p))
      : [];
  const blocks = [
    [`openwop-eval-gate ${command}`, '', 'Usage', ...usage],
    ...(command === 'run' ? [] : [['Flags', ...flagList(command, !takesLimits)]]),
    ...ownSections.map((s) => [s.head, ...s.lines]),
    ...(takesLimits ? [[limits.head, ...limits.lines]] : []),
    ['Exit codes', ...exits],
    ['openwop-eval-gate --help lists every command.'],
  ];
  return `${blocks.map((b) => b.join('\n')).join('\n\n')}\n`;
}
