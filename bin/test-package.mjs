#!/usr/bin/env node
// `npm run test:package`: the package as a host team installs it. Packs this checkout, installs
// the tarball into an empty project with a plain `npm install` (the registry resolves every
// dependency range afresh; this project's lockfile plays no part), runs both bins there, checks
// that no installed file of ours reaches into a dependency's lib/ folder, and records the
// installed size and package count in bench/recorded/package-install.json for
// docs/benchmarks.md. It needs the registry, so `npm test` does not run it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORD = join(ROOT, 'bench', 'recorded', 'package-install.json');
const STEP_DEADLINE_MS = 600_000;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const failures = [];

function sh(command, args, cwd) {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: STEP_DEADLINE_MS,
    env: withoutSuiteSettings(),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`$ ${command} ${args.join(' ')}  (exit ${result.status}, ${seconds} s)\n`);
  return result;
}

/** No OPENWOP_* setting of the caller's may point the installed CLI at another host. */
function withoutSuiteSettings() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('OPENWOP_')),
  );
}

function check(ok, what, detail = '') {
  process.stdout.write(
    `${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === '' ? '' : `: ${detail}`}\n`,
  );
  if (!ok) failures.push(what);
}

function codeFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return /\.(?:js|mjs|cjs|ts|mts)$/.test(entry.name) ? [path] : [];
  });
}

/** Bare specifiers naming a dependency's lib/ or internal folder, as `file: specifier`. */
function internalReaches(packageDir) {
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;
  return codeFiles(packageDir).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(pattern)]
      .map((m) => m[1])
      .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
      .filter((s) => /^(?:@[^/]+\/)?[^/]+\/(?:.*\/)?(?:lib|internal)\//.test(s))
      .map((s) => `${relative(packageDir, file)}: ${s}`),
  );
}

/**
 * The exit code the help promises for a run's last line, a closing line: the result that leads
 * it, before its counts.
 */
function expectedExit(lastLine) {
  const line = /^(PASS|FAIL|BLOCKED)\b.*; \d+ passed, \d+ failed, \d+ blocked, \d+ skipped/.exec(
    lastLine,
  );
  return line === null ? undefined : { PASS: 0, FAIL: 1, BLOCKED: 3 }[line[1]];
}

const work = mkdtempSync(join(tmpdir(), 'eval-gate-package-'));
try {
  const pack = sh('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  const tarball = join(work, packed.filename);
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'host-project', version: '1.0.0', private: true }),
  );
  const install = sh('npm', ['install', '--no-audit', '--no-fund', tarball], project);
  check(install.status === 0, 'npm install <tarball> into an empty project', install.stderr);
  // npm names each package with a script it would want allowed, one a line: `name@version (...)`.
  const flagged = install.stderr
    .split('\n')
    .map((l) => /^npm warn install-scripts\s+(\S+)@\S+ \(/.exec(l)?.[1])
    .filter((name) => name !== undefined);
  // Ours included: the clone's `prepare` build is left out of the packed manifest (prepack).
  check(
    flagged.length === 0,
    'no package, ours included, asks to run an install script',
    flagged.join(', '),
  );
  const installedScripts =
    JSON.parse(readFileSync(join(project, 'node_modules', manifest.name, 'package.json'), 'utf8'))
      .scripts ?? {};
  const lifecycle = Object.keys(installedScripts).filter((name) =>
    /^(pre|post)?(install|prepare|publish|pack)$/.test(name),
  );
  check(
    lifecycle.length === 0,
    'the installed package.json has no lifecycle script',
    lifecycle.join(', '),
  );

  const version = sh('npx', ['--no-install', 'openwop-eval-gate', '--version'], project);
  const help =
    version.status === 0
      ? version
      : sh('npx', ['--no-install', 'openwop-eval-gate', '--help'], project);
  check(help.status === 0, 'npx openwop-eval-gate --version, or --help', help.stderr);

  const run = sh('npx', ['--no-install', 'openwop-eval-gate', 'run'], project);
  const lastLine = run.stdout.trimEnd().split('\n').at(-1) ?? '';
  process.stdout.write(`     ${lastLine}\n`);
  const promised = expectedExit(lastLine);
  check(
    promised !== undefined && run.status === promised,
    'npx openwop-eval-gate run (embedded host) exits as its verdict says',
    `exit ${run.status}, last line "${lastLine}"\n${run.stderr.slice(-2000)}`,
  );

  const host = sh('npx', ['--no-install', 'openwop-eval-gate-host', '--help'], project);
  check(
    host.status === 0 && host.stdout.startsWith('usage: openwop-eval-gate-host '),
    'npx openwop-eval-gate-host --help names the bin in its usage',
    host.stderr || host.stdout.split('\n')[0],
  );

  const installed = join(project, 'node_modules', manifest.name);
  const reaches = internalReaches(installed);
  check(
    reaches.length === 0,
    "no installed file of ours requires a dependency's internal path",
    reaches.join('\n'),
  );

  const du = sh('du', ['-sk', join(project, 'node_modules')], project);
  const sizeKiB = Number(du.stdout.split('\t')[0]);
  const hidden = JSON.parse(
    readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8'),
  );
  const packages = Object.keys(hidden.packages).filter((p) => p.startsWith('node_modules/'));
  const record = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    npm: sh('npm', ['--version'], project).stdout.trim(),
    version: manifest.version,
    tarballKiB: Math.round(packed.size / 1024),
    packedFiles: packed.entryCount,
    installedKiB: sizeKiB,
    packages: packages.length,
    packageNames: packages.map((p) => p.slice('node_modules/'.length)).sort(),
    passed: failures.length === 0,
  };
  process.stdout.write(
    `installed: ${(sizeKiB / 1024).toFixed(1)} MiB over ${packages.length} packages ` +
      `(ours included); tarball ${record.tarballKiB} KiB, ${record.packedFiles} files\n`,
  );
  mkdirSync(join(ROOT, 'bench', 'recorded'), { recursive: true });
  writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
  process.stdout.write(`wrote ${relative(ROOT, RECORD)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) {
  process.stdout.write(`${failures.length} check(s) failed: ${failures.join('; ')}\n`);
  process.exitCode = 1;
}
