// docs/ci.md's publishing workflows: GitHub's own parser checks them as it checks every workflow
// the docs show (tests/docs/workflows.test.ts); this file checks what they run. Each YAML block is
// a workflow of the kind the text says (a release that publishes, a schedule whose cron has five
// fields), and every `openwop-eval-gate` command in its steps and in the section's shell blocks is
// one the CLI accepts, flag for flag; the matrix job downloads every file a release attaches that
// `verify` reads. A literal workflow with a mistyped flag shows the check can fail.

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseArgs } from '../../cli/args.ts';
import { blocks, publishingSection, releaseAttachments, words } from './publishing-section.ts';

/** Every `openwop-eval-gate ...` command in a script, as the argv the CLI would get. */
function suiteCommands(script: string): string[][] {
  return script
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .flatMap((line) => {
      const w = words(line);
      const at = w.indexOf('openwop-eval-gate');
      return at < 0 ? [] : [w.slice(at + 1)];
    });
}

/** Why a command line would be refused, or undefined when the CLI takes it. */
function refusal(argv: readonly string[]): string | undefined {
  try {
    parseArgs(argv);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

type Step = { readonly uses?: unknown; readonly run?: unknown; readonly name?: unknown };
type Job = { readonly 'runs-on'?: unknown; readonly steps?: unknown };

/** What is wrong with a workflow document, one line each; empty when GitHub would run it. */
function workflowProblems(text: string): string[] {
  const doc = parse(text) as Record<string, unknown> | null;
  if (doc === null || typeof doc !== 'object') return ['not a YAML map'];
  const problems: string[] = [];
  if (typeof doc.name !== 'string') problems.push('no name');
  const on = doc.on as Record<string, unknown> | undefined;
  if (on === undefined || typeof on !== 'object') problems.push('no "on" triggers');
  const schedule = on?.schedule;
  if (schedule !== undefined) {
    for (const entry of schedule as { cron?: unknown }[]) {
      if (typeof entry.cron !== 'string' || entry.cron.trim().split(/\s+/).length !== 5) {
        problems.push(`schedule cron ${JSON.stringify(entry.cron)} does not have five fields`);
      }
    }
  }
  const jobs = doc.jobs as Record<string, Job> | undefined;
  if (jobs === undefined || Object.keys(jobs).length === 0) problems.push('no jobs');
  for (const [id, job] of Object.entries(jobs ?? {})) {
    if (typeof job['runs-on'] !== 'string') problems.push(`job ${id}: no runs-on`);
    const steps = job.steps as Step[] | undefined;
    if (!Array.isArray(steps) || steps.length === 0) {
      problems.push(`job ${id}: no steps`);
      continue;
    }
    steps.forEach((step, i) => {
      const uses = typeof step.uses === 'string';
      const run = typeof step.run === 'string';
      if (uses === run) problems.push(`job ${id} step ${i + 1}: needs exactly one of uses and run`);
      if (uses && !/^[\w.-]+\/[\w.-]+@v\d+$/.test(step.uses as string)) {
        problems.push(`job ${id} step ${i + 1}: uses ${String(step.uses)} is not OWNER/REPO@vN`);
      }
      if (run) {
        for (const argv of suiteCommands(step.run as string)) {
          const why = refusal(argv);
          if (why !== undefined) problems.push(`job ${id} step ${i + 1}: ${why}`);
        }
      }
    });
  }
  return problems;
}

describe("docs/ci.md's publishing workflows", () => {
  const text = publishingSection();
  const workflows = blocks(text, 'yaml');

  it('are two workflows GitHub would run: a release that publishes, a schedule that rebuilds', () => {
    expect(workflows).toHaveLength(2);
    expect(workflows.map(workflowProblems)).toEqual([[], []]);
    const [release, schedule] = workflows.map((w) => parse(w) as { on: Record<string, unknown> });
    expect(Object.keys(release?.on ?? {})).toEqual(['release']);
    expect(Object.keys(schedule?.on ?? {})).toContain('schedule');
  });

  it('run, verify, upload and build the matrix with commands and flags the CLI takes', () => {
    const scripts = [
      ...workflows.flatMap((w) => {
        const doc = parse(w) as { jobs: Record<string, { steps: Step[] }> };
        return Object.values(doc.jobs).flatMap((j) => j.steps.map((s) => String(s.run ?? '')));
      }),
      ...blocks(text, 'sh'),
    ];
    const commands = scripts.flatMap(suiteCommands);
    expect(commands.map((argv) => argv[0])).toEqual(['run', 'verify', 'matrix', 'matrix']);
    expect(commands.map(refusal)).toEqual([undefined, undefined, undefined, undefined]);
    expect(scripts.join('\n')).toContain('gh release upload');
    expect(scripts.join('\n')).toContain('gh release download');
  });

  it('download into the matrix every file a release attaches that verify reads: the report and its sidecar', () => {
    const download = workflows[1]?.split('\n').find((l) => l.includes('gh release download'));
    const w = words(download ?? '');
    const patterns = w.flatMap((word, i) => (w[i - 1] === '--pattern' ? [globRegExp(word)] : []));
    const read = releaseAttachments()
      .map((file) => file.slice(file.lastIndexOf('/') + 1))
      .filter((name) => !name.endsWith('.html'));
    expect(read).toEqual(['eval-gate-report.json', 'eval-gate-generated.jsonl.gz']);
    expect(read.filter((name) => !patterns.some((p) => p.test(name)))).toEqual([]);
  });

  it('are checked for real: a mistyped flag and a step that both runs and uses are named', () => {
    const broken = [
      'name: broken',
      'on:',
      '  schedule:',
      "    - cron: '17 4 * *'",
      'jobs:',
      '  matrix:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        run: echo both',
      '      - run: npx openwop-eval-gate matrix a.json --out site --trusted-key k.json',
    ].join('\n');
    expect(workflowProblems(broken)).toEqual([
      'schedule cron "17 4 * *" does not have five fields',
      'job matrix step 1: needs exactly one of uses and run',
      'job matrix step 2: unknown flag --trusted-key for "matrix"; its flags are --out, --key, --trusted-keys, --host, --offline, --max-age, --max-report-bytes, --max-depth, --max-sidecar-bytes, --max-inflated-bytes, --max-line-bytes (see --help)',
    ]);
  });
});

/** A `gh release download --pattern` glob as a regular expression: `*` is any run of characters. */
function globRegExp(glob: string): RegExp {
  const parts = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}
