#!/usr/bin/env node
// `npm run test:vitest-lane -- SPEC` (such as 5): the legs in a host team's own vitest of that
// version. Packs this checkout (scripts off: dist/ is built by `npm ci`), installs the tarball and
// `vitest@SPEC` together into an empty project with a plain `npm install` (so the optional peer
// range must admit that vitest: no ERESOLVE, no --legacy-peer-deps), seeds and starts the packed
// reference host, and runs a vitest config whose one project is `evalGateProject`, strict. It
// needs the registry, so `npm test` does not run it; `.ci/run` does. The offline test of the same
// project under this checkout's vitest is tests/pack/installed-package.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STEP_DEADLINE_MS = 600_000;
const HOST_DEADLINE_MS = 20_000;
const KEY = 'vitest-lane-key-0246';
const spec = process.argv[2];
if (spec === undefined || !/^[\w.^~<>=| -]+$/.test(spec)) {
  process.stderr.write('test-vitest-lane: give the vitest version to install, such as 5\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** No OPENWOP_* setting of the caller's may point the run at another host. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('OPENWOP_')),
);

function sh(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: STEP_DEADLINE_MS,
    env: { ...env, NO_COLOR: '1' },
  });
  process.stdout.write(`$ ${command} ${args.join(' ')}  (exit ${result.status})\n`);
  if (result.status !== 0) {
    process.stdout.write(`${result.stdout.slice(-4000)}${result.stderr.slice(-4000)}\n`);
    throw new Error(`${command} ${args[0]} failed`);
  }
  return result;
}

/** The packed reference host, seeded from `seed`, once it prints its listening line. */
function startHost(project, seed) {
  const bin = join(project, 'node_modules', manifest.name, 'bin', 'openwop-eval-gate-host.mjs');
  const child = spawn(process.execPath, [bin, '--api-key', KEY, '--fixtures-dir', seed], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the reference host printed no listening line within 20 s'));
    }, HOST_DEADLINE_MS);
    child.stdout.once('data', (chunk) => {
      clearTimeout(timer);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString('utf8'))?.[1];
      if (url === undefined) reject(new Error(`unexpected line: ${chunk}`));
      else resolve({ url, stop: () => child.kill('SIGTERM') });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'eval-gate-vitest-lane-'));
let host;
let failed = false;
try {
  const pack = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT);
  const [packed] = JSON.parse(pack.stdout);
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'host-project', version: '1.0.0', private: true, type: 'module' }),
  );
  const tarball = join(work, packed.filename);
  sh('npm', ['install', '--no-audit', '--no-fund', tarball, `vitest@${spec}`], project);
  const cli = join(project, 'node_modules', manifest.name, 'bin', 'openwop-eval-gate.mjs');
  sh(process.execPath, [cli, 'fixtures', '--out', 'seed'], project);
  host = await startHost(project, join(project, 'seed'));
  writeFileSync(
    join(project, 'vitest.config.mjs'),
    [
      "import { defineConfig } from 'vitest/config';",
      `import { evalGateProject } from '${manifest.name}/vitest';`,
      'export default defineConfig({ test: { projects: [evalGateProject({',
      `  baseUrl: ${JSON.stringify(host.url)}, apiKey: ${JSON.stringify(KEY)}, strict: true,`,
      '})] } });',
    ].join('\n'),
  );
  const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs');
  const run = sh(process.execPath, [vitest, 'run'], project);
  const version = JSON.parse(
    readFileSync(join(project, 'node_modules', 'vitest', 'package.json'), 'utf8'),
  ).version;
  const closing = /^PASS; (\d+) passed, 0 failed, 0 blocked, 0 skipped; .*$/m.exec(run.stdout);
  const drove = /generated pack: \d+ cases in/.test(run.stdout);
  process.stdout.write(`vitest ${version}: ${closing?.[0] ?? 'no closing line'}\n`);
  if (closing === null || !drove) {
    process.stdout.write(run.stdout.slice(-4000));
    failed = true;
  }
} catch (error) {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
  failed = true;
} finally {
  host?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(failed ? 'FAIL the vitest lane\n' : 'ok   the vitest lane\n');
process.exitCode = failed ? 1 : 0;
