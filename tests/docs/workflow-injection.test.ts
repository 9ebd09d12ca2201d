// A step output is host text (the `verdict` output names the implementation the host advertises),
// and GitHub pastes a `${{ }}` expression into a `run:` script before the shell reads it. So no
// documented workflow, and no step of action.yml, puts an expression inside `run:`; outputs reach
// scripts through `env:`. The documented step that prints the verdict is run here, as GitHub would
// run it, with a verdict naming the host `x$(touch …)`: the command must not run.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepoFile } from './markdown.ts';

interface Step {
  readonly run?: unknown;
  readonly env?: Readonly<Record<string, unknown>>;
}

/** Every step with a `run:` in a YAML value, wherever it sits (jobs, a composite action, a list). */
function runSteps(value: unknown): Step[] {
  if (Array.isArray(value)) return value.flatMap(runSteps);
  if (typeof value !== 'object' || value === null) return [];
  const own = typeof (value as Step).run === 'string' ? [value as Step] : [];
  return [...own, ...Object.values(value).flatMap(runSteps)];
}

function documentedSteps(path: string): Step[] {
  const text = readRepoFile(path);
  return [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].flatMap((m) =>
    runSteps(parse(m[1] ?? '') as unknown),
  );
}

const STEPS = [
  ...documentedSteps('docs/ci.md'),
  ...documentedSteps('README.md'),
  ...runSteps(parse(readRepoFile('action.yml')) as unknown),
];

/** What GitHub does with a step: expressions pasted into the script, `env:` as variables. */
function runAsGithub(step: Step, outputs: Readonly<Record<string, string>>, cwd: string): void {
  const expand = (text: string): string =>
    text.replace(
      /\$\{\{\s*steps\.gate\.outputs\.([a-z-]+)\s*\}\}/g,
      (_m, name: string) => outputs[name] ?? '',
    );
  const env = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))]),
  );
  spawnSync('bash', ['-e', '-c', expand(String(step.run))], {
    cwd,
    // A fixed PATH: the step needs only echo and touch, and the test reads no environment.
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...env },
    timeout: 10_000,
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'eval-gate-injection-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('workflow injection through step outputs', () => {
  it('the documents and the action have run steps to check', () => {
    expect(STEPS.length).toBeGreaterThan(5);
  });

  it('no run: script holds a ${{ }} expression; outputs and secrets come in through env:', () => {
    const pasted = STEPS.map((s) => String(s.run)).filter((run) => run.includes('${{'));
    expect(pasted).toEqual([]);
  });

  it('the documented verdict step does not run a command a host put in its name', () => {
    const [step] = STEPS.filter((s) =>
      Object.values(s.env ?? {}).some((v) => String(v).includes('steps.gate.outputs.verdict')),
    );
    expect(step, 'docs/ci.md shows a step that prints the verdict').toBeDefined();
    const outputs = { verdict: 'PASS; certified: x$(touch pwned) 1.0.0' };
    runAsGithub(step ?? {}, outputs, scratch);
    expect(existsSync(join(scratch, 'pwned'))).toBe(false);
    // The form the docs used to show runs it: the check above can fail.
    runAsGithub({ run: 'echo "${{ steps.gate.outputs.verdict }}"' }, outputs, scratch);
    expect(existsSync(join(scratch, 'pwned'))).toBe(true);
  });
});
