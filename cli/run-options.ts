// The CI options of `run` from the command line: --only and --skip (comma lists, repeatable),
// --requirements (a pinned requirement set), --fail-on, and --expected-failures, a YAML or JSON
// baseline file. Every problem is a configuration error (exit 2) raised before any leg runs.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FailOn } from '../lib/report/run-options.ts';
import type { PackRequest } from '../lib/decide/pack-request.ts';
import type { SuiteConfig } from '../lib/env.ts';
import { FAIL_ON, resolveSelection, RunOptionError } from '../lib/report/run-options.ts';
import { readBaselineDocument } from '../lib/report/verdict/baseline-file.ts';
import { MAX_REPEAT } from '../lib/report/verdict/repeat.ts';
import type { RequirementSet } from '../lib/requirement-sets.ts';
import { currentSet, REQUIREMENT_SETS, requirementSetOf } from '../lib/requirement-sets.ts';
import type { RunOptions } from '../lib/report/run-record.ts';
import { PACK_OPT_OUT } from '../lib/types.ts';

/** The run options the flags give; a bad one throws a Refusal with its one line (exit 2). */
export async function runOptionsFrom(
  options: Readonly<Record<string, string>>,
): Promise<RunOptions> {
  const failOn = failOnFrom(options['fail-on']);
  const only = listOf(options.only);
  const skip = listOf(options.skip);
  const pinned = setFrom(options.requirements);
  const file = options['expected-failures'];
  const baseline = file === undefined ? undefined : await readBaseline(file);
  const selected = only.length + skip.length > 0 || pinned !== undefined;
  const repeat = repeatFrom(options.repeat);
  const empty =
    baseline === undefined || baseline.entries.length + (baseline.severity?.length ?? 0) === 0;
  return {
    ...(failOn === undefined ? {} : { failOn }),
    ...(selected ? { selection: resolveSelection(only, skip, pinned) } : {}),
    // An empty baseline excuses nothing, so the run is what it would be without one.
    ...(empty ? {} : { baseline }),
    ...(repeat === undefined ? {} : { repeat }),
  };
}

/**
 * The generated pack a run drives: the one `--generate N --seed S` names; else, in strict mode,
 * the one the run's requirement set names, which a certification asks for. A host that opted out
 * of the pack, and a run that --only or --skip narrows (it certifies nothing), drive none.
 */
export function packToDrive(
  given: PackRequest | undefined,
  config: Pick<SuiteConfig, 'requireBehavior' | 'optedOut'>,
  options: RunOptions,
): PackRequest | undefined {
  if (given !== undefined) return given;
  if (!config.requireBehavior || config.optedOut.includes(PACK_OPT_OUT)) return undefined;
  const selection = options.selection;
  if (selection !== undefined && selection.only.length + selection.skip.length > 0) {
    return undefined;
  }
  return (selection?.requirementSet ?? currentSet()).pack;
}

/** `--repeat N`: 2 to MAX_REPEAT drives of every requirement; 1 is a plain run. */
function repeatFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || count < 1 || count > MAX_REPEAT) {
    throw new RunOptionError(
      `--repeat takes how many times to drive every requirement, 1 to ${MAX_REPEAT}, such as --repeat 3`,
    );
  }
  return count === 1 ? undefined : count;
}

function failOnFrom(value: string | undefined): FailOn | undefined {
  if (value === undefined) return undefined;
  const found = FAIL_ON.find((f) => f === value.trim().toLowerCase());
  if (found === undefined) {
    throw new RunOptionError(
      `--fail-on takes ${FAIL_ON.slice(0, -1).join(', ')} or ${FAIL_ON.at(-1) ?? ''}`,
    );
  }
  return found;
}

/** `--requirements VERSION`: the set that version shipped; an unknown one lists the known ones. */
export function setFrom(
  version: string | undefined,
  sets: readonly RequirementSet[] = REQUIREMENT_SETS,
): RequirementSet | undefined {
  if (version === undefined) return undefined;
  const found = requirementSetOf(version, sets);
  if (found === undefined) {
    throw new RunOptionError(
      `--requirements ${version} names no suite version with a requirement set; the versions are ${sets.map((s) => s.version).join(', ')}`,
    );
  }
  return found;
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

async function readBaseline(file: string): Promise<NonNullable<RunOptions['baseline']>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new RunOptionError(
      `the baseline ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const text = bytes.toString('utf8');
  let document: unknown;
  try {
    // JSON is read as JSON so that a .json baseline is held to JSON's own rules.
    // The YAML parser loads only for a YAML baseline: a run without one does not pay for it.
    document = /\.json$/i.test(file) ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    const what = /\.json$/i.test(file) ? 'JSON' : 'YAML';
    throw new RunOptionError(
      `the baseline ${file} is not ${what}: ${oneLine((error as Error).message)}`,
    );
  }
  let read;
  try {
    read = readBaselineDocument(document);
  } catch (error) {
    // Name the file, so the line says which baseline holds the entry.
    if (error instanceof RunOptionError) throw new RunOptionError(`${file}: ${error.message}`);
    throw error;
  }
  return {
    file,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    entries: read.entries,
    ...(read.severity.length === 0 ? {} : { severity: read.severity }),
  };
}

/**
 * A parser's message on one line and whole: the YAML parser ends its first line with a colon and
 * puts the offending source line, then a caret, on the lines after it.
 */
export function oneLine(message: string): string {
  const [first = '', ...rest] = message.split(/\r?\n/);
  const source = rest.find((line) => line.trim() !== '' && !/^\s*\^+\s*$/.test(line));
  const head = first.trim().replace(/:$/, '');
  return source === undefined ? head : `${head}: ${source.trim()}`;
}
