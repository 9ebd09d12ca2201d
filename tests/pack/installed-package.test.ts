// The packed package as a host team uses it, offline: `npm pack` (scripts off; the globalSetup has
// built dist/ from these sources; tests/support/packed-package.ts packs once a test run), the
// tarball unpacked into an empty project's node_modules and its five runtime dependencies linked
// from this checkout's, so nothing comes from the network.
// There the CLI runs with no vitest anywhere it could be resolved, the typed API runs and its types
// resolve under tsc, and a vitest config whose one project is `evalGateProject` runs the legs
// against a reference host, drives the strict pack and certifies a signed run.

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHostProcess } from '../support/host-process.ts';
import { packedPackage } from '../support/packed-package.ts';
import { runProcess } from '../support/process.ts';
import { LEGS } from '../../lib/legs.ts';
import { currentSet } from '../../lib/requirement-sets.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  readonly name: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string | { readonly types: string }>>;
};
const KEY = 'installed-package-key-0246';
const KEY_ID = 'installed-project-key';
const STEP_MS = 120_000;
const DECLARATION_CHECK = join(ROOT, 'tests', 'support', 'declaration-check.mjs');

let work = '';
let project = '';
let installed = '';

/** A command in the project, with exactly the isolated environment and `env`. */
function inProject(args: readonly string[], env: Readonly<Record<string, string>> = {}) {
  return runProcess(process.execPath, args, {
    cwd: project,
    env: { ...isolatedEnv(), NO_COLOR: '1', ...env },
    deadlineMs: STEP_MS,
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'eval-gate-installed-'));
  const { tarball } = await packedPackage();
  project = join(work, 'project');
  installed = join(project, 'node_modules', manifest.name);
  await mkdir(installed, { recursive: true });
  const tar = await runProcess('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], {
    env: isolatedEnv(),
    deadlineMs: STEP_MS,
  });
  expect(tar.status, tar.stderr).toBe(0);
  // The runtime dependencies as npm would install them; vitest only where a test links it.
  for (const dependency of Object.keys(manifest.dependencies)) {
    await symlink(
      join(ROOT, 'node_modules', dependency),
      join(project, 'node_modules', dependency),
    );
  }
  await mkdir(join(project, 'node_modules', '@types'));
  await symlink(
    join(ROOT, 'node_modules', '@types', 'node'),
    join(project, 'node_modules', '@types', 'node'),
  );
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'host-project', private: true, type: 'module' }),
  );
}, STEP_MS * 2);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('the packed package, installed', () => {
  it(
    'runs the CLI with no vitest anywhere it could resolve one',
    { timeout: STEP_MS },
    async () => {
      expect(existsSync(join(project, 'node_modules', 'vitest'))).toBe(false);
      const bin = join(installed, 'bin', 'openwop-eval-gate.mjs');
      const run = await inProject([bin, 'run', '--report-dir', 'cli-reports']);
      expect(run.status, run.output).toBe(0);
      expect(run.output).toMatch(/PASS; \d+ passed, 0 failed, 0 blocked, 0 skipped;/);
    },
  );

  it(
    'exports runConformance, verifyReport, judge and the witness, which run',
    async () => {
      await writeFile(
        join(project, 'api.mjs'),
        [
          "import { judge, judgeEvalRun, mustFailures, runConformance, verifyReport } from 'openwop-eval-gate-conformance';",
          "const { verdict, report, files } = await runConformance({ env: false, reportDir: 'api-reports' });",
          'const verified = await verifyReport(files[0], { offline: true });',
          "const refused = await judge({ summaryPath: 'no-such-summary.json', fixture: 'x' }).catch((e) => e.name);",
          'console.log(JSON.stringify({ exit: verdict.exitCode, rows: report.requirements.length, first: files[0],',
          '  verified: verified.ok, refused, witness: [typeof judgeEvalRun, typeof mustFailures] }));',
        ].join('\n'),
      );
      const run = await inProject(['api.mjs']);
      expect(run.status, run.output).toBe(0);
      const line = run.output.trimEnd().split('\n').at(-1) ?? '';
      expect(JSON.parse(line)).toEqual({
        exit: 0,
        rows: expect.any(Number) as number,
        first: 'api-reports/eval-gate-report.json',
        verified: true,
        refused: 'JudgeInputError',
        witness: ['function', 'function'],
      });
      // The report is the one the run wrote, not one the API made up.
      const written = JSON.parse(
        await readFile(join(project, 'api-reports', 'eval-gate-report.json'), 'utf8'),
      ) as {
        requirements: unknown[];
      };
      expect((JSON.parse(line) as { rows: number }).rows).toBe(written.requirements.length);
    },
    STEP_MS,
  );

  it('resolves its types under tsc, and they reject a misuse', { timeout: STEP_MS }, async () => {
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    // One check shows both: a clean file compiles, and the directive fails the check (TS2578)
    // unless the misuse below it is an error, which it is only when the types were resolved. The
    // check is tsc's, reporting the consumer's and the package's files only
    // (tests/support/declaration-check.mjs).
    await writeFile(
      join(project, 'consumer.ts'),
      [
        "import { runConformance, verifyReport, type ConformanceRun } from 'openwop-eval-gate-conformance';",
        "import { evalGateProject } from 'openwop-eval-gate-conformance/vitest';",
        "const run: ConformanceRun = await runConformance({ baseUrl: 'http://127.0.0.1:1', strict: true });",
        'const code: number = run.verdict.exitCode;',
        "const ok: boolean = (await verifyReport('r.json', { offline: true })).ok;",
        "const name: string = evalGateProject({ baseUrl: 'http://127.0.0.1:1' }).test.name;",
        '// @ts-expect-error: the exit code is a number',
        'const wrong: string = run.verdict.exitCode;',
        'console.log(code, ok, name, wrong);',
        '',
      ].join('\n'),
    );
    const checked = await inProject([DECLARATION_CHECK, manifest.name]);
    expect(checked.status, checked.output).toBe(0);
    const { files } = JSON.parse(checked.output.trimEnd().split('\n').at(-1) ?? '') as {
      files: string[];
    };
    // The consumer and the declarations both exports name were among the files checked.
    const declarations = Object.values(manifest.exports).flatMap((entry) =>
      typeof entry === 'string' ? [] : [join('node_modules', manifest.name, entry.types)],
    );
    expect(declarations).not.toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['consumer.ts', ...declarations]));
  });
});

describe('evalGateProject in a host team vitest config', () => {
  let host: HostProcess | undefined;
  let seeded = '';

  beforeAll(async () => {
    const bin = join(installed, 'bin', 'openwop-eval-gate.mjs');
    seeded = join(project, 'seed');
    const seed = await inProject([bin, 'fixtures', '--out', seeded]);
    expect(seed.status, seed.output).toBe(0);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    await writeFile(join(project, 'host.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(
      join(project, 'host.pub.pem'),
      publicKey.export({ type: 'spki', format: 'pem' }),
    );
    host = await startHostProcess([
      '--api-key',
      KEY,
      '--signing-key',
      join(project, 'host.pub.pem'),
      '--key-id',
      KEY_ID,
      '--fixtures-dir',
      seeded,
    ]);
    await symlink(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
  }, STEP_MS);

  afterAll(async () => {
    await host?.close();
  });

  it(
    'runs the legs and the strict pack, writes the report and certifies a signed run',
    { timeout: STEP_MS * 2 },
    async () => {
      await writeFile(
        join(project, 'vitest.config.mjs'),
        [
          "import { defineConfig } from 'vitest/config';",
          "import { evalGateProject } from 'openwop-eval-gate-conformance/vitest';",
          'export default defineConfig({ test: { projects: [evalGateProject({',
          `  baseUrl: ${JSON.stringify(host?.url)}, apiKey: ${JSON.stringify(KEY)}, strict: true,`,
          `  reportDir: 'vitest-reports', signingKey: 'host.pem', keyId: ${JSON.stringify(KEY_ID)},`,
          '})] } });',
        ].join('\n'),
      );
      const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs');
      const run = await inProject([vitest, 'run']);
      expect(run.status, run.output).toBe(0);
      expect(run.output).toMatch(
        /\|eval-gate\| node_modules\/openwop-eval-gate-conformance\/tests\//,
      );
      expect(run.output).toContain(`generated pack: ${currentSet().pack.count} cases in`);
      // Every leg and the pack's requirement, each a test that passed.
      const rows = LEGS.length + 1;
      expect(run.output).toMatch(
        new RegExp(`^PASS; ${rows} passed, 0 failed, 0 blocked, 0 skipped; certified`, 'm'),
      );
      expect(run.output).toMatch(new RegExp(`Tests\\s+${rows} passed \\(${rows}\\)`));
      const report = JSON.parse(
        await readFile(join(project, 'vitest-reports', 'eval-gate-report.json'), 'utf8'),
      ) as { certification: { certified: boolean } };
      expect(report.certification.certified).toBe(true);
    },
  );
});
