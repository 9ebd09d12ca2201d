// action.yml cannot rot: its shell steps, read from the file in the packed package, run here the
// way a GitHub runner runs a composite action (inputs substituted into each step's env, the
// package as GITHUB_ACTION_PATH, GITHUB_ACTIONS, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set),
// against the reference host as the host under test. The package sits where `npm install` puts
// it, its dependencies beside it (this checkout's, linked, so nothing comes from the network),
// with no lockfile and no node_modules of its own.

import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { certificationFixtures } from '../support/certification-pack.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHostProcess } from '../support/host-process.ts';
import { resetMidBody, startHostileHost } from '../support/hostile-host.ts';
import { packedPackage } from '../support/packed-package.ts';
import { runProcess } from '../support/process.ts';
import { readActionYaml } from './action-yaml.ts';
import type { Node } from './action-yaml.ts';
import { isolatedEnv, LEAKY_KEY, removeDir, scratchDir, withoutVerdict } from './support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly shell?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
}
interface Action {
  readonly inputs: Readonly<
    Record<string, { readonly default?: string; readonly required?: string }>
  >;
  readonly outputs: Readonly<Record<string, { readonly value: string }>>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}

let packed = '';
let packageDir = '';
let action: Action;
/** What the package held as installed, before any run could write caches into it. */
let asInstalled = { lockfile: true, nodeModules: true };
/** The install step's exit status, run on the package as installed. */
let installStatus: number | null = null;
beforeAll(async () => {
  packed = await mkdtemp(join(tmpdir(), 'eval-gate-action-'));
  // Packed once a test run, scripts off: the globalSetup built dist/ from these sources.
  const { tarball, name } = await packedPackage();
  const modules = join(packed, 'project', 'node_modules');
  await mkdir(modules, { recursive: true });
  const untar = await runProcess('tar', ['-xzf', tarball, '-C', modules], {
    env: isolatedEnv(),
    deadlineMs: 120_000,
  });
  expect(untar.status, untar.stderr).toBe(0);
  packageDir = join(modules, name);
  await rename(join(modules, 'package'), packageDir);
  asInstalled = {
    lockfile: existsSync(join(packageDir, 'package-lock.json')),
    nodeModules: existsSync(join(packageDir, 'node_modules')),
  };
  for (const entry of await readdir(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    await symlink(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  action = readActionYaml(
    await readFile(join(packageDir, 'action.yml'), 'utf8'),
  ) as Node as unknown as Action;
  const install = action.runs.steps.find((step) => step.name?.startsWith('Install'));
  installStatus = (
    await runProcess('bash', ['-e', '-c', install?.run ?? 'exit 99'], {
      cwd: packed,
      env: { ...isolatedEnv(), GITHUB_ACTION_PATH: packageDir },
      deadlineMs: 60_000,
    })
  ).status;
}, 150_000);
afterAll(async () => {
  await rm(packed, { recursive: true, force: true });
});

/** `${{ inputs.NAME }}` as the runner substitutes it: the given value, else the default. */
function substitute(text: string, inputs: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}/g, (_, name: string) => {
    const declared = action.inputs[name];
    if (declared === undefined) throw new Error(`action.yml uses undeclared input ${name}`);
    return inputs[name] ?? declared.default ?? '';
  });
}

interface ActionRun {
  readonly codes: readonly (number | null)[];
  readonly stdout: string;
  readonly outputs: Readonly<Record<string, string>>;
  readonly summary: string;
}

/**
 * Each test has its own workspace and its own host, so the tests run side by side: a run waits
 * on child processes, and the machine's cores are better spent on another test than idle.
 */
async function inWorkspace(use: (workspace: string) => Promise<void>): Promise<void> {
  const workspace = await scratchDir();
  try {
    await use(workspace);
  } finally {
    await removeDir(workspace);
  }
}

async function withHost(
  args: readonly string[],
  use: (host: HostProcess) => Promise<void>,
): Promise<void> {
  const host = await startHostProcess(['--api-key', LEAKY_KEY, ...args]);
  try {
    await use(host);
  } finally {
    await host.close();
  }
}

/** A strict run's rows: every leg, and the generated pack it drives. */
const ROWS = LEGS.length + 1;

/** A step's deadline; a run against a healthy local host takes a few seconds. */
const STEP_TIMEOUT_MS = 240_000;

/** The outputs of a run the suite refused to start: exit 2 and no file to point at. */
const NOTHING_WRITTEN = {
  result: 'NOT RUN',
  certified: 'false',
  verdict: expect.stringMatching(/^Result: NOT RUN \(exit 2\): /) as unknown as string,
  'report-path': '',
  'junit-path': '',
  'summary-path': '',
  'exit-code': '2',
  'comment-path': '',
  regressed: '',
};

/** The key in the step's environment, as a workflow sets it from a secret. */
const KEYED = { OPENWOP_API_KEY: LEAKY_KEY };

/** Every step in order, stopping at the first that fails, as a runner does. */
async function runAction(
  workspace: string,
  inputs: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>> = {},
): Promise<ActionRun> {
  const outputFile = join(workspace, 'github-output');
  const summaryFile = join(workspace, 'step-summary.md');
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const codes: (number | null)[] = [];
  let stdout = '';
  const stepOutputs = new Map<string, Record<string, string>>();
  for (const step of action.runs.steps) {
    // A `uses:` step (the Node.js setup) is the runner's to run; its test checks it as written.
    if (step.uses !== undefined) continue;
    expect(step.shell).toBe('bash');
    const stepEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.env ?? {})) {
      stepEnv[name] = substitute(value, inputs);
    }
    await writeFile(outputFile, '');
    // Not holding this process while the step runs, so the tests run side by side.
    const result = await runProcess('bash', ['-e', '-c', substitute(step.run ?? '', inputs)], {
      cwd: workspace,
      env: {
        ...isolatedEnv(),
        GITHUB_ACTION_PATH: packageDir,
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        ...env,
        ...stepEnv,
      },
      deadlineMs: STEP_TIMEOUT_MS,
    });
    codes.push(result.status);
    stdout += result.stdout;
    const written: Record<string, string> = {};
    for (const line of (await readFile(outputFile, 'utf8')).split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) written[line.slice(0, eq)] = line.slice(eq + 1);
    }
    if (step.id !== undefined) stepOutputs.set(step.id, written);
    if (result.status !== 0) break;
  }
  // The action's outputs, resolved through `${{ steps.ID.outputs.NAME }}` as the runner does.
  const outputs: Record<string, string> = {};
  for (const [name, { value }] of Object.entries(action.outputs)) {
    const ref = /^\$\{\{ steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) \}\}$/.exec(value);
    expect(ref, `output ${name} maps to a step output`).not.toBeNull();
    const found = stepOutputs.get(ref?.[1] ?? '')?.[ref?.[2] ?? ''];
    if (found !== undefined) outputs[name] = found;
  }
  return { codes, stdout, outputs, summary: await readFile(summaryFile, 'utf8') };
}

describe.concurrent('action.yml', () => {
  it('is a composite action whose inputs cover the settings and whose outputs are the files, the counts and the verdict', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'base-url',
        'expected-failures',
        'fail-on',
        'generate',
        'node-version',
        'seed',
        'impl-name',
        'impl-version',
        'key-id',
        'only',
        'opt-out',
        'repeat',
        'report-dir',
        'signing-key',
        'skip',
        'strict',
        'wait-for-host',
        'compare-to',
        'comment-path',
      ].sort(),
    );
    expect(Object.keys(action.outputs).sort()).toEqual(
      [
        'blocked',
        'certified',
        'exit-code',
        'failed',
        'flaky',
        'implementation',
        'junit-path',
        'passed',
        'report-path',
        'result',
        'skipped',
        'summary-path',
        'verdict',
        'comment-path',
        'regressed',
      ].sort(),
    );
    // The key is never an input: it would be logged with the workflow's `with:`.
    expect(Object.keys(action.inputs).some((n) => /key$/.test(n) && n !== 'signing-key')).toBe(
      false,
    );
  });

  it(
    'its steps run every leg against the host, write the step summary and set every output from the verdict',
    { timeout: 360_000 },
    () =>
      inWorkspace(async (workspace) => {
        // A strict run drives the requirement set's pack, which the host seeds as it seeds the rest.
        await withHost(['--fixtures-dir', await certificationFixtures()], async (host) => {
          const run = await runAction(
            workspace,
            {
              'base-url': host.url,
              'report-dir': 'out',
              'impl-name': 'acme-host',
              strict: 'true',
              'wait-for-host': '30',
            },
            KEYED,
          );
          expect(run.codes).toEqual([0, 0]);
          expect(withoutVerdict(run.stdout.trimEnd().split('\n').at(-1))).toBe(
            `${ROWS} passed, 0 failed, 0 blocked, 0 skipped`,
          );
          // Declared acme-host against a host that advertises another name: a mismatch, named.
          const verdict =
            'Result: PASS (exit 0); not certified: implementation mismatch, not signed';
          expect(run.outputs).toEqual({
            'report-path': 'out/eval-gate-report.json',
            'junit-path': 'out/eval-gate-junit.xml',
            'summary-path': 'out/eval-gate-summary.md',
            'exit-code': '0',
            result: 'PASS',
            certified: 'false',
            implementation: 'openwop-reference-host 0.2.0',
            verdict,
            passed: String(ROWS),
            failed: '0',
            blocked: '0',
            skipped: '0',
            flaky: '0',
            'comment-path': '',
            regressed: '',
          });
          for (const path of ['out/eval-gate-junit.xml', 'out/eval-gate-summary.md']) {
            expect(existsSync(join(workspace, path)), path).toBe(true);
          }
          expect(run.stdout).not.toContain('::error');
          expect(run.summary.split('\n')[0]).toBe(verdict);
          const report = JSON.parse(
            await readFile(join(workspace, 'out', 'eval-gate-report.json'), 'utf8'),
          ) as {
            strict: boolean;
            target: { declared?: { name: string } };
          };
          expect(report.strict).toBe(true);
          expect(report.target.declared?.name).toBe('acme-host');
          expect(run.summary).toContain(
            `**PASS; ${ROWS} passed, 0 failed, 0 blocked, 0 skipped; not certified: implementation mismatch, not signed**`,
          );
        });
      }),
  );

  it(
    'the baseline, selection and severity inputs reach the run: an unobserved entry passes, a stale one fails the step',
    { timeout: 360_000 },
    () =>
      inWorkspace((workspace) =>
        withHost([], async (host) => {
          const baseline = (requirement: string): string =>
            `expectedFailures:\n  - requirement: ${requirement}\n    reason: not migrated yet\n`;
          await writeFile(join(workspace, 'unobserved.yml'), baseline('all-rule-unchanged'));
          await writeFile(join(workspace, 'stale.yml'), baseline('mean-gated'));
          const inputs = {
            'base-url': host.url,
            only: 'mean-gated, gated-fields-shape',
            'fail-on': 'should',
          };
          const passing = await runAction(
            workspace,
            { ...inputs, 'expected-failures': 'unobserved.yml' },
            KEYED,
          );
          expect(passing.codes).toEqual([0, 0]);
          expect(withoutVerdict(passing.stdout.trimEnd().split('\n').at(-1))).toBe(
            `2 passed, 0 failed, 0 blocked, ${LEGS.length - 2} skipped; partial: 2 of ${LEGS.length} selected; ` +
              'baseline: 0 failing requirements excused (0 rules), 0 stale; fail-on should: 0 SHOULD warnings',
          );
          expect(passing.summary).toContain('> **Not certified.**');
          const stale = await runAction(
            workspace,
            { ...inputs, 'expected-failures': 'stale.yml' },
            KEYED,
          );
          expect(stale.codes).toEqual([0, 1]);
          expect(stale.outputs).toMatchObject({
            'report-path': 'reports/eval-gate-report.json',
            'exit-code': '1',
            result: 'FAIL',
            certified: 'false',
          });
          expect(stale.outputs.verdict).toMatch(
            /^Result: FAIL \(exit 1\): 1 stale baseline entry, first mean-gated: remove it from stale\.yml(; not certified: |$)/,
          );
          expect(stale.outputs.verdict?.length).toBeLessThanOrEqual(160);
          expect(stale.stdout).toContain(
            'stale baseline entry: openwop.requirement.0246.mean-gated now holds; remove it from stale.yml',
          );
        }),
      ),
  );

  it(
    'a bad input stops the run with exit 2, an exit-code output of 2 and no report path',
    { timeout: 180_000 },
    () =>
      inWorkspace((workspace) =>
        withHost([], async (host) => {
          const run = await runAction(
            workspace,
            { 'base-url': host.url, 'opt-out': 'agents.nope' },
            KEYED,
          );
          expect(run.codes).toEqual([0, 2]);
          expect(run.outputs).toEqual(NOTHING_WRITTEN);
          // The cause, in the check's annotations and the step summary, as a failing run's is.
          expect(run.stdout).toMatch(
            /^::error title=eval gate NOT RUN \(exit 2\)::.*agents\.nope/m,
          );
          expect(run.summary).toMatch(/^Result: NOT RUN \(exit 2\): .*agents\.nope/);
        }),
      ),
  );

  it(
    'a blocked run fails the step with exit 3, one ::error with its cause, the step summary and the outputs',
    { timeout: 180_000 },
    () =>
      inWorkspace(async (workspace) => {
        // Every run the host is asked to create is cut off mid-answer: the suite cannot observe.
        const host = await startHostileHost({
          routes: { create: ({ response }) => resetMidBody(response, '{"runId":') },
        });
        try {
          const run = await runAction(
            workspace,
            { 'base-url': host.url, only: 'mean-gated' },
            { ...KEYED, OPENWOP_REQUEST_TIMEOUT_MS: '2000', OPENWOP_RUN_TIMEOUT_MS: '3000' },
          );
          expect(run.codes).toEqual([0, 3]);
          expect(run.outputs).toMatchObject({
            'exit-code': '3',
            result: 'BLOCKED',
            blocked: '1',
            failed: '0',
            'report-path': 'reports/eval-gate-report.json',
          });
          const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error'));
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatch(
            /^::error title=eval gate BLOCKED \(exit 3\)::1 of \d+ blocked \(.*connection reset/,
          );
          expect(run.summary).toMatch(/^Result: BLOCKED \(exit 3\): 1 of \d+ blocked /);
          expect(run.outputs.verdict).toBe(run.summary.split('\n')[0]);
          expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
            /^BLOCKED: 1 of \d+ blocked \(.*; 0 passed, 0 failed, 1 blocked, /,
          );
        } finally {
          await host.close();
        }
      }),
  );

  it(
    'an empty base-url (an unset CI variable) is exit 2 with one line, never a run against the embedded host',
    { timeout: 180_000 },
    () =>
      inWorkspace(async (workspace) => {
        expect(action.inputs['base-url']).toMatchObject({ required: 'true' });
        const run = await runAction(workspace, { 'base-url': '' }, KEYED);
        expect(run.codes).toEqual([0, 2]);
        expect(run.stdout.trim().split('\n')).toEqual([
          expect.stringMatching(
            /^::error title=eval gate NOT RUN \(exit 2\)::--base-url needs a value/,
          ),
        ]);
        expect(run.outputs).toEqual(NOTHING_WRITTEN);
        expect(run.summary).toMatch(/^Result: NOT RUN \(exit 2\): /);
      }),
  );

  it(
    'reads the API key from the environment, where a key too short to scrub is refused',
    { timeout: 180_000 },
    () =>
      inWorkspace(async (workspace) => {
        const run = await runAction(
          workspace,
          { 'base-url': 'https://host.example' },
          { OPENWOP_API_KEY: 'short' },
        );
        expect(run.codes).toEqual([0, 2]);
        expect(run.outputs['exit-code']).toBe('2');
      }),
  );

  it('sets up the Node.js version its node-version input names, 20 unless told, none when empty', () => {
    expect(action.inputs['node-version']).toMatchObject({ default: '20' });
    const setup = action.runs.steps.filter((step) => step.uses !== undefined);
    expect(setup).toHaveLength(1);
    expect(setup[0]?.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(setup[0]?.with).toEqual({ 'node-version': '${{ inputs.node-version }}' });
    expect(setup[0]?.if).toBe("${{ inputs.node-version != '' }}");
    // It comes first, so the steps after it run on that version.
    expect(action.runs.steps[0]).toBe(setup[0]);
  });

  it('installs from the installed package, which has no lockfile and no node_modules of its own', () => {
    expect(asInstalled).toEqual({ lockfile: false, nodeModules: false });
    // The install step found the dependencies beside the package rather than running npm ci,
    // which refuses a package without a lockfile (EUSAGE).
    expect(installStatus).toBe(0);
  });

  it(
    'annotates each failing requirement with one ::error line and counts it in the outputs',
    { timeout: 360_000 },
    () =>
      inWorkspace(async (workspace) => {
        const broken = await startHostProcess([
          '--api-key',
          LEAKY_KEY,
          '--defect',
          'cost-limit-dropped,latency-limit-dropped',
        ]);
        try {
          const run = await runAction(
            workspace,
            { 'base-url': broken.url, only: 'cost-limit-kept,latency-limit-kept' },
            KEYED,
          );
          expect(run.codes).toEqual([0, 1]);
          const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error'));
          expect(errors.map((line) => /^::error title=([^:]+)::/.exec(line)?.[1]).sort()).toEqual([
            'openwop.requirement.0246.cost-limit-kept',
            'openwop.requirement.0246.latency-limit-kept',
          ]);
          expect(run.outputs).toMatchObject({
            result: 'FAIL',
            passed: '0',
            failed: '2',
            blocked: '0',
            skipped: String(LEGS.length - 2),
          });
        } finally {
          await broken.close();
        }
      }),
  );

  it(
    'compares with a base report: the Markdown comment, and regressed true, false, or empty when diff refuses',
    { timeout: 360_000 },
    () =>
      inWorkspace(async (workspace) => {
        const only = 'cost-limit-kept,latency-limit-kept';
        const broken = await startHostProcess([
          '--api-key',
          LEAKY_KEY,
          '--defect',
          'cost-limit-dropped',
        ]);
        try {
          await withHost([], async (host) => {
            const base = await runAction(
              workspace,
              { 'base-url': host.url, only, 'report-dir': 'base' },
              KEYED,
            );
            expect(base.codes).toEqual([0, 0]);
            // The base branch's folder, as a downloaded artifact; the comment where it is asked for.
            const worse = await runAction(
              workspace,
              {
                'base-url': broken.url,
                only,
                'report-dir': 'pr',
                'compare-to': 'base',
                'comment-path': 'comments/pr.md',
              },
              KEYED,
            );
            expect(worse.codes).toEqual([0, 1]);
            expect(worse.outputs).toMatchObject({
              'exit-code': '1',
              regressed: 'true',
              'comment-path': 'comments/pr.md',
            });
            const comment = await readFile(join(workspace, 'comments', 'pr.md'), 'utf8');
            expect(comment.split('\n')[0]).toMatch(/^## RFC 0246 eval gate: /);
            expect(comment).toContain('cost-limit-kept');
            expect(comment).toContain('REGRESSED');
            // The comparison's verdict is one annotation, and the comment reaches the step summary.
            expect(worse.stdout).toMatch(
              /^::error title=eval gate comparison::1 requirement regressed/m,
            );
            expect(worse.summary).toContain(comment.trimEnd());
            // The base report's file, and the comment in the report folder by default.
            const same = await runAction(
              workspace,
              {
                'base-url': host.url,
                only,
                'report-dir': 'again',
                'compare-to': 'base/eval-gate-report.json',
              },
              KEYED,
            );
            expect(same.codes).toEqual([0, 0]);
            expect(same.outputs).toMatchObject({
              regressed: 'false',
              'comment-path': 'again/eval-gate-comment.md',
            });
            expect(existsSync(join(workspace, 'again', 'eval-gate-comment.md'))).toBe(true);
            expect(same.stdout).toMatch(/^::notice title=eval gate comparison::no regression$/m);
            expect(same.summary).toContain('## RFC 0246 eval gate: no regression');
            // A base that is not there (the first pull request, before main has a report): no
            // comparison, one notice and a line in the summary, never an ::error; the step's exit
            // code is still the run's.
            const missing = await runAction(
              workspace,
              {
                'base-url': host.url,
                only,
                'report-dir': 'lost',
                'compare-to': 'nowhere/eval-gate-report.json',
              },
              KEYED,
            );
            expect(missing.codes).toEqual([0, 0]);
            expect(missing.outputs).toMatchObject({
              'exit-code': '0',
              regressed: '',
              'comment-path': '',
            });
            expect(missing.stdout).toMatch(
              /^::notice title=eval gate comparison::no base report at nowhere\/eval-gate-report\.json, so nothing was compared$/m,
            );
            expect(missing.stdout).not.toMatch(/^::error/m);
            expect(missing.summary).toContain('no base report at nowhere/eval-gate-report.json');
            expect(existsSync(join(workspace, 'lost', 'eval-gate-comment.md'))).toBe(false);
          });
        } finally {
          await broken.close();
        }
      }),
  );

  it(
    'the repeat input reaches --repeat: a row that flips between repetitions is flaky in the outputs and fails the step',
    { timeout: 360_000 },
    () =>
      inWorkspace((workspace) =>
        // The host drops the cost condition on every other suite run: fail, then pass.
        withHost(['--defect', 'cost-limit-dropped-on-odd-runs'], async (host) => {
          const only = 'cost-limit-kept,mean-gated';
          const run = await runAction(
            workspace,
            { 'base-url': host.url, only, repeat: '2' },
            KEYED,
          );
          expect(run.codes).toEqual([0, 1]);
          const report = JSON.parse(
            await readFile(join(workspace, 'reports', 'eval-gate-report.json'), 'utf8'),
          ) as {
            repeat?: { count: number; rows: { requirement: string; stability: string }[] };
          };
          expect(report.repeat?.count).toBe(2);
          expect(
            report.repeat?.rows.filter((r) => r.stability === 'flaky').map((r) => r.requirement),
          ).toEqual(['openwop.requirement.0246.cost-limit-kept']);
          expect(run.outputs).toMatchObject({ 'exit-code': '1', result: 'FAIL', flaky: '1' });
          expect(run.stdout).toContain(
            'flaky: openwop.requirement.0246.cost-limit-kept came to executed-fail, executed-pass across the repetitions',
          );
          const closing = run.stdout.trimEnd().split('\n').at(-1) ?? '';
          expect(closing).toMatch(/^FAIL: [^;]*cost-limit-kept/);
          expect(closing).toContain('; repeat 2: 1 flaky;');
          // Without the input the same host is driven once: nothing can be flaky.
          const once = await runAction(
            workspace,
            { 'base-url': host.url, only, 'report-dir': 'once' },
            KEYED,
          );
          expect(once.outputs).toMatchObject({ flaky: '0' });
          expect(once.stdout).not.toMatch(/repeat \d/);
        }),
      ),
  );

  it(
    'the generate and seed inputs drive the generated pack the host was seeded with',
    { timeout: 360_000 },
    () =>
      inWorkspace(async (workspace) => {
        const cli = join(packageDir, 'bin', 'openwop-eval-gate.mjs');
        const seeded = await runProcess(
          process.execPath,
          [cli, 'fixtures', '--out', join(workspace, 'pack'), '--generate', '3', '--seed', '5'],
          { env: isolatedEnv(), deadlineMs: 120_000 },
        );
        expect(seeded.status, seeded.stderr).toBe(0);
        const packHost = await startHostProcess([
          '--api-key',
          LEAKY_KEY,
          '--fixtures-dir',
          join(workspace, 'pack'),
        ]);
        try {
          const run = await runAction(
            workspace,
            { 'base-url': packHost.url, only: 'mean-gated', generate: '3', seed: '5' },
            KEYED,
          );
          expect(run.codes).toEqual([0, 0]);
          const report = JSON.parse(
            await readFile(join(workspace, 'reports', 'eval-gate-report.json'), 'utf8'),
          ) as { requirements: { id: string; disposition: string }[] };
          expect(
            report.requirements.find((r) => r.id === 'openwop.requirement.0246.generated'),
          ).toMatchObject({ disposition: 'executed-pass' });
          expect(run.outputs['passed']).toBe('2');
        } finally {
          await packHost.close();
        }
      }),
  );
});
